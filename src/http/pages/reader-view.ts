import { BOOKS, chapterCount, type Book } from "../../scripture/books.js";
import { TRANSLATIONS, type Translation } from "../../scripture/translations.js";
import { esc, layout, type PageAssets } from "./html.js";
import { bookName, readerHref, type ChapterRef, type ReaderView } from "./reader.js";

const title = (ref: ChapterRef, t: Translation) => `${bookName(ref.book, t)} ${ref.chapter}`;

// The page chrome speaks the translation's language, so a Spanish chapter is a Spanish page.
const UI = {
  en: {
    reader: "Bible reader", translation: "Translation", show: "Show", books: "Books", chaptersOf: "Chapters of",
    ot: "Old Testament", nt: "New Testament", around: "Chapters before and after", footer: "Public-domain text.",
  },
  es: {
    reader: "Lector bíblico", translation: "Traducción", show: "Mostrar", books: "Libros", chaptersOf: "Capítulos de",
    ot: "Antiguo Testamento", nt: "Nuevo Testamento", around: "Capítulos anterior y siguiente", footer: "Texto de dominio público.",
  },
} as const;
const ui = (t: Translation) => (t.language === "es" ? UI.es : UI.en);

function pager(view: ReaderView, where: string): string {
  const id = view.translation.id;
  const link = (ref: ChapterRef | undefined, rel: "prev" | "next") =>
    ref
      ? `<a rel="${rel}" class="${rel}" href="${esc(readerHref(ref, id))}">${rel === "prev" ? "‹ " : ""}${esc(title(ref, view.translation))}${rel === "next" ? " ›" : ""}</a>`
      : `<span class="${rel}"></span>`;
  return `<nav class="pager" aria-label="${esc(where)}">${link(view.prev, "prev")}${link(view.next, "next")}</nav>`;
}

function translationForm(view: ReaderView): string {
  const options = TRANSLATIONS.map(
    (t) => `<option value="${esc(t.id)}"${t.id === view.translation.id ? " selected" : ""}>${esc(t.name)}</option>`,
  ).join("");
  const verse = view.highlight
    ? `<input type="hidden" name="verse" value="${esc(view.highlight.from === view.highlight.to ? `${view.highlight.from}` : `${view.highlight.from}-${view.highlight.to}`)}">`
    : "";
  return `<form class="translation" method="get" action="/read/${esc(view.book.id)}/${view.chapter}">
<label>${esc(ui(view.translation).translation)} <select name="bible_id" id="bible-id">${options}</select></label>${verse}
<button type="submit" class="go">${esc(ui(view.translation).show)}</button>
</form>`;
}

function bookList(view: ReaderView, books: readonly Book[]): string {
  return books
    .map((b) => {
      const current = b.id === view.book.id ? ' aria-current="page"' : "";
      return `<li><a href="${esc(readerHref({ book: b, chapter: 1 }, view.translation.id))}"${current}>${esc(bookName(b, view.translation))}</a></li>`;
    })
    .join("");
}

function jumpNav(view: ReaderView): string {
  const chapters = Array.from({ length: chapterCount(view.book) }, (_, i) => i + 1)
    .map((c) => {
      const current = c === view.chapter ? ' aria-current="page"' : "";
      return `<li><a href="${esc(readerHref({ book: view.book, chapter: c }, view.translation.id))}"${current}>${c}</a></li>`;
    })
    .join("");
  const t = ui(view.translation);
  return `<div class="jump">
<details class="books"><summary>${esc(t.books)}</summary>
<h2>${esc(t.ot)}</h2><ul class="book-list">${bookList(view, BOOKS.filter((b) => b.testament === "OT"))}</ul>
<h2>${esc(t.nt)}</h2><ul class="book-list">${bookList(view, BOOKS.filter((b) => b.testament === "NT"))}</ul>
</details>
<details class="chapters"><summary>${esc(t.chaptersOf)} ${esc(bookName(view.book, view.translation))}</summary>
<ul class="chapter-list">${chapters}</ul>
</details>
</div>`;
}

function verses(view: ReaderView): string {
  const { from, to } = view.highlight ?? { from: 0, to: -1 };
  return view.text.verses
    .map(({ verse, text }) => {
      const hl = verse >= from && verse <= to;
      const href = readerHref(view, view.translation.id, String(verse));
      return `<span class="verse${hl ? " hl" : ""}" id="v${verse}"${hl ? ' data-highlight=""' : ""}><a class="vn" href="${esc(href)}">${verse}</a> ${esc(text)}</span>`;
    })
    .join("\n");
}

export function renderReader(assets: PageAssets, view: ReaderView): string {
  const heading = title(view, view.translation);
  const range = view.highlight
    ? `:${view.highlight.from}${view.highlight.to !== view.highlight.from ? `-${view.highlight.to}` : ""}`
    : "";
  const superscription = view.text.superscription ? `<p class="superscription">${esc(view.text.superscription)}</p>` : "";
  const t = ui(view.translation);
  const body = `<header class="bar">
<a class="brand" href="${esc(readerHref({ book: BOOKS[0]!, chapter: 1 }, view.translation.id))}">${esc(t.reader)}</a>
${translationForm(view)}
</header>
${jumpNav(view)}
${pager(view, t.around)}
<main id="text" lang="${esc(view.translation.language)}">
<h1>${esc(heading)}</h1>
<p class="edition">${esc(view.translation.name)}</p>
${superscription}
<p class="chapter-text">
${verses(view)}
</p>
</main>
${pager(view, t.around)}
<footer class="foot">${esc(t.footer)} <a href="/lab" lang="en">Prompt lab</a></footer>`;
  return layout(assets, {
    title: `${heading}${range} · ${view.translation.name}`,
    lang: view.translation.language,
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
