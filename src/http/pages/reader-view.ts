import { BOOKS, DEUTEROCANON, chapterCount, type Book } from "../../scripture/books.js";
import { TRANSLATIONS, type Translation } from "../../scripture/translations.js";
import { esc, layout, type PageAssets } from "./html.js";
import { formatReference } from "../../scripture/references.js";
import { COMMENTARIES } from "../../study/commentaries.js";
import { TAGGED_BIBLES } from "../../study/verse-tags.js";
import { bookName, readerHref, type ChapterRef, type ReaderView } from "./reader.js";

/** "John 3", "Psalm 23", "Salmo 23": the reference formatter's names, so headings say what answers say. */
const title = (ref: ChapterRef, t: Translation) =>
  formatReference({ book: ref.book.id, chapter: ref.chapter }, t.language === "es" ? "es" : "en");

// The page chrome speaks the translation's language, so a Spanish chapter is a Spanish page.
const UI = {
  en: {
    translation: "Translation", books: "Books", chaptersOf: "Chapters of", skip: "Skip to the text",
    ot: "Old Testament", nt: "New Testament", dc: "Deuterocanon (in the World English Bible)", around: "Chapters before and after", footer: "Public-domain text.",
    previous: "Previous chapter", next: "Next chapter", home: "Biblical Chat", lab: "Prompt lab",
    words: "Original words", notes: "Notes", commentary: "Commentary", study: "Study tools",
  },
  es: {
    translation: "Traducción", books: "Libros", chaptersOf: "Capítulos de", skip: "Saltar al texto",
    ot: "Antiguo Testamento", nt: "Nuevo Testamento", dc: "Deuterocanónicos (en la World English Bible)", around: "Capítulos anterior y siguiente", footer: "Texto de dominio público.",
    previous: "Capítulo anterior", next: "Capítulo siguiente", home: "Biblical Chat", lab: "Prompt lab",
    words: "Palabras originales", notes: "Notas", commentary: "Comentario (inglés)", study: "Herramientas de estudio",
  },
} as const;
const ui = (t: Translation) => (t.language === "es" ? UI.es : UI.en);

/**
 * When the requested translation lacks the book (the deuterocanon in the KJV or RV1909), the text is the
 * WEB's, but the page keeps the reader's choice: its chrome speaks the requested translation's language
 * and its links carry the requested bible_id, so leaving the book returns to that translation.
 */
const chrome = (view: ReaderView) => view.fallback?.requested ?? view.translation;
const linkId = (view: ReaderView) => chrome(view).id;

/** Short names for the compact header; the full name is under the heading. */
const SHORT: Readonly<Record<string, string>> = { "eng-web": "WEB", "eng-kjv": "KJV", "spa-rv1909": "RV1909" };
const shortName = (t: Translation) => SHORT[t.id] ?? t.name;

const verseParam = (view: ReaderView) =>
  view.highlight ? (view.highlight.from === view.highlight.to ? `${view.highlight.from}` : `${view.highlight.from}-${view.highlight.to}`) : undefined;

function pager(view: ReaderView, where: string): string {
  const id = linkId(view);
  const link = (ref: ChapterRef | undefined, rel: "prev" | "next") =>
    ref
      ? `<a rel="${rel}" class="${rel}" href="${esc(readerHref(ref, id))}">${rel === "prev" ? "‹ " : ""}${esc(title(ref, chrome(view)))}${rel === "next" ? " ›" : ""}</a>`
      : `<span class="${rel}"></span>`;
  return `<nav class="pager" aria-label="${esc(where)}">${link(view.prev, "prev")}${link(view.next, "next")}</nav>`;
}

/** The translation switch: a menu of links to this chapter (and verse) in each translation; no script needed. */
function translationMenu(view: ReaderView): string {
  const verse = verseParam(view);
  const items = TRANSLATIONS.map((t) => {
    const current = t.id === view.translation.id ? ' aria-current="page"' : "";
    return `<li><a href="${esc(readerHref(view, t.id, verse))}" lang="${esc(t.language)}"${current}>${esc(t.name)}</a></li>`;
  }).join("");
  return `<details class="menu translations"><summary><span class="sr-only">${esc(ui(chrome(view)).translation)}: </span>${esc(shortName(view.translation))}</summary>
<ul class="menu-list">${items}</ul></details>`;
}

