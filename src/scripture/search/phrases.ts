/**
 * Words people remember: a verse-level phrase index over every translation the service holds. People
 * type the KJV they learnt ("the battle is the LORD's", "thy word is a lamp unto my feet") while the
 * ranking corpus is the WEB ("the battle is Yahweh's"), and a remembered line is mostly common words
 * ("i can do all things") that the keyword index drops as stopwords. Here every word counts: a verse
 * matches by the longest run of the query's words it holds in order.
 *
 * Layout (compact, built in steps once the index attaches: about 1 s of CPU and 14 MB for the English Bibles): words
 * are hashes (no vocabulary of strings to build), each verse's word hashes sit in one Uint32Array,
 * and every adjacent pair of every verse is filed by a 32-bit pair hash in 2^19 buckets (a counting sort,
 * not a comparison sort), so the verses holding a pair are one bucket scan away. A hash collision can
 * only add a candidate; the word-by-word comparison that measures the run decides.
 */
import { ALL_BOOKS, chapterCount } from "../books.js";
import type { Bible } from "../corpus.js";

/** A verse that holds a run of the query's words. */
export interface PhraseHit {
  book: string;
  chapter: number;
  verse: number;
  /** The translations whose wording holds the run (the best run's), in index order. */
  bibleIds: string[];
  /** Query words matched in order, as a share of the query's words (1 = the whole query). */
  coverage: number;
  /** Words in the run. */
  run: number;
  /** The run's words as the query has them (normalised). */
  words: string[];
}

/** A pair this common ("of the") says nothing about which verse was meant; rarer pairs find the candidates. */
const COMMON_PAIR = 4000;
/** Verses compared word by word per query, at most (the eval queries' p99 is under 2 ms with it). */
const MAX_CANDIDATES = 400;
const BUCKET_BITS = 19;

/** Folded letter for a char code: a-z and 0-9 as is, A-Z and accented Latin letters to lower-case base letters; 0 = not a word char. */
const LETTER = new Uint16Array(0x180);
for (let c = 0x30; c <= 0x39; c++) LETTER[c] = c;
for (let c = 0x61; c <= 0x7a; c++) LETTER[c] = LETTER[c - 32] = c;
for (const [from, to] of Object.entries({ àáâäÀÁÂÄ: "a", èéêëÈÉÊË: "e", ìíîïÌÍÎÏ: "i", òóôöÒÓÔÖ: "o", ùúûüÙÚÛÜ: "u", ñÑ: "n", çÇ: "c" })) {
  for (const ch of from) LETTER[ch.charCodeAt(0)] = to.charCodeAt(0);
}
const APOSTROPHE = (c: number) => c === 0x27 || c === 0x2019;
const S = 0x73;

/** A growable list of word hashes. */
interface Hashes {
  buf: Uint32Array<ArrayBuffer>;
  n: number;
}

/**
 * Words as the phrase index compares them, appended to `out` as FNV-1a hashes (and as text to `texts`
 * when given): lower case, accents folded, apostrophes dropped, a final plural or possessive s folded
 * ("lords", "lord's" -> "lord") as people type without apostrophes. One scanner for verses and queries,
 * so both sides fold alike; a plain loop (it reads every letter of three Bibles at start).
 */
function scan(text: string, out: Hashes, texts?: string[]): void {
  let h = 0x811c9dc5;
  let before = h; // the hash without the word's last letter
  let len = 0;
  let last = 0;
  let prior = 0;
  let word = "";
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0x20;
    const c = code < 0x180 ? LETTER[code]! : 0;
    if (c !== 0) {
      before = h;
      h = Math.imul(h ^ c, 0x01000193);
      prior = last;
      last = c;
      len++;
      if (texts) word += String.fromCharCode(c);
      continue;
    }
    if (APOSTROPHE(code) || len === 0) continue;
    // The final s of a plural or possessive, not of "less", "jesus", "this".
    const fold = len > 3 && last === S && prior !== S && prior !== 0x75 && prior !== 0x69;
    if (out.n === out.buf.length) out.buf = grow(out.buf);
    out.buf[out.n++] = (fold ? before : h) >>> 0;
    if (texts) texts.push(fold ? word.slice(0, -1) : word);
    h = 0x811c9dc5;
    len = 0;
    word = "";
  }
}

