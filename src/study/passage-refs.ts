/**
 * Compact references of the study data ("JHN3:16", "GAL5:19-21", "GEN4:5-5:2", "PSA23") and their
 * wire shape {reference, book_id, chapter, verses, url}.
 */
import { bookById } from "../scripture/books.js";
import { readerUrl, type LinkOptions } from "../scripture/links.js";
import { formatReference, type ScriptureRef } from "../scripture/references.js";

export interface RefItem {
  reference: string;
  book_id: string;
  chapter: number;
  /** "16", "28-30", "" for a whole chapter; a passage that runs into the next chapter: "5-5:2". */
  verses: string;
  /** The reader's address of the passage (readerUrl: the request's translation, PUBLIC_BASE_URL). */
  url: string;
}

const COMPACT = /^([1-4]?[A-Z]{2,3})(\d+)(?::(\d+)(?:-(?:(\d+):)?(\d+))?)?$/;

export function parseCompactRef(text: string): ScriptureRef | undefined {
  const m = COMPACT.exec(text);
  if (m === null || bookById(m[1] ?? "") === undefined) return undefined;
  const ref: ScriptureRef = { book: m[1]!, chapter: Number(m[2]) };
  if (m[3] !== undefined) {
    ref.verseStart = Number(m[3]);
    if (m[4] !== undefined) ref.chapterEnd = Number(m[4]);
    if (m[5] !== undefined) ref.verseEnd = Number(m[5]);
  }
  return ref;
}

export function compactOf(ref: ScriptureRef): string {
  let out = `${ref.book}${ref.chapter}`;
  if (ref.verseStart === undefined) return out;
  out += `:${ref.verseStart}`;
  if (ref.chapterEnd !== undefined && ref.chapterEnd !== ref.chapter) out += `-${ref.chapterEnd}:${ref.verseEnd ?? 1}`;
  else if (ref.verseEnd !== undefined && ref.verseEnd !== ref.verseStart) out += `-${ref.verseEnd}`;
  return out;
}

export function refItem(ref: ScriptureRef, lang: "en" | "es" = "en", link: LinkOptions = {}): RefItem {
  let verses = "";
  if (ref.verseStart !== undefined) {
    verses = String(ref.verseStart);
    if (ref.chapterEnd !== undefined && ref.chapterEnd !== ref.chapter) verses += `-${ref.chapterEnd}:${ref.verseEnd ?? 1}`;
    else if (ref.verseEnd !== undefined && ref.verseEnd !== ref.verseStart) verses += `-${ref.verseEnd}`;
  }
  return { reference: formatReference(ref, lang), book_id: ref.book, chapter: ref.chapter, verses, url: readerUrl(ref, link) };
}

export function compactItem(text: string, link: LinkOptions = {}): RefItem | undefined {
  const ref = parseCompactRef(text);
  return ref === undefined ? undefined : refItem(ref, "en", link);
}
