import { Bm25Index, type Bm25Data, type SparseScores } from "./bm25.js";
import type { TitleMatch } from "./titles.js";
import type { WindowPlace } from "./types.js";

/** How the keyword and dense signals are combined; measured choices live in DEFAULT_FUSION. */
export interface FusionOptions {
  mode: "blend" | "rrf";
  /** Weight of the keyword score in a blend (dense gets 1 - keyword). */
  keyword: number;
  /** Share of a chapter's second-best window added to its best one. */
  second: number;
  /** Added to chapters a matched passage title covers, scaled by how much of the query it covers. */
  title: number;
  /** A topic match's boost relative to a title's. */
  topic: number;
  /** Share of a chapter's boosts from further matched topics added to its best one (their overlap is what the question is about). */
  overlap: number;
  /** Factor on the score of a chapter a matched care concept avoids (concepts.ts `avoid`). */
  avoid: number;
  /** How far a chapter's teaching prior (expansion.ts commentaryPrior, in [0, 1]) moves its score: x (1 + prior * (p - 0.5)). */
  prior: number;
  /**
   * A query of at most this many distinct terms is a short topic search ("travel", "unkind words"): it
   * names a subject, not a situation, so the chapter's commentary field, the teaching prior at
   * `shortPrior` and the list damping apply; a longer question is ranked on its own words.
   */
  short: number;
  /** The teaching prior's weight (as `prior`) for a short topic search. */
  shortPrior: number;
  /** Weight of the chapter's commentary (commentary-field.ts, BM25 over what the commentaries say about it, scaled by its best) added to its score. */
  commentary: number;
  /** How far a window's list share (listness.ts, in [0, 1]) damps its score: x max(0, 1 - list * share). */
  list: number;
  rrfK: number;
  /** Weight of the concept nearest in meaning to a short search that names nothing (neighbours.ts), as a named concept's `weight`. */
  neighbour: number;
  /** The least mean cosine (the search's words with the concept) for that concept to count. */
  neighbourMin: number;
}

export const DEFAULT_FUSION: FusionOptions = { mode: "blend", keyword: 0.75, second: 0, title: 1, topic: 0.6, overlap: 0.5, avoid: 0.1, prior: 0.3, short: 3, shortPrior: 0.6, commentary: 0.2, list: 2, rrfK: 60, neighbour: 0.4, neighbourMin: 0.5 };

export interface DenseHit {
  index: number;
  /** Cosine similarity. */
  score: number;
}

export interface RankedChapter {
  book: string;
  chapter: number;
  /** In [0, 1]. */
  similarity: number;
  /**
   * In [0, 1]: what the question's own words, meaning and named passages say for the chapter, before the
   * teaching prior and the commentary field reorder it (search.ts reads its confidence from it).
   */
  evidence: number;
  /** The chapter's best-scoring window (a passage index), when a window matched; a title or concept alone names none. */
  window?: number;
}

/** Windows grouped to chapters, with the keyword index over them; built once per corpus. */
export class PassageRanker {
  readonly bm25: Bm25Index;
  readonly chapterOf: Int32Array;
  private readonly firstWindow: number[] = [];
  private readonly scratch: Record<"window" | "best" | "second" | "score" | "evidence", Float32Array>;
  private readonly bestWindow: Int32Array;
  private readonly chapterMark: Uint8Array;
  private readonly touchedWindows: number[] = [];
  private readonly touchedChapters: number[] = [];
  readonly chapters: { book: string; chapter: number }[] = [];
  /** Per chapter (chapter id order): which passages teach, in [0, 1]; unset = no prior. */
  prior: Float32Array | undefined;
  /** Per window: the share of its words that are rare names or numbers (listness.ts); unset = none. */
  listShare: Float32Array | undefined;
  /** Keyword index over each chapter's commentary, document i = chapter id i (commentary-field.ts); unset = none. */
  commentaryField: Bm25Index | undefined;
  private readonly chapterIndex = new Map<string, number>();

