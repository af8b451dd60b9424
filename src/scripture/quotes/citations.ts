/**
 * The scripture an answer cites, as the `citations` field of a chat response: one entry per passage
 * in order of first appearance, with what the quotation check made of its quotations.
 */
import { formatReference, type Lang, type ScriptureRef } from "../references.js";
import { readerUrl, type LinkOptions } from "../links.js";
import type { QuoteOutcome } from "./stream.js";

export type CitationStatus = "verified" | "corrected" | "cited" | "unverified";

export interface Citation {
  /** The passage, named in the translation's language: "John 3:16", "Juan 3:16", "Psalm 23". */
  reference: string;
  book_id: string;
  chapter: number;
  /** The verses cited in that chapter; null for whole chapters. */
  verses: number[] | null;
  /** Only for a passage that runs into a later chapter ("Genesis 1:1-2:3"). */
  chapter_end?: number;
  bible_id: string;
  url: string;
  /** The words between the quotation marks as the answer shows them; null when not quoted. */
  quoted: string | null;
  status: CitationStatus;
  /** Corrected because the words are this passage's, not the one the answer named: the reference as it named it. */
  cited_as?: string;
  /** The translation the answer named for its quotation ("KJV", "NIV"); unverified when we do not ship it. */
  translation?: string;
}

export interface CitationOptions extends LinkOptions {
  bibleId: string;
  lang: Lang;
}

function key(ref: ScriptureRef): string {
  return [ref.book, ref.chapter, ref.verseStart ?? "", ref.verseEnd ?? "", ref.chapterEnd ?? ""].join(".");
}

function verseList(ref: ScriptureRef): number[] | null {
  if (ref.verseStart === undefined || ref.chapterEnd !== undefined) return null;
  const verses: number[] = [];
  for (let verse = ref.verseStart; verse <= (ref.verseEnd ?? ref.verseStart); verse++) verses.push(verse);
  return verses;
}

/**
 * `references`: the passages the answer refers to in order (the link converter's list); quotations
 * add their passage when it is not there (links off, or a reference the converter skipped).
 * A passage quoted several times is `corrected` when any quotation of it was, and shows its first
 * quotation; a quotation whose words the translation lacks leaves its passage `cited`; one given in a
 * translation we do not ship is `unverified`.
 */
export function buildCitations(references: readonly ScriptureRef[], quotes: readonly QuoteOutcome[], options: CitationOptions): Citation[] {
  const byKey = new Map<string, Citation>();
  const add = (ref: ScriptureRef) => {
    const id = key(ref);
    let citation = byKey.get(id);
    if (citation === undefined) {
      citation = {
        reference: formatReference(ref, options.lang),
        book_id: ref.book,
        chapter: ref.chapter,
        verses: verseList(ref),
        ...(ref.chapterEnd !== undefined ? { chapter_end: ref.chapterEnd } : {}),
        bible_id: options.bibleId,
        url: readerUrl(ref, options),
        quoted: null,
        status: "cited",
      };
      byKey.set(id, citation);
    }
    return citation;
  };
  for (const ref of references) add(ref);
  for (const quote of quotes) {
    if (quote.ref === null) continue;
    const citation = add(quote.ref);
    if (quote.status === "unquoted") continue;
    if (citation.quoted === null) citation.quoted = quote.quoted;
    if (quote.status === "corrected" || citation.status === "cited") citation.status = quote.status;
    if (quote.citedAs !== undefined) citation.cited_as ??= quote.citedAs;
    if (quote.translation !== undefined && citation.translation === undefined) {
      // Quoted in a translation the answer named: the citation names it, and opens it when we ship it.
      citation.translation = quote.translation.name;
      if (quote.translation.id !== undefined) {
        citation.bible_id = quote.translation.id;
        citation.url = readerUrl(quote.ref, { ...options, bibleId: quote.translation.id });
      }
    }
  }
  return [...byKey.values()];
}

/** Quotations by status, for the metrics and the answer's log line. */
export function countQuotes(quotes: readonly QuoteOutcome[]): Record<Exclude<QuoteOutcome["status"], "unverified">, number> {
  const counts = { verified: 0, corrected: 0, unquoted: 0 };
  for (const quote of quotes) if (quote.status !== "unverified") counts[quote.status]++;
  return counts;
}