/** The compact header that stays on screen: previous, the reference, next, the translation switch. */
function header(view: ReaderView): string {
  const t = ui(chrome(view));
  const step = (ref: ChapterRef | undefined, rel: "prev" | "next") => {
    const label = rel === "prev" ? t.previous : t.next;
    const glyph = rel === "prev" ? "‹" : "›";
    if (!ref) return `<span class="step" aria-hidden="true"></span>`;
    const name = title(ref, chrome(view));
    return `<a rel="${rel}" class="step" href="${esc(readerHref(ref, linkId(view)))}" title="${esc(name)}" aria-label="${esc(`${label}: ${name}`)}">${glyph}</a>`;
  };
  const range = view.highlight ? `:${verseParam(view)}` : "";
  return `<header class="bar reader-bar">
${step(view.prev, "prev")}
<p class="ref">${esc(title(view, chrome(view)))}${esc(range)}</p>
${step(view.next, "next")}
${translationMenu(view)}
</header>`;
}

function bookList(view: ReaderView, books: readonly Book[]): string {
  return books
    .map((b) => {
      const current = b.id === view.book.id ? ' aria-current="page"' : "";
      return `<li><a href="${esc(readerHref({ book: b, chapter: 1 }, linkId(view)))}"${current}>${esc(bookName(b, chrome(view)))}</a></li>`;
    })
    .join("");
}

function jumpNav(view: ReaderView): string {
  const chapters = Array.from({ length: chapterCount(view.book) }, (_, i) => i + 1)
    .map((c) => {
      const current = c === view.chapter ? ' aria-current="page"' : "";
      return `<li><a href="${esc(readerHref({ book: view.book, chapter: c }, linkId(view)))}"${current}>${c}</a></li>`;
    })
    .join("");
  const t = ui(chrome(view));
  return `<div class="jump">
<details class="books"><summary>${esc(t.books)}</summary>
<h2>${esc(t.ot)}</h2><ul class="book-list">${bookList(view, BOOKS.filter((b) => b.testament === "OT"))}</ul>
<h2>${esc(t.nt)}</h2><ul class="book-list">${bookList(view, BOOKS.filter((b) => b.testament === "NT"))}</ul>
<h2>${esc(t.dc)}</h2><ul class="book-list">${bookList(view, DEUTEROCANON)}</ul>
</details>
<details class="chapters"><summary>${esc(t.chaptersOf)} ${esc(bookName(view.book, chrome(view)))}</summary>
<ul class="chapter-list">${chapters}</ul>
</details>
</div>`;
}

/**
 * The chapter's text, set as its layout says: prose paragraphs, stanzas of poetic lines (indented as the
 * module indents them), Selah lines and headings; one paragraph when the translation has no layout. A verse
 * that runs over several lines is several `.verse` spans (the first carries its id). In prose a verse number
 * is joined to the first word of its verse by a no-break space, so a line never ends on a verse number; in
 * poetry it hangs in the margin before its line.
 */
function chapterText(view: ReaderView): string {
  const { from, to } = view.highlight ?? { from: 0, to: -1 };
  const marksOf = new Map((view.layout?.verses ?? []).map((v) => [v.verse, [...v.marks].sort((a, b) => a.at - b.at)]));
  const headingsOf = new Map<number, string[]>();
  for (const h of view.layout?.headings ?? []) headingsOf.set(h.verse, [...(headingsOf.get(h.verse) ?? []), h.text]);

  const out: string[] = [];
  let block: { kind: "prose" | "stanza"; html: string[] } | undefined;
  let line: { cls: string; html: string[] } | undefined;
  const closeLine = () => {
    if (block && line && line.html.length > 0) block.html.push(`<span class="${line.cls}">${line.html.join("\n")}</span>`);
    line = undefined;
  };
  const closeBlock = () => {
    closeLine();
    if (block && block.html.length > 0) out.push(block.kind === "prose" ? `<p>${block.html.join("\n")}</p>` : `<div class="stanza">\n${block.html.join("\n")}\n</div>`);
    block = undefined;
  };
  const open = (kind: "prose" | "stanza") => {
    closeBlock();
    block = { kind, html: [] };
  };
  const startLine = (cls: string) => {
    if (block?.kind !== "stanza") open("stanza");
    closeLine();
    line = { cls, html: [] };
  };
  /** Where the next text goes; true when that is a poetic line (whose verse number hangs in the margin). */
  const target = (): boolean => {
    if (!block) open("prose");
    if (block!.kind === "stanza" && !line) line = { cls: "line l1", html: [] };
    return line !== undefined;
  };
  const emit = (html: string) => {
    target();
    (line ?? block!).html.push(html);
  };

  for (const { verse, text } of view.text.verses) {
    for (const heading of headingsOf.get(verse) ?? []) {
      closeBlock();
      out.push(`<h2 class="heading">${esc(heading)}</h2>`);
    }
    const hl = verse >= from && verse <= to;
    let first = true;
    let pos = 0;
    const segment = (end: number) => {
      const part = text.slice(pos, end);
      pos = end;
      if (!first && part.trim() === "") return;
      // In prose a no-break space keeps the number with the first word; in a poetic line the number hangs
      // in the margin (CSS), so nothing follows it.
      const glue = target() ? "" : "\u00a0";
      const number = first ? `<a class="vn" href="${esc(readerHref(view, linkId(view), String(verse)))}">${verse}</a>${glue}` : "";
      const attrs = first ? ` id="v${verse}"${hl ? ' data-highlight=""' : ""}` : ` data-v="${verse}"`;
      emit(`<span class="verse${hl ? " hl" : ""}"${attrs}>${number}${esc(first ? part.trimStart() : part)}</span>`);
      first = false;
    };
    for (const mark of marksOf.get(verse) ?? []) {
      if (mark.at > pos) segment(mark.at);
      if (mark.kind === "paragraph" || mark.kind === "stanza-end") open("prose");
      else if (mark.kind === "stanza") open("stanza");
      else if (mark.kind === "selah") startLine("line selah");
      else if (mark.kind === "line") startLine(`line l${Math.min(Math.max(mark.indent, 1), 3)}`);
    }
    segment(text.length);
  }
  closeBlock();
  return out.join("\n");
}

