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
import { commentarySections, type SectionRow } from "./citations.js";
import { COMMENTARY_SOURCES } from "./expansion.js";
import { tokenize } from "./tokenizer.js";

/** The field's tokens of one section's text (numbers are references, not words). */
function fieldTokens(text: string): string[] {
  return tokenize(text).filter((t) => !/\d/.test(t));
}

/** The commentary tokens of each chapter, in the order given. */
export function chapterCommentaryTokens(chapters: readonly { book: string; chapter: number }[], dir = DEFAULT_STUDY_DIR): string[][] {
  const out = new Map<string, string[]>();
  for (const book of new Set(chapters.map((c) => c.book))) {
    for (const source of COMMENTARY_SOURCES) {
      for (const [chapter, , , title, text] of commentarySections(dir, source.id, book) ?? []) {
        if (source.keep && !source.keep(title)) continue;
        const key = `${book}.${chapter}`;
        const list = out.get(key) ?? out.set(key, []).get(key)!;
        for (const t of fieldTokens(text)) list.push(t);
      }
    }
  }
  return chapters.map((c) => out.get(`${c.book}.${c.chapter}`) ?? []);
}

/**
 * The field built a commentary file at a time: each chapter keeps its term counts (what BM25 reads of a
 * document), not its tokens, and a file's sections are not needed once added. Add every book's files in
 * COMMENTARY_SOURCES order (a chapter's terms are numbered in the order they first appear, as
 * `new Bm25Index(chapterCommentaryTokens(...))` numbers them), then build.
 */
export class CommentaryFieldBuilder {
  private readonly counts = new Map<string, Map<string, number>>();

  add(book: string, sourceId: string, sections: readonly SectionRow[]): void {
    const source = COMMENTARY_SOURCES.find((s) => s.id === sourceId);
    if (!source) return;
    for (const [chapter, , , title, text] of sections) {
      if (source.keep && !source.keep(title)) continue;
      const key = `${book}.${chapter}`;
      const terms = this.counts.get(key) ?? this.counts.set(key, new Map()).get(key)!;
      // fieldTokens' filter, without its array (the signal build tokenizes 6 MB of commentary).
      for (const t of tokenize(text)) if (!/\d/.test(t)) terms.set(t, (terms.get(t) ?? 0) + 1);
    }
  }

  /** The chapters' field (document i = chapters[i]); the builder's counts are released. */
  build(chapters: readonly { book: string; chapter: number }[]): Bm25Data {
    const docs = chapters.map((c) => this.counts.get(`${c.book}.${c.chapter}`) ?? new Map<string, number>());
    this.counts.clear();
    return new Bm25Index(docs).toData();
  }
}

/** The chapters' commentary field as keyword-index data (document i = chapters[i]). */
export function commentaryField(chapters: readonly { book: string; chapter: number }[], dir = DEFAULT_STUDY_DIR): Bm25Data {
  const field = new CommentaryFieldBuilder();
  for (const book of new Set(chapters.map((c) => c.book))) {
    for (const source of COMMENTARY_SOURCES) field.add(book, source.id, commentarySections(dir, source.id, book) ?? []);
  }
  return field.build(chapters);
}
