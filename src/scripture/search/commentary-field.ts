/**
 * Words readers use for a chapter, all of them: the commentaries' sections on a chapter (Matthew Henry's
 * Concise, Scofield's notes, the Treasury of David's expositions: the sections `COMMENTARY_SOURCES` in
 * expansion.ts names) as a second keyword field of the chapter, BM25 over their tokens. The window expansion keeps ten distinctive
 * words a window; this field keeps every word ("journey" and "traveller" in the exposition of Psalm 121),
 * at chapter grain, and is blended into a chapter's score (ranker.ts `commentary`). Built in the corpus
 * worker at start, never per request; the model never reads it.
 */
import { Bm25Index, type Bm25Data } from "./bm25.js";
import { DEFAULT_STUDY_DIR } from "../../study/data.js";
import { commentarySections } from "./citations.js";
import { COMMENTARY_SOURCES } from "./expansion.js";
import { tokenize } from "./tokenizer.js";

/** The commentary tokens of each chapter, in the order given. */
export function chapterCommentaryTokens(chapters: readonly { book: string; chapter: number }[], dir = DEFAULT_STUDY_DIR): string[][] {
  const out = new Map<string, string[]>();
  for (const book of new Set(chapters.map((c) => c.book))) {
    for (const source of COMMENTARY_SOURCES) {
      for (const [chapter, , , title, text] of commentarySections(dir, source.id, book) ?? []) {
        if (source.keep && !source.keep(title)) continue;
        const key = `${book}.${chapter}`;
        const list = out.get(key) ?? out.set(key, []).get(key)!;
        for (const t of tokenize(text)) if (!/\d/.test(t)) list.push(t);
      }
    }
  }
  return chapters.map((c) => out.get(`${c.book}.${c.chapter}`) ?? []);
}

/** The chapters' commentary field as keyword-index data (document i = chapters[i]). */
export function commentaryField(chapters: readonly { book: string; chapter: number }[], dir = DEFAULT_STUDY_DIR): Bm25Data {
  return new Bm25Index(chapterCommentaryTokens(chapters, dir)).toData();
}
