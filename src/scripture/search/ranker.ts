import { Bm25Index } from "./bm25.js";
import type { TitleMatch } from "./titles.js";
import type { Passage } from "./types.js";

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
  rrfK: number;
}

export const DEFAULT_FUSION: FusionOptions = { mode: "blend", keyword: 0.5, second: 0, title: 1, topic: 0.6, rrfK: 60 };

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
}

/** Windows grouped to chapters, with the keyword index over them; built once per corpus. */
export class PassageRanker {
  readonly bm25: Bm25Index;
  readonly chapterOf: Int32Array;
  private readonly firstWindow: number[] = [];
  private readonly scratch: Record<"keyword" | "window" | "best" | "second" | "score", Float32Array>;
  readonly chapters: { book: string; chapter: number }[] = [];
  private readonly chapterIndex = new Map<string, number>();

  constructor(
    readonly passages: readonly Passage[],
    tokens: readonly (readonly string[])[],
  ) {
    this.bm25 = new Bm25Index(tokens);
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
    this.scratch = { keyword: new Float32Array(n), window: new Float32Array(n), best: new Float32Array(m), second: new Float32Array(m), score: new Float32Array(m) };
  }

  chapterId(book: string, chapter: number): number | undefined {
    return this.chapterIndex.get(`${book}.${chapter}`);
  }

  rank(
    input: {
      tokens: readonly string[];
      dense: readonly DenseHit[] | null;
      titles: readonly TitleMatch[];
      /** Passages [from, to) that may rank: filters are contiguous because passages are in canonical order. */
      range?: readonly [number, number];
    },
    limit: number,
    fusion: FusionOptions = DEFAULT_FUSION,
  ): RankedChapter[] {
    const [from, to] = input.range ?? [0, this.passages.length];
    const allowed = (i: number) => i >= from && i < to;
    // rank() never awaits, so one set of scratch buffers serves every call without garbage per query.
    const { keyword: kbuf, window: windowScore, best, second, score } = this.scratch;
    const keyword = this.bm25.scores(input.tokens, kbuf);
    windowScore.fill(0);
    best.fill(0);
    second.fill(0);
    if (fusion.mode === "rrf") this.fuseRrf(keyword, input.dense, windowScore, allowed, fusion.rrfK);
    else this.fuseBlend(keyword, input.dense, windowScore, [from, to], fusion.keyword);

    for (let i = from; i < to; i++) {
      const s = windowScore[i]!;
      if (s <= 0) continue;
      const c = this.chapterOf[i]!;
      if (s > best[c]!) (second[c] = best[c]!), (best[c] = s);
      else if (s > second[c]!) second[c] = s;
    }
    for (let c = 0; c < score.length; c++) score[c] = best[c]! + fusion.second * second[c]!;
    this.addTitles(score, input.titles, allowed, fusion);

    const max = 1 + fusion.second + fusion.title;
    const order: number[] = [];
    for (let c = 0; c < score.length; c++) if (score[c]! > 0) order.push(c);
    order.sort((a, b) => score[b]! - score[a]! || a - b);
    return order.slice(0, limit).map((c) => ({ ...this.chapters[c]!, similarity: Math.min(0.999, score[c]! / max) }));
  }

  /** Keyword scores scaled by their best among allowed windows; cosine as is (already in [0, 1] for hits). */
  private fuseBlend(keyword: Float32Array, dense: readonly DenseHit[] | null, out: Float32Array, [from, to]: readonly [number, number], w: number) {
    let maxK = 0;
    for (let i = from; i < to; i++) if (keyword[i]! > maxK) maxK = keyword[i]!;
    const kw = dense ? w : 1;
    if (maxK > 0) for (let i = from; i < to; i++) if (keyword[i]! > 0) out[i] = (kw * keyword[i]!) / maxK;
    if (dense) for (const h of dense) if (h.score > 0 && h.index >= from && h.index < to) out[h.index]! += (1 - w) * h.score;
  }

  private fuseRrf(keyword: Float32Array, dense: readonly DenseHit[] | null, out: Float32Array, allowed: (i: number) => boolean, k: number) {
    const ranked: number[] = [];
    for (let i = 0; i < keyword.length; i++) if (keyword[i]! > 0 && allowed(i)) ranked.push(i);
    ranked.sort((a, b) => keyword[b]! - keyword[a]!);
    // Scaled so the top of one list is worth about 0.5, comparable with the blend's range.
    const scale = (k + 1) / 2;
    ranked.slice(0, 200).forEach((i, r) => (out[i]! += scale / (k + r + 1)));
    if (dense) {
      const hits = dense.filter((h) => allowed(h.index)).sort((a, b) => b.score - a.score);
      hits.forEach((h, r) => (out[h.index]! += scale / (k + r + 1)));
    }
  }

  private addTitles(score: Float32Array, titles: readonly TitleMatch[], allowed: (i: number) => boolean, fusion: FusionOptions) {
    const weight = fusion.title;
    const boost = new Map<number, number>();
    for (const m of titles) {
      const base = weight * Math.min(1, 0.5 + m.coverage);
      for (const [k, r] of m.entry.ranges.entries()) {
        // A topic's passages are listed most useful first; a title's ranges are all the passage itself.
        const b = m.entry.kind === "topic" ? base * fusion.topic * (1 - 0.1 * k) : base;
        for (let ch = r.chapter; ch <= r.chapterEnd; ch++) {
          const c = this.chapterId(r.book, ch);
          if (c !== undefined && allowed(this.firstWindow[c]!)) boost.set(c, Math.max(boost.get(c) ?? 0, b));
        }
      }
    }
    // One boost per chapter: a chapter named by several matched titles is not counted twice.
    for (const [c, b] of boost) score[c]! += b;
  }
}
