/**
 * Turns model text into DOM nodes: paragraphs and links into the reader, nothing else. Every other
 * character is text (textContent), so model output can never inject markup.
 */
const LINK = /\[([^\]\n]{1,200})\]\(([^)\s]{1,300})\)/g;
const READER = /^\/read\/[1-3A-Z]{3}\/[1-9]\d{0,2}(\?verse=[1-9]\d{0,2}(-[1-9]\d{0,2})?)?$/;

export function readerLink(target, bibleId) {
  if (!READER.test(target)) return undefined;
  if (!bibleId || bibleId === "eng-web") return target;
  return `${target}${target.includes("?") ? "&" : "?"}bible_id=${encodeURIComponent(bibleId)}`;
}

function paragraph(doc, text, bibleId) {
  const p = doc.createElement("p");
  let at = 0;
  for (const m of text.matchAll(LINK)) {
    const href = readerLink(m[2], bibleId);
    if (!href) continue;
    if (m.index > at) p.append(text.slice(at, m.index));
    const a = doc.createElement("a");
    a.href = href;
    a.target = "_blank";
    a.rel = "noopener";
    a.textContent = m[1];
    p.append(a);
    at = m.index + m[0].length;
  }
  if (at < text.length) p.append(text.slice(at));
  return p;
}

export function renderAnswer(doc, text, bibleId) {
  const fragment = doc.createDocumentFragment();
  for (const para of text.split(/\n\s*\n/)) {
    if (para.trim()) fragment.append(paragraph(doc, para.trim(), bibleId));
  }
  return fragment;
}
