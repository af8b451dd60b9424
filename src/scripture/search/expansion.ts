/**
 * Words readers use for a passage: document expansion from the commentaries the service ships
 * (Matthew Henry's Concise, Scofield's notes, the Treasury of David's expositions), keyed to verses.
 * They are written in the words people search with ("slander", "tithe", "backbiting") where the text
 * says "whisperer" or "the tenth". Each window gets the few words its commentary dwells on most and
 * its own text lacks: a window's keyword terms (BM25), never its text (what the model reads, what LSA
 * learns). doc2query with human-written expansions instead of generated ones.
 */
import { BOOKS } from "../books.js";
import { DEFAULT_STUDY_DIR, readGzipJson } from "../../study/data.js";
import { citationPrior, commentarySections } from "./citations.js";
import { tokenize } from "./tokenizer.js";
import type { Passage } from "./types.js";

/** [chapter, verseStart, verseEnd, title, text]; verse 0 = about the whole chapter (data/study, src/study/commentary.ts). */
type SectionRow = [number, number, number, string | null, string];

export interface ExpansionOptions {
  /** Words added per window. */
  perWindow: number;
  /** Weight of a section about the whole chapter against one about the window's own verses. */
  chapterWeight: number;
}

export const DEFAULT_EXPANSION: ExpansionOptions = { perWindow: 10, chapterWeight: 0.5 };

/** A word in fewer commentary sections than this is a name or a rarity, not a word readers search with. */
const MIN_SECTIONS = 5;

/** Cross-reference and apparatus words of the commentaries, and book names (a reference, not a subject). */
const APPARATUS = new Set(
  tokenize(
    "scofield vs ver chap ch cf comp ref refs lit heb gr marg ie eg etc note notes outline see compare also verses " +
      "chapter chapters psalm psalms book epistle first second third part division " +
      BOOKS.map((b) => b.name).join(" "),
  ),
);

const useful = (t: string) => !/\d/.test(t) && t.length > 2 && !APPARATUS.has(t);

/**
 * The commentaries read, and which of their sections: the Treasury of David's expositions only (its notes
 * are anthologies of quotations). The window expansion and the commentary field (commentary-field.ts) read
 * the same sections.
 */
export const COMMENTARY_SOURCES: readonly { id: string; keep?: (title: string | null) => boolean }[] = [
  { id: "mhcc" },
  { id: "scofield" },
  { id: "tdavid", keep: (title) => title === "Exposition" },
];

interface Section {
  chapter: number;
  from: number;
  to: number;
  /** Term -> its share of the section's terms. */
  weights: Map<string, number>;
}

/** Expansion terms per passage (same order), from the commentaries in `dir` (data/study by default). */
export function commentaryTerms(passages: readonly Passage[], options = DEFAULT_EXPANSION, dir = DEFAULT_STUDY_DIR): string[][] {
  const books = [...new Set(passages.map((p) => p.book))];
  const sections = new Map<string, Section[]>();
  const df = new Map<string, number>();
  let n = 0;
  for (const book of books) {
    const list: Section[] = [];
    for (const source of COMMENTARY_SOURCES) {
      for (const [chapter, from, to, title, text] of readGzipJson<SectionRow[]>(dir, `commentaries/${source.id}/${book}.json.gz`) ?? []) {
        if (source.keep && !source.keep(title)) continue;
        const tokens = tokenize(text).filter(useful);
        if (tokens.length === 0) continue;
        const weights = new Map<string, number>();
        for (const t of tokens) weights.set(t, (weights.get(t) ?? 0) + 1 / tokens.length);
        for (const t of weights.keys()) df.set(t, (df.get(t) ?? 0) + 1);
        list.push({ chapter, from, to, weights });
        n++;
      }
    }
    sections.set(book, list);
  }
  const idf = (t: string) => ((df.get(t) ?? 0) < MIN_SECTIONS ? 0 : Math.log(n / df.get(t)!));
  return passages.map((p) => {
    const own = new Set(tokenize(p.text));
    const score = new Map<string, number>();
    for (const s of sections.get(p.book) ?? []) {
      if (s.chapter !== p.chapter) continue;
      const whole = s.from === 0;
      if (!whole && (s.to < p.verseStart || s.from > p.verseEnd)) continue;
      const w = whole ? options.chapterWeight : 1;
      for (const [t, share] of s.weights) if (!own.has(t) && idf(t) > 0) score.set(t, (score.get(t) ?? 0) + w * share * idf(t) ** 2);
    }
    return [...score].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, options.perWindow).map(([t]) => t);
  });
}

