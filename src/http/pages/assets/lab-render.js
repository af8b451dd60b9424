/**
 * Turns model text into DOM nodes: paragraphs and links into the reader, nothing else. Every other
 * character is text (textContent), so model output can never inject markup.
 */
const LINK = /\[([^\]\n]{1,200})\]\(([^)\s]{1,300})\)/g;
// The reader links the service writes (readerUrl): "/read/JHN/3?verse=16", "/read/MAT/18?bible_id=eng-kjv",
// "/read/JHN/3?verse=16-18&bible_id=spa-rv1909", book ids such as 1CO, PS2 and 4MA included.
const READER = /^\/read\/[1-4A-Z][A-Z0-9]{2}\/[1-9]\d{0,2}(?:\?(?:verse=[1-9]\d{0,2}(?:-[1-9]\d{0,2})?(?:&bible_id=[a-z0-9-]{1,40})?|bible_id=[a-z0-9-]{1,40}))?$/;

/**
 * The href for a link target, or undefined when it is not a reader link of this service: root-relative,
 * or absolute under the service's PUBLIC_BASE_URL (`base`, from the page). The service has already put
 * the translation into the link, so the target is used as it is.
 */
export function readerLink(target, base) {
  const root = base ? base.replace(/\/+$/, "") : "";
  const path = root && target.startsWith(`${root}/read/`) ? target.slice(root.length) : target;
  return READER.test(path) ? target : undefined;
}

function paragraph(doc, text, base) {
  const p = doc.createElement("p");
  let at = 0;
  for (const m of text.matchAll(LINK)) {
    const href = readerLink(m[2], base);
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

/** `base`: the service's PUBLIC_BASE_URL when it has one (the lab page carries it as data-reader-base). */
export function renderAnswer(doc, text, base) {
  const fragment = doc.createDocumentFragment();
  for (const para of text.split(/\n\s*\n/)) {
    if (para.trim()) fragment.append(paragraph(doc, para.trim(), base));
  }
  return fragment;
}
