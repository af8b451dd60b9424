import { describe, expect, it } from "vitest";
import { Bm25Index } from "../../src/scripture/search/bm25.js";
import { DEFAULT_FUSION, PassageRanker, type DenseHit, type FusionOptions, type RankedChapter } from "../../src/scripture/search/ranker.js";
import type { TitleMatch } from "../../src/scripture/search/titles.js";
import type { Passage } from "../../src/scripture/search/types.js";

// A deterministic generator, so a failure reproduces.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const VOCAB = ["lord", "shepherd", "sheep", "king", "david", "water", "bread", "love", "faith", "sin", "grace", "light"];
const rand = rng(7);
const pick = () => VOCAB[Math.floor(rand() * VOCAB.length)]!;
const BOOKS = ["GEN", "PSA", "MAT", "JHN"];
const passages: Passage[] = [];
const tokens: string[][] = [];
for (const [b, book] of BOOKS.entries()) {
  for (let chapter = 1; chapter <= 5; chapter++) {
    for (let w = 0; w < 3; w++) {
      const words = Array.from({ length: 3 + Math.floor(rand() * 8) }, pick);
      passages.push({ id: `${book}.${chapter}.${w}`, book, chapter, verseStart: 1 + 3 * w, verseEnd: 6 + 3 * w, testament: b < 2 ? "OT" : "NT", text: words.join(" ") });
      tokens.push(words);
    }
  }
}

/** The full-pass ranking the sparse one replaced: every window and chapter visited, per query. */
function reference(ranker: PassageRanker, q: string[], dense: DenseHit[] | null, titles: TitleMatch[], range: [number, number], f: FusionOptions) {
  const [from, to] = range;
  const kw = new Bm25Index(tokens).scores(q);
  const win = new Float32Array(passages.length);
  let maxK = 0;
  for (let i = from; i < to; i++) maxK = Math.max(maxK, kw[i]!);
  const w = dense ? f.keyword : 1;
  if (maxK > 0) for (let i = from; i < to; i++) if (kw[i]! > 0) win[i] = (w * kw[i]!) / maxK;
  for (const h of dense ?? []) if (h.score > 0 && h.index >= from && h.index < to) win[h.index]! += (1 - f.keyword) * h.score;
  const score = new Float32Array(ranker.chapters.length);
  for (let i = from; i < to; i++) score[ranker.chapterOf[i]!] = Math.max(score[ranker.chapterOf[i]!]!, win[i]!);
  const boost = new Map<number, number>();
  for (const m of titles) {
    for (const r of m.entry.ranges) {
      const c = ranker.chapterId(r.book, r.chapter)!;
      const first = ranker.chapterOf.indexOf(c);
      if (first >= from && first < to) boost.set(c, Math.max(boost.get(c) ?? 0, f.title * Math.min(1, 0.5 + m.coverage)));
    }
  }
  for (const [c, b] of boost) score[c]! += b;
  const order = [...score.keys()].filter((c) => score[c]! > 0).sort((a, b) => score[b]! - score[a]! || a - b);
  return order.map((c) => ({ ...ranker.chapters[c]!, similarity: Math.min(0.999, score[c]! / (1 + f.title)) }));
}

describe("sparse keyword scoring and aggregation", () => {
  const bm25 = new Bm25Index(tokens);
  const ranker = new PassageRanker(passages, tokens);

  it("when a query is scored sparsely, then it gives exactly the full scores of the documents it touches and nothing else", () => {
    for (let n = 0; n < 50; n++) {
      const q = Array.from({ length: 1 + Math.floor(rand() * 4) }, pick).concat(n % 5 === 0 ? ["absent"] : []);
      const full = bm25.scores(q);
      const { docs, scores } = bm25.sparse(q);
      const got = new Float32Array(passages.length);
      docs.forEach((d, j) => (got[d] = scores[j]!));
      expect(Array.from(got)).toEqual(Array.from(full));
      expect(new Set(docs).size).toBe(docs.length);
    }
    expect(bm25.sparse(["absent"]).docs.length).toBe(0);
  });

  it("when many queries run in a row, filtered or not, then each ranks exactly as the full-pass fusion does (no state left behind)", () => {
    const title = (book: string, chapter: number, coverage: number): TitleMatch => ({
      entry: { kind: "title", names: ["t"], phrases: [["t"]], ranges: [{ book, chapter, chapterEnd: chapter, verseStart: 1, verseEnd: 6 }] },
      length: 1,
      coverage,
    });
    for (let n = 0; n < 200; n++) {
      const q = Array.from({ length: 1 + Math.floor(rand() * 3) }, pick);
      const dense = n % 3 === 0 ? null : Array.from({ length: 6 }, () => ({ index: Math.floor(rand() * passages.length), score: rand() * 1.2 - 0.2 }));
      const seen = new Set<number>();
      const uniqueDense = dense?.filter((h) => !seen.has(h.index) && seen.add(h.index)) ?? null;
      const titles = n % 4 === 0 ? [title(BOOKS[n % 4]!, 1 + (n % 5), rand())] : [];
      const range: [number, number] = n % 2 === 0 ? [0, passages.length] : [15 * (n % 4), 15 * (n % 4) + 15];
      // The best window each chapter names is checked apart from the ranking itself; with no teaching
      // prior or commentary field on this ranker, a chapter's evidence is its similarity.
      const strip = (rs: RankedChapter[]) => rs.map(({ window: _w, evidence, ...r }) => (expect(evidence).toBe(r.similarity), r));
      const got = ranker.rank({ tokens: q, dense: uniqueDense, titles, range }, 10);
      const want = reference(ranker, q, uniqueDense, titles, range, DEFAULT_FUSION).slice(0, 10);
      expect(strip(got)).toEqual(want);
      for (const r of got) if (r.window !== undefined) expect(passages[r.window]).toMatchObject({ book: r.book, chapter: r.chapter });
      // A keyword result computed earlier (as while the Chroma query is in flight) ranks the same.
      expect(strip(ranker.rank({ tokens: q, keyword: bm25.sparse(q), dense: uniqueDense, titles, range }, 10))).toEqual(want);
    }
  });
});