/** Commentaries that cover the whole Bible: the Treasury of David (psalms only) would lift every psalm. */
const PRIOR_SOURCES = new Set(["mhcc", "scofield"]);

/** The shipped expansion (npm run ingest:expansion writes it): passage id -> its terms, space-separated. */
export const EXPANSION_FILE = "expansion.json.gz";

/**
 * The shipped expansion terms of each passage (same order); none for a passage the file does not
 * know (windows changed since it was written: rerun npm run ingest:expansion).
 */
export function loadExpansion(passages: readonly Passage[], dir = DEFAULT_STUDY_DIR): string[][] {
  const byId = readGzipJson<Record<string, string>>(dir, EXPANSION_FILE) ?? {};
  return passages.map((p) => byId[p.id]?.split(" ").filter(Boolean) ?? []);
}

/**
 * Which passages teach: how much the commentaries that cover every book (Matthew Henry's, Scofield's)
 * say about a chapter, per verse, as a rank in [0, 1] among the
 * chapters (1 = the most discussed). Commentators dwell on the chapters that teach and pass quickly over
 * lists, genealogies and inventories, so a topic's teaching passage outranks a list that uses its word.
 * Text lengths only (no tokenizing), so it is cheap enough to compute at every start.
 */
export function commentaryPrior(chapters: readonly { book: string; chapter: number; verses: number }[], dir = DEFAULT_STUDY_DIR): Float32Array {
  const chars = new Map<string, number>();
  for (const book of new Set(chapters.map((c) => c.book))) {
    for (const source of COMMENTARY_SOURCES) addCommentaryLengths(chars, book, source.id, commentarySections(dir, source.id, book) ?? []);
  }
  return commentaryPriorOf(chapters, chars);
}

/** Adds what one commentary's sections on `book` say per chapter, in characters, to `chars` (commentaryPrior's rule: the sources that cover every book). */
export function addCommentaryLengths(chars: Map<string, number>, book: string, sourceId: string, sections: readonly SectionRow[]): void {
  const source = COMMENTARY_SOURCES.find((s) => s.id === sourceId);
  if (!source || !PRIOR_SOURCES.has(source.id)) return;
  for (const [chapter, , , title, text] of sections) {
    if (source.keep && !source.keep(title)) continue;
    const key = `${book}.${chapter}`;
    chars.set(key, (chars.get(key) ?? 0) + text.length);
  }
}

/** commentaryPrior from the characters already counted per chapter (addCommentaryLengths). */
export function commentaryPriorOf(chapters: readonly { book: string; chapter: number; verses: number }[], chars: ReadonlyMap<string, number>): Float32Array {
  const density = chapters.map((c) => (chars.get(`${c.book}.${c.chapter}`) ?? 0) / Math.max(1, c.verses));
  const order = density.map((d, i) => [d, i] as const).sort((a, b) => a[0] - b[0]);
  const prior = new Float32Array(chapters.length);
  order.forEach(([, i], rank) => (prior[i] = chapters.length > 1 ? rank / (chapters.length - 1) : 1));
  return prior;
}

/** A corpus's chapters in the ranker's chapter order (first appearance in the windows), with their verse counts. */
export function passageChapters(passages: readonly Pick<Passage, "book" | "chapter" | "verseEnd">[]): { book: string; chapter: number; verses: number }[] {
  const chapters = new Map<string, { book: string; chapter: number; verses: number }>();
  for (const p of passages) {
    const key = `${p.book}.${p.chapter}`;
    const c = chapters.get(key);
    if (c) c.verses = Math.max(c.verses, p.verseEnd);
    else chapters.set(key, { book: p.book, chapter: p.chapter, verses: p.verseEnd });
  }
  return [...chapters.values()];
}

/**
 * The teaching prior of a corpus's chapters (passageChapters order), in [0, 1]: the mean of how much the
 * commentaries say about a chapter (commentaryPrior) and how often they point to it from elsewhere
 * (citations.ts citationPrior). Measured in docs/search.md "Session 8": the mean beats either alone.
 */
export function passagePrior(passages: readonly Pick<Passage, "book" | "chapter" | "verseEnd">[], dir = DEFAULT_STUDY_DIR): Float32Array {
  const chapters = passageChapters(passages);
  return meanPrior(commentaryPrior(chapters, dir), citationPrior(chapters, dir));
}

/** The teaching prior from its two halves (passagePrior's rule). */
export function meanPrior(length: Float32Array, cited: Float32Array): Float32Array {
  return Float32Array.from(length, (v, i) => (v + cited[i]!) / 2);
}