/** The query's words as the index compares them. */
export function phraseWords(text: string): string[] {
  const out: string[] = [];
  scan(text, { buf: new Uint32Array(16), n: 0 }, out);
  return out;
}

function hashPair(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  return (h ^ (h >>> 15)) >>> 0;
}

/** The index's arrays (PhraseIndex holds them; buildSteps makes them). */
interface PhraseData {
  words: Uint16Array;
  offsets: Uint32Array;
  place: Uint32Array;
  bible: Uint8Array;
  bibleIds: string[];
  bucketStart: Uint32Array;
  pairHash: Uint16Array;
  pairVerse: Uint32Array;
}

/**
 * How long the incremental build may hold the event loop between two yields, in ms: a request that
 * arrives meanwhile waits at most about this long. The budget is of time, not of work: a step of 4,000
 * verses, and the index's word array converted in one pass at the end, held a fresh service's loop for
 * 186-622 ms under load (the first requests after a start waited for it).
 */
export const BUILD_STEP_MS = 4;
/** Verses between two looks at the clock (a verse is a few microseconds of work). */
export const BUILD_CHECK_VERSES = 32;

/**
 * The build as steps: it yields once BUILD_STEP_MS have passed since the last yield (checked every
 * BUILD_CHECK_VERSES verses, in every pass), so the service can build the index between requests
 * (PhraseIndex.buildYielding) instead of stalling them all for the second it takes. `clock` is for tests.
 */
function* buildSteps(bibles: readonly Bible[], books?: ReadonlySet<string>, clock: () => number = () => performance.now()): Generator<void, PhraseData> {
  let due = clock() + BUILD_STEP_MS;
  let ticks = 0;
  // Whether this step has had its time: then the build yields, and the next step starts its own.
  const tired = () => ++ticks % BUILD_CHECK_VERSES === 0 && clock() >= due;
  const rested = () => void (due = clock() + BUILD_STEP_MS);
  const words: Hashes = { buf: new Uint32Array(1 << 20), n: 0 };
  const offsets: number[] = [0];
  const place: number[] = [];
  const bible: number[] = [];
  const bibleIds: string[] = [];
  for (const b of bibles) {
    const bi = bibleIds.push(b.id) - 1;
    for (const [bookIndex, book] of ALL_BOOKS.entries()) {
      if ((books && !books.has(book.id)) || !b.hasBook(book.id)) continue;
      for (let c = 1; c <= chapterCount(book); c++) {
        for (const v of b.chapter(book.id, c)?.verses ?? []) {
          scan(v.text, words);
          offsets.push(words.n);
          place.push((bookIndex << 24) | (c << 12) | v.verse);
          bible.push(bi);
          if (tired()) {
      yield;
      rested();
    }
        }
      }
    }
  }
  const full = words.buf.subarray(0, words.n);
  const off = Uint32Array.from(offsets);
  const verses = place.length;
  // Counting sort of the pairs into buckets by their hash's top bits. Two passes over the pairs,
  // hashing each twice, rather than holding ~18 MB of hashes in between.
  const count = new Uint32Array((1 << BUCKET_BITS) + 1);
  for (let v = 0; v < verses; v++) {
    for (let k = off[v]!; k + 1 < off[v + 1]!; k++) count[(hashPair(full[k]!, full[k + 1]!) >>> (32 - BUCKET_BITS)) + 1]!++;
    if (tired()) {
      yield;
      rested();
    }
  }
  for (let k = 1; k < count.length; k++) count[k]! += count[k - 1]!;
  const bucketStart = count.slice();
  const total = count[count.length - 1]!;
  const pairHash = new Uint16Array(total);
  const pairVerse = new Uint32Array(total);
  // The words kept as their hashes' low 16 bits, converted in the same pass (not in one go at the end).
  const short = new Uint16Array(words.n);
  for (let v = 0; v < verses; v++) {
    for (let k = off[v]!; k < off[v + 1]!; k++) {
      short[k] = full[k]! & 0xffff;
      if (k + 1 === off[v + 1]!) break;
      const h = hashPair(full[k]!, full[k + 1]!);
      const at = count[h >>> (32 - BUCKET_BITS)]!++;
      pairHash[at] = h & 0xffff;
      pairVerse[at] = v;
    }
    if (tired()) {
      yield;
      rested();
    }
  }
  return {
    words: short,
    offsets: off,
    place: Uint32Array.from(place),
    bible: Uint8Array.from(bible),
    bibleIds,
    bucketStart,
    pairHash,
    pairVerse,
  };
}