  constructor(
    readonly passages: readonly WindowPlace[],
    /** The windows' keyword tokens, or a keyword index already built from them (Bm25Index.toData). */
    tokens: readonly (readonly string[])[] | Bm25Data,
    /** Document lengths for BM25 when they differ from the token counts (concept tags do not count). */
    lengths?: readonly number[],
  ) {
    this.bm25 = new Bm25Index(tokens, lengths ? { lengths } : {});
    this.chapterOf = new Int32Array(passages.length);
    passages.forEach((p, i) => {
      const key = `${p.book}.${p.chapter}`;
      let c = this.chapterIndex.get(key);
      if (c === undefined) {
        c = this.chapters.length;
        this.chapterIndex.set(key, c);
        this.chapters.push({ book: p.book, chapter: p.chapter });
        this.firstWindow.push(i);
      }
      this.chapterOf[i] = c;
    });
    const n = passages.length;
    const m = this.chapters.length;
    this.scratch = { window: new Float32Array(n), best: new Float32Array(m), second: new Float32Array(m), score: new Float32Array(m), evidence: new Float32Array(m) };
    this.chapterMark = new Uint8Array(m);
    this.bestWindow = new Int32Array(m).fill(-1);
  }

  /** The first window (passage index) of a chapter id. */
  firstWindowOf(c: number): number {
    return this.firstWindow[c]!;
  }

  chapterId(book: string, chapter: number): number | undefined {
    return this.chapterIndex.get(`${book}.${chapter}`);
  }

  rank(
    input: {
      tokens: readonly string[];
      /** BM25 of `tokens` when the caller computed it already (e.g. while the dense query was in flight). */
      keyword?: SparseScores;
      dense: readonly DenseHit[] | null;
      titles: readonly TitleMatch[];
      /** Passages [from, to) that may rank: filters are contiguous because passages are in canonical order. */
      range?: readonly [number, number];
      /** Several allowed ranges (the Old Testament with the deuterocanon after the New); overrides `range`. */
      ranges?: readonly (readonly [number, number])[];
      /** Chapters to rank far down (the matched care concepts' `avoid`): scored x `fusion.avoid`. */
      avoid?: readonly { book: string; chapter: number }[];
    },
    limit: number,
    fusion: FusionOptions = DEFAULT_FUSION,
  ): RankedChapter[] {
    const allowed = allowedRanges(input.ranges ?? [input.range ?? [0, this.passages.length]]);
    const keyword = input.keyword ?? this.bm25.sparse(input.tokens);
    // rank() never awaits, so one set of scratch buffers serves every call; only the windows and
    // chapters a query touches are visited and then reset, never a pass over all of them.
    const { window: windowScore, best, second, score, evidence } = this.scratch;
    const windows = this.touchedWindows;
    windows.length = 0;
    if (fusion.mode === "rrf") this.fuseRrf(keyword, input.dense, windowScore, windows, allowed, fusion.rrfK);
    else this.fuseBlend(keyword, input.dense, windowScore, windows, allowed, fusion.keyword);

    const chapters = this.touchedChapters;
    chapters.length = 0;
    const mark = this.chapterMark;
    // A named passage or remembered line ("the battle is the LORD's") is not a topic search, however short.
    const short = fusion.short > 0 && input.tokens.length > 0 && new Set(input.tokens).size <= fusion.short && !input.titles.some((m) => m.entry.kind === "title");
    const list = short && fusion.list !== 0 ? this.listShare : undefined;
    for (const i of windows) {
      const s = list ? windowScore[i]! * Math.max(0, 1 - fusion.list * list[i]!) : windowScore[i]!;
      windowScore[i] = 0;
      if (s <= 0) continue;
      const c = this.chapterOf[i]!;
      if (!mark[c]) (mark[c] = 1), chapters.push(c);
      if (s > best[c]!) (second[c] = best[c]!), (best[c] = s), (this.bestWindow[c] = i);
      else if (s > second[c]!) second[c] = s;
    }
    for (const c of chapters) score[c] = best[c]! + fusion.second * second[c]!;
    this.addTitles(score, chapters, input.titles, allowed, fusion);
    // What the question's own words, meaning and named passages say (the similarity, and so the
    // confidence, is read from it), before the teaching signals reorder the chapters.
    for (const c of chapters) evidence[c] = score[c]!;
    if (short && this.commentaryField && fusion.commentary !== 0) this.addCommentary(input.tokens, score, chapters, allowed, fusion.commentary);
    const prior = this.prior;
    const priorWeight = short ? fusion.shortPrior : fusion.prior;
    if (prior && priorWeight !== 0) for (const c of chapters) score[c]! *= 1 + priorWeight * (prior[c]! - 0.5);
    for (const a of input.avoid ?? []) {
      const c = this.chapterId(a.book, a.chapter);
      if (c !== undefined && mark[c]) (score[c]! *= fusion.avoid), (evidence[c]! *= fusion.avoid);
    }

    const max = 1 + fusion.second + fusion.title;
    const ranked = topChapters(chapters, score, limit).map((c): RankedChapter => {
      const w = this.bestWindow[c]!;
      // A chapter only its commentary brought in has no evidence of its own: its score stands in.
      const sure = evidence[c]! > 0 ? evidence[c]! : score[c]!;
      return { ...this.chapters[c]!, similarity: Math.min(0.999, score[c]! / max), evidence: Math.min(0.999, sure / max), ...(w >= 0 ? { window: w } : {}) };
    });
    for (const c of chapters) (best[c] = 0), (second[c] = 0), (score[c] = 0), (evidence[c] = 0), (mark[c] = 0), (this.bestWindow[c] = -1);
    return ranked;
  }

