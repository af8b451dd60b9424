import { bookById, verseCount } from "../books.js";
import { TITLE_LINES } from "./titles-data.js";
import { words } from "./tokenizer.js";

export interface TitleRange {
  book: string;
  chapter: number;
  chapterEnd: number;
  verseStart: number;
  /** Inclusive; the chapter's last verse when the range names whole chapters. */
  verseEnd: number;
}

export interface TitleEntry {
  /** A title names a passage; a topic (a concept of concepts.ts) points to the passages that teach it, most central first. */
  kind: "title" | "topic";
  names: string[];
  ranges: TitleRange[];
  /** Stemmed words of each name, for phrase matching against queries. */
  phrases: string[][];
}

const REF = /^([1-3]?[A-Z]{2,3}) (\d+)(?::(\d+))?(?:-(\d+)(?::(\d+))?)?$/;

export function parseTitleRange(text: string): TitleRange {
  const m = REF.exec(text.trim());
  const book = m?.[1] ? bookById(m[1]) : undefined;
  if (!m || !book) throw new Error(`bad title range: ${text}`);
  const chapter = Number(m[2]);
  const hasVerse = m[3] !== undefined;
  // "C-C" is a chapter range, "C:V-V" a verse range, "C:V-C:V" crosses chapters.
  const chapterEnd = m[5] !== undefined ? Number(m[4]) : hasVerse || m[4] === undefined ? chapter : Number(m[4]);
  const verseStart = hasVerse ? Number(m[3]) : 1;
  const verseEnd = m[5] !== undefined ? Number(m[5]) : hasVerse && m[4] !== undefined ? Number(m[4]) : verseCount(book, chapterEnd);
  if (verseCount(book, chapter) === 0 || verseCount(book, chapterEnd) === 0) throw new Error(`no such chapter: ${text}`);
  return { book: book.id, chapter, chapterEnd, verseStart, verseEnd };
}

const PHRASE_STOP = new Set(["the", "a", "an", "of", "el", "la", "los", "las", "de", "del"]);

/**
 * Words without articles, plurals folded: how names and queries are compared. Only plurals, because
 * the full stemmer would let "crossing the lake" match the title "the cross".
 */
export function phraseTokens(text: string): string[] {
  return words(text.replace(/\([^)]*\)/g, " "))
    .filter((w) => !PHRASE_STOP.has(w))
    .map(singular);
}

function singular(w: string): string {
  if (w.length <= 3 || w.endsWith("ss") || w.endsWith("us") || w.endsWith("is")) return w;
  if (w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  return w.endsWith("s") ? w.slice(0, -1) : w;
}

export function parseTitleLine(line: string, kind: TitleEntry["kind"] = "title"): TitleEntry {
  const colon = line.lastIndexOf(":", line.search(/: [1-3]?[A-Z]{2,3} \d/) + 1);
  const names = line.slice(0, colon).split("|").map((n) => n.trim()).filter(Boolean);
  const ranges = line.slice(colon + 1).split(",").map(parseTitleRange);
  const phrases = names.map(phraseTokens).filter((p) => p.length > 0);
  return { kind, names: names.map((n) => n.replace(/\s*\([^)]*\)/g, "")), ranges, phrases };
}

export const TITLES: readonly TitleEntry[] = TITLE_LINES.map((l) => parseTitleLine(l, "title"));
const ALL = TITLES;

export interface TitleMatch {
  entry: TitleEntry;
  /** Words of the longest matching name: longer names are more specific. */
  length: number;
  /** Share of the query's words the name covers: "the Good Samaritan" alone is a stronger signal than inside a long question. */
  coverage: number;
  /** Scales the boost (a concept named beside a story title counts for less); 1 when absent. */
  weight?: number;
}

type PhraseIndex = Map<string, { entry: TitleEntry; phrase: string[] }[]>;

/** Phrases keyed by their first word, so matching costs a lookup per query word, not a scan of 1,300 names. */
function indexPhrases(entries: readonly TitleEntry[]): PhraseIndex {
  const index: PhraseIndex = new Map();
  for (const entry of entries) {
    for (const phrase of entry.phrases) {
      let list = index.get(phrase[0]!);
      if (!list) index.set(phrase[0]!, (list = []));
      list.push({ entry, phrase });
    }
  }
  return index;
}

const DEFAULT_INDEX = indexPhrases(ALL);
const indexes = new WeakMap<readonly TitleEntry[], PhraseIndex>();

/**
 * Titles whose name appears as a phrase in the query. Only the longest matches count. (Concepts are
 * matched by concepts.ts; one inside a longer title match is dropped by the search.)
 */
export function matchTitles(query: string, titles?: readonly TitleEntry[]): TitleMatch[] {
  let index = DEFAULT_INDEX;
  if (titles) {
    index = indexes.get(titles) ?? indexPhrases(titles);
    indexes.set(titles, index);
  }
  const q = phraseTokens(query);
  const best = new Map<TitleEntry, number>();
  for (let i = 0; i < q.length; i++) {
    for (const { entry, phrase } of index.get(q[i]!) ?? []) {
      if (i + phrase.length > q.length) continue;
      let ok = true;
      for (let j = 1; j < phrase.length && ok; j++) ok = q[i + j] === phrase[j];
      // A name of three words or more may have a few words put in by the asker ("the fool says in his
      // heart there is no God"); a shorter one must be exact, or common pairs would match far apart.
      if (!ok && phrase.length >= GAPPED_MIN) ok = matchesWithGaps(q, i, phrase);
      if (ok && phrase.length > (best.get(entry) ?? 0)) best.set(entry, phrase.length);
    }
  }
  const longest = Math.max(0, ...best.values());
  return [...best].filter(([, n]) => n === longest).map(([entry, n]) => ({ entry, length: n, coverage: n / q.length }));
}

/** Names this long may match with words inserted between theirs. */
const GAPPED_MIN = 3;
/** At most this many query words inserted in all. */
const MAX_GAP = 3;

/** The phrase's words in order from q[i], with at most MAX_GAP other words between them. */
function matchesWithGaps(q: readonly string[], i: number, phrase: readonly string[]): boolean {
  let k = i + 1;
  let skipped = 0;
  for (let j = 1; j < phrase.length; j++) {
    while (k < q.length && q[k] !== phrase[j] && skipped <= MAX_GAP) (k++, skipped++);
    if (k >= q.length || skipped > MAX_GAP) return false;
    k++;
  }
  return true;
}