export class PhraseIndex {
  /** Verse v's word hashes (their low 16 bits: enough to compare words, half the memory) are words[offsets[v] .. offsets[v + 1]). */
  private readonly words: Uint16Array;
  private readonly offsets: Uint32Array;
  /** Verse v: book index (ALL_BOOKS) << 24 | chapter << 12 | verse, and its translation. */
  private readonly place: Uint32Array;
  private readonly bible: Uint8Array;
  private readonly bibleIds: string[];
  /** Pair entries filed by bucket: entries of bucket k are [bucketStart[k], bucketStart[k + 1]). */
  private readonly bucketStart: Uint32Array;
  /** Each entry's pair hash, low 16 bits (its bucket holds the top bits). */
  private readonly pairHash: Uint16Array;
  private readonly pairVerse: Uint32Array;
  /** Scratch: per verse, how many of the query's pairs it holds (reset after each match). */
  private readonly held: Uint8Array;

  /** Built at once (tests, scripts); the service builds with buildYielding. */
  constructor(bibles: readonly Bible[], books?: ReadonlySet<string>);
  constructor(data: PhraseData);
  constructor(from: readonly Bible[] | PhraseData, books?: ReadonlySet<string>) {
    let data: PhraseData;
    if (Array.isArray(from)) {
      const steps = buildSteps(from as readonly Bible[], books);
      let step = steps.next();
      while (!step.done) step = steps.next();
      data = step.value;
    } else data = from as PhraseData;
    this.words = data.words;
    this.offsets = data.offsets;
    this.place = data.place;
    this.bible = data.bible;
    this.bibleIds = data.bibleIds;
    this.bucketStart = data.bucketStart;
    this.pairHash = data.pairHash;
    this.pairVerse = data.pairVerse;
    this.held = new Uint8Array(data.place.length);
  }

  /**
   * Built in steps of BUILD_STEP_MS with the event loop free between them: the whole build is about a
   * second of CPU for the English Bibles, which at once would hold every request the service is answering.
   */
  static async buildYielding(
    bibles: readonly Bible[],
    books?: ReadonlySet<string>,
    /** Tests: a clock, and what a yield does (by default the event loop's next turn). */
    test: { clock?: () => number; yielded?: () => Promise<void> } = {},
  ): Promise<PhraseIndex> {
    const steps = buildSteps(bibles, books, test.clock);
    const yielded = test.yielded ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
    let step = steps.next();
    while (!step.done) {
      await yielded();
      step = steps.next();
    }
    return new PhraseIndex(step.value);
  }

  get verses(): number {
    return this.place.length;
  }

  /** The verses holding the pair (ascending, a verse once per time it holds it). */
  private postings(h: number): Uint32Array {
    const k = h >>> (32 - BUCKET_BITS);
    const from = this.bucketStart[k]!;
    const to = this.bucketStart[k + 1]!;
    const low = h & 0xffff;
    let n = 0;
    for (let i = from; i < to; i++) if (this.pairHash[i] === low) n++;
    const out = new Uint32Array(n);
    n = 0;
    for (let i = from; i < to; i++) if (this.pairHash[i] === low) out[n++] = this.pairVerse[i]!;
    return out;
  }