  /** Keyword scores scaled by their best among allowed windows; cosine as is (already in [0, 1] for hits). */
  private fuseBlend(keyword: SparseScores, dense: readonly DenseHit[] | null, out: Float32Array, touched: number[], allowed: (i: number) => boolean, w: number) {
    const { docs, scores } = keyword;
    let maxK = 0;
    for (let j = 0; j < docs.length; j++) if (allowed(docs[j]!) && scores[j]! > maxK) maxK = scores[j]!;
    const kw = dense ? w : 1;
    if (maxK > 0) {
      for (let j = 0; j < docs.length; j++) {
        const d = docs[j]!;
        if (allowed(d)) (out[d] = (kw * scores[j]!) / maxK), touched.push(d);
      }
    }
    if (dense) {
      for (const h of dense) {
        if (!(h.score > 0 && allowed(h.index))) continue;
        if (out[h.index] === 0) touched.push(h.index);
        out[h.index]! += (1 - w) * h.score;
      }
    }
  }

  private fuseRrf(keyword: SparseScores, dense: readonly DenseHit[] | null, out: Float32Array, touched: number[], allowed: (i: number) => boolean, k: number) {
    const { docs, scores } = keyword;
    const ranked: number[] = [];
    for (let j = 0; j < docs.length; j++) if (allowed(docs[j]!)) ranked.push(j);
    ranked.sort((a, b) => scores[b]! - scores[a]! || docs[a]! - docs[b]!);
    // Scaled so the top of one list is worth about 0.5, comparable with the blend's range.
    const scale = (k + 1) / 2;
    const add = (i: number, v: number) => {
      if (out[i] === 0) touched.push(i);
      out[i]! += v;
    };
    ranked.slice(0, 200).forEach((j, r) => add(docs[j]!, scale / (k + r + 1)));
    if (dense) {
      const hits = dense.filter((h) => allowed(h.index)).sort((a, b) => b.score - a.score);
      hits.forEach((h, r) => add(h.index, scale / (k + r + 1)));
    }
  }

