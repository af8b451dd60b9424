import { BOOKS, DEUTEROCANON, chapterCount, findBook, type Book } from "../../scripture/books.js";
import { readerUrl } from "../../scripture/links.js";
import { DEFAULT_TRANSLATION_ID, TRANSLATIONS, findTranslation, type Translation } from "../../scripture/translations.js";

/** The slice of the corpus the reader needs; the corpus's BibleLibrary satisfies it. */
export interface ChapterLike {
  superscription?: string;
  verses: readonly { verse: number; text: string }[];
}

/** The printed layout of a chapter, offsets into the plain verse text (docs/corpus.md, "Layout"). */
export type LayoutMarkLike =
  | { at: number; kind: "paragraph" | "stanza" | "selah" | "stanza-end" }
  | { at: number; kind: "line"; indent: number };
export interface LayoutLike {
  headings: readonly { verse: number; text: string }[];
  verses: readonly { verse: number; marks: readonly LayoutMarkLike[] }[];
}

export interface BibleSource {
  get(bibleId: string):
    | { chapter(bookId: string, chapter: number): ChapterLike | undefined; layout?(bookId: string, chapter: number): LayoutLike | undefined }
    | undefined;
}

export interface ChapterRef {
  book: Book;
  chapter: number;
}

export interface ReaderView extends ChapterRef {
  translation: Translation;
  text: ChapterLike;
  /** Poetic lines, stanzas, paragraphs and headings where the translation has them. */
  layout?: LayoutLike;
  highlight?: { from: number; to: number };
  prev?: ChapterRef;
  next?: ChapterRef;
  /**
   * Set when the requested translation lacks the book (the KJV and RV1909 have no deuterocanon): the page
   * shows `translation` (one that has it) instead of `requested`, with `note` saying so.
   */
  fallback?: { requested: Translation; note: string };
}

export type ReaderResult =
  | { kind: "page"; view: ReaderView }
  | { kind: "redirect"; location: string }
  | { kind: "not-found"; message: string };

const CHAPTER = /^[1-9]\d{0,2}$/;
const VERSE = /^([1-9]\d{0,2})(?:-([1-9]\d{0,2}))?$/;

export function bookName(book: Book, translation: Translation): string {
  return translation.language === "es" ? book.nameEs : book.name;
}

/**
 * The reader's own navigation, built by readerUrl like the links answers carry; root-relative, as the
 * page is on the same host. `verse`: "16" or "16-18".
 */
export function readerHref(ref: ChapterRef, bibleId: string, verse?: string): string {
  const [start, end] = (verse ?? "").split("-").map(Number);
  const verses = start ? { verseStart: start, ...(end ? { verseEnd: end } : {}) } : {};
  return readerUrl({ book: ref.book.id, chapter: ref.chapter, ...verses }, { bibleId });
}

/**
 * The chapter before or after, crossing book boundaries (Malachi 4 -> Matthew 1) within the book's part
 * of the table: the 66, or the deuterocanon (Tobit 1 has no chapter before it).
 */
export function neighbour(ref: ChapterRef, step: -1 | 1): ChapterRef | undefined {
  const chapter = ref.chapter + step;
  if (chapter >= 1 && chapter <= chapterCount(ref.book)) return { book: ref.book, chapter };
  const section = ref.book.canon === "deuterocanon" ? DEUTEROCANON : BOOKS;
  const book = section[section.indexOf(ref.book) + step];
  if (!book) return undefined;
  return { book, chapter: step === 1 ? 1 : chapterCount(book) };
}

/** "Sirach is not in the King James Version; shown in the World English Bible." in the reader's language. */
export function fallbackNote(book: Book, requested: Translation, shown: Translation): string {
  if (requested.language === "es") {
    return `${book.nameEs} no está en la ${requested.name}; se muestra en la ${shown.name}.`;
  }
  return `${book.name} is not in the ${requested.name}; shown in the ${shown.name}.`;
}

function single(value: unknown): string | undefined | null {
  if (value === undefined) return undefined;
  return typeof value === "string" ? value : null;
}

/**
 * Resolves a reader request. Book ids are matched loosely (jhn, John, Juan) and redirected to the
 * canonical USFM form, so one chapter has one URL.
 */
export function resolveReader(
  bibles: BibleSource,
  params: { book: string; chapter: string },
  query: Record<string, unknown>,
): ReaderResult {
  const book = findBook(params.book);
  if (!book) return { kind: "not-found", message: `There is no book called “${params.book}”.` };
  const bibleId = single(query.bible_id) ?? DEFAULT_TRANSLATION_ID;
  const verse = single(query.verse);
  if (bibleId === null || verse === null) return { kind: "not-found", message: "The link has a repeated parameter." };
  const translation = findTranslation(bibleId);
  if (!translation) return { kind: "not-found", message: `There is no translation “${bibleId}” here.` };

  if (!CHAPTER.test(params.chapter) || Number(params.chapter) > chapterCount(book)) {
    return { kind: "not-found", message: `${bookName(book, translation)} has no chapter ${params.chapter} (it has ${chapterCount(book)}).` };
  }
  const chapter = Number(params.chapter);
  if (params.book !== book.id || params.chapter !== String(chapter)) {
    return { kind: "redirect", location: readerHref({ book, chapter }, bibleId, verse) };
  }
  let bible = bibles.get(bibleId);
  let text = bible?.chapter(book.id, chapter);
  let shown = translation;
  let fallback: ReaderView["fallback"];
  if (!text && book.canon === "deuterocanon") {
    // The KJV and RV1909 have no deuterocanon: show the translation that has the book, and say so.
    for (const other of TRANSLATIONS) {
      const source = other.id === bibleId ? undefined : bibles.get(other.id);
      const found = source?.chapter(book.id, chapter);
      if (found === undefined) continue;
      bible = source;
      text = found;
      shown = other;
      fallback = { requested: translation, note: fallbackNote(book, translation, other) };
      break;
    }
  }
  if (!text || text.verses.length === 0) {
    return { kind: "not-found", message: `${bookName(book, translation)} ${chapter} is not in the ${translation.name}.` };
  }

  let highlight: ReaderView["highlight"];
  if (verse !== undefined && verse !== "") {
    const m = VERSE.exec(verse);
    const last = Math.max(...text.verses.map((v) => v.verse));
    const from = Number(m?.[1]);
    const to = Number(m?.[2] ?? m?.[1]);
    if (!m || to < from || to > last) {
      return { kind: "not-found", message: `${bookName(book, translation)} ${chapter} has no verse ${verse} (it has ${last}).` };
    }
    highlight = { from, to };
  }
  const ref = { book, chapter };
  const layout = bible?.layout?.(book.id, chapter);
  const view: ReaderView = {
    ...ref, translation: shown, text, ...(layout ? { layout } : {}), highlight, prev: neighbour(ref, -1), next: neighbour(ref, 1),
  };
  if (fallback !== undefined) view.fallback = fallback;
  return { kind: "page", view };
}