/**
 * The study tools: the original words and the notes where the translation carries Strong's tags, and the
 * commentaries that cover the book. study.js and the data load only when a tool is used.
 */
function studyBar(assets: PageAssets, view: ReaderView): string {
  const t = ui(chrome(view));
  const tagged = TAGGED_BIBLES.includes(view.translation.id);
  const tools = tagged
    ? `<button type="button" class="tool" data-tool="words" aria-pressed="false">${esc(t.words)}</button>
<button type="button" class="tool" data-tool="notes" aria-pressed="false">${esc(t.notes)}</button>`
    : "";
  const covering = COMMENTARIES.filter((c) => c.scope === "bible" || c.scope.includes(view.book.id));
  const items = covering
    .map((c) => `<li><button type="button" data-commentary="${esc(c.id)}" aria-pressed="false" lang="en">${esc(c.name)} <span class="by">${esc(c.author)}, ${esc(c.date.replace(/ \(.*\)$/, ""))}</span></button></li>`)
    .join("");
  const menu = covering.length
    ? `<details class="menu commentary-menu"><summary>${esc(t.commentary)}</summary><ul class="menu-list">${items}</ul></details>`
    : "";
  const ref = formatReference({ book: view.book.id, chapter: view.chapter }, "en");
  return `<div class="study" role="group" aria-label="${esc(t.study)}" data-ref="${esc(ref)}" data-bible="${esc(view.translation.id)}" data-book="${esc(view.book.id)}" data-chapter="${view.chapter}" data-lang="${esc(chrome(view).language)}" data-module="${esc(assets.url("study.js"))}">
${tools}
${menu}
</div>
<p class="study-status" role="status"></p>`;
}

export function renderReader(assets: PageAssets, view: ReaderView): string {
  const heading = title(view, chrome(view));
  const range = view.highlight ? `:${verseParam(view)}` : "";
  const superscription = view.text.superscription ? `<p class="superscription">${esc(view.text.superscription)}</p>` : "";
  const t = ui(chrome(view));
  const body = `<a class="skip" href="#text">${esc(t.skip)}</a>
${header(view)}
${jumpNav(view)}
${studyBar(assets, view)}
<div class="page">
<main id="text" lang="${esc(view.translation.language)}" tabindex="-1">
<h1${chrome(view).language !== view.translation.language ? ` lang="${esc(chrome(view).language)}"` : ""}>${esc(heading)}</h1>
<p class="edition">${esc(view.translation.name)}</p>
${view.fallback ? `<p class="note fallback" role="note" lang="${esc(view.fallback.requested.language)}">${esc(view.fallback.note)}</p>` : ""}
${superscription}
<div class="chapter-text">
${chapterText(view)}
</div>
</main>
<aside class="commentary" lang="en" tabindex="-1" aria-labelledby="commentary-title" hidden></aside>
</div>
${pager(view, t.around)}
<footer class="foot">${esc(t.footer)} <a href="/" lang="en">${esc(t.home)}</a> · <a href="/lab" lang="en">${esc(t.lab)}</a></footer>`;
  return layout(assets, {
    title: `${heading}${range} · ${view.translation.name}`,
    lang: chrome(view).language,
    body,
    scripts: ["reader.js"],
    bodyClass: "reader",
  });
}

export function renderNotFound(assets: PageAssets, message: string): string {
  const body = `<header class="bar"><a class="brand" href="/read/GEN/1">Bible reader</a></header>
<main class="missing">
<h1>Not found</h1>
<p>${esc(message)}</p>
<p>Try <a href="/read/GEN/1">Genesis 1</a>, <a href="/read/PSA/23">Psalm 23</a> or <a href="/read/JHN/3?verse=16">John 3:16</a>.</p>
</main>`;
  return layout(assets, { title: "Not found · Bible reader", body });
}