  /** What the commentaries say about a chapter, as BM25 over their words scaled by the best allowed chapter's. */
  private addCommentary(tokens: readonly string[], score: Float32Array, chapters: number[], allowed: (i: number) => boolean, weight: number) {
    const { docs, scores } = this.commentaryField!.sparse(tokens);
    let max = 0;
    for (let j = 0; j < docs.length; j++) if (scores[j]! > max && allowed(this.firstWindow[docs[j]!]!)) max = scores[j]!;
    if (max <= 0) return;
    for (let j = 0; j < docs.length; j++) {
      const c = docs[j]!;
      if (!allowed(this.firstWindow[c]!)) continue;
      if (!this.chapterMark[c]) (this.chapterMark[c] = 1), chapters.push(c);
      score[c]! += (weight * scores[j]!) / max;
    }
  }

  private addTitles(score: Float32Array, chapters: number[], titles: readonly TitleMatch[], allowed: (i: number) => boolean, fusion: FusionOptions) {
    if (titles.length === 0) return;
    const weight = fusion.title;
    const boost = new Map<number, number>();
    // Per chapter, the sum and the best of the matched topics' boosts: a chapter that teaches two of the
    // question's topics ("worry about money": MAT 6) gets a share of the second.
    const topicSum = new Map<number, number>();
    const topicBest = new Map<number, number>();
    const own = new Map<number, number>();
    for (const m of titles) {
      const base = weight * Math.min(1, 0.5 + m.coverage) * (m.weight ?? 1);
      own.clear();
      for (const [k, r] of m.entry.ranges.entries()) {
        // A topic's passages are listed most useful first; a title's ranges are all the passage itself.
        const b = m.entry.kind === "topic" ? base * fusion.topic * (1 - 0.1 * k) : base;
        for (let ch = r.chapter; ch <= r.chapterEnd; ch++) {
          const c = this.chapterId(r.book, ch);
          if (c !== undefined && allowed(this.firstWindow[c]!)) own.set(c, Math.max(own.get(c) ?? 0, b));
        }
      }
      for (const [c, b] of own) {
        boost.set(c, Math.max(boost.get(c) ?? 0, b));
        if (m.entry.kind !== "topic") continue;
        topicSum.set(c, (topicSum.get(c) ?? 0) + b);
        topicBest.set(c, Math.max(topicBest.get(c) ?? 0, b));
      }
    }
    // One boost per chapter: a chapter named by several matched titles is not counted twice.
    for (const [c, b] of boost) {
      if (!this.chapterMark[c]) (this.chapterMark[c] = 1), chapters.push(c);
      const more = (topicSum.get(c) ?? 0) - (topicBest.get(c) ?? 0);
      score[c]! += b + fusion.overlap * more;
    }
  }
}

/**
 * The `limit` best chapters with a positive score, best first (ties by chapter id): the same order as
 * sorting them all, but one pass with a small sorted buffer, since a broad query touches ~1,000 chapters
 * and only a handful are returned.
 */
function topChapters(chapters: readonly number[], score: Float32Array, limit: number): number[] {
  const top: number[] = [];
  if (limit <= 0) return top;
  const before = (a: number, b: number) => score[a]! > score[b]! || (score[a] === score[b] && a < b);
  for (const c of chapters) {
    if (!(score[c]! > 0)) continue;
    if (top.length === limit && !before(c, top[limit - 1]!)) continue;
    let k = top.length < limit ? top.length : limit - 1;
    while (k > 0 && before(c, top[k - 1]!)) {
      top[k] = top[k - 1]!;
      k--;
    }
    top[k] = c;
  }
  return top;
}

/** A membership test for passage ranges; one range (the usual case) is two comparisons. */
function allowedRanges(ranges: readonly (readonly [number, number])[]): (i: number) => boolean {
  if (ranges.length === 1) {
    const [from, to] = ranges[0]!;
    return (i) => i >= from && i < to;
  }
  return (i) => ranges.some(([from, to]) => i >= from && i < to);
}
