import type { Testament } from "../books.js";

/** The part of a corpus Bible the search reads (src/scripture/corpus.ts's Bible satisfies it). */
export interface ChapterSource {
  chapter(bookId: string, chapter: number): { superscription?: string; verses: readonly { verse: number; text: string }[] } | undefined;
}

/**
 * Where a verse window sits: what a query needs of it once the index is built (the ranker, the filters,
 * the highlights, the Chroma ids). The running service keeps only this of each window, not its text.
 */
export interface WindowPlace {
  /** "JHN.3.16-20": stable across runs, so re-ingesting upserts the same ids. */
  id: string;
  book: string;
  chapter: number;
  verseStart: number;
  verseEnd: number;
  testament: Testament;
}

/** A verse window: the unit that is embedded, keyword-scored and stored in Chroma. */
export interface Passage extends WindowPlace {
  /** Verse text plus the titles of the well-known passages it overlaps. */
  text: string;
  /** Names of the concepts whose teaching passages it overlaps (concepts.ts); keyword matching only. */
  tags?: string;
}

export interface SearchFilter {
  testament?: Testament;
  /** USFM id. */
  book?: string;
}