  /**
   * Verses holding at least `minCoverage` of the query's words in order (never fewer than three, or two
   * for a two-word query: "be still", "jesus wept"), longest run first, then the verses more
   * translations word so. Candidates are the verses holding the query's rarer word pairs; when every
   * pair is common ("i can do all things") all pairs are read.
   */
  match(query: string, limit = 20, minCoverage = 0): PhraseHit[] {
    const q: string[] = [];
    const scanned: Hashes = { buf: new Uint32Array(16), n: 0 };
    scan(query, scanned, q);
    const qh = Array.from(scanned.buf.subarray(0, scanned.n));
    if (q.length < 2 || q.length > 40) return [];
    const min = Math.max(Math.ceil(minCoverage * q.length - 1e-9), q.length === 2 ? 2 : 3);
    if (min > q.length) return [];
    const lists: Uint32Array[] = [];
    for (let k = 0; k + 1 < qh.length; k++) lists.push(this.postings(hashPair(qh[k]!, qh[k + 1]!)));
    lists.sort((x, y) => x.length - y.length);
    // Only common pairs ("of the"): no line is recalled by them.
    if (lists[0]!.length > COMMON_PAIR) return [];
    const read = lists.filter((l, i) => i === 0 || l.length <= COMMON_PAIR);
    // A run of r words holds r - 1 of the query's pairs: a verse needs that many among the pairs read.
    const need = Math.max(1, min - 1 - (lists.length - read.length));
    const held = this.held;
    const touched: number[] = [];
    for (const l of read) {
      let last = -1;
      for (const v of l) {
        if (v === last) continue;
        last = v;
        if (held[v] === 0) touched.push(v);
        if (held[v]! < 255) held[v]!++;
      }
    }
    const candidates: [number, number][] = [];
    for (const v of touched) {
      if (held[v]! >= need) candidates.push([v, held[v]!]);
      held[v] = 0;
    }
    // The verses holding the most of the query's pairs are compared first, and at most MAX_CANDIDATES of
    // them: a long question of common pairs would otherwise hold the event loop for milliseconds.
    if (candidates.length > MAX_CANDIDATES) candidates.sort((a, b) => b[1] - a[1] || a[0] - b[0]).length = MAX_CANDIDATES;
    const scored: { v: number; run: number; end: number }[] = [];
    const qlow = qh.map((h) => h & 0xffff);
    const rows: [Uint16Array, Uint16Array] = [new Uint16Array(qh.length + 1), new Uint16Array(qh.length + 1)];
    for (const [v] of candidates) {
      const [run, end] = this.longestRun(qlow, v, rows);
      if (run >= min) scored.push({ v, run, end });
    }
    // One hit per verse: its best run, and every translation that words it so (a line both the KJV and
    // the WEB hold as typed is the likelier one meant).
    const byVerse = new Map<number, PhraseHit>();
    for (const { v, run, end } of scored) {
      const at = this.place[v]!;
      const hit = byVerse.get(at);
      const id = this.bibleIds[this.bible[v]!]!;
      if (!hit || run > hit.run) {
        byVerse.set(at, { book: ALL_BOOKS[at >>> 24]!.id, chapter: (at >>> 12) & 0xfff, verse: at & 0xfff, bibleIds: [id], coverage: run / q.length, run, words: q.slice(end - run, end) });
      } else if (run === hit.run) hit.bibleIds.push(id);
    }
    return [...byVerse.values()].sort((a, b) => b.run - a.run || b.bibleIds.length - a.bibleIds.length).slice(0, limit);
  }

  /**
   * The longest run of consecutive query words that the verse holds consecutively, and where it ends in
   * the query (exclusive): dynamic programming over two short sequences.
   */
  private longestRun(qh: readonly number[], v: number, rows: [Uint16Array, Uint16Array]): [number, number] {
    const from = this.offsets[v]!;
    const to = this.offsets[v + 1]!;
    let [prev, cur] = rows;
    prev.fill(0);
    let best = 0;
    let end = 0;
    for (let k = from; k < to; k++) {
      const w = this.words[k]!;
      for (let i = 1; i <= qh.length; i++) {
        cur[i] = qh[i - 1] === w ? prev[i - 1]! + 1 : 0;
        if (cur[i]! > best) (best = cur[i]!), (end = i);
      }
      [prev, cur] = [cur, prev];
    }
    return [best, end];
  }
}

function grow(a: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(a.length * 2);
  b.set(a);
  return b;
}
