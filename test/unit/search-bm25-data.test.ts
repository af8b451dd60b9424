import { describe, expect, it } from "vitest";
import { Bm25Index } from "../../src/scripture/search/bm25.js";

const DOCS = [
  ["love", "neighbour", "love"],
  ["forgive", "brother", "seventy", "times", "seven"],
  ["love", "enemies", "pray", "persecute"],
  ["shepherd", "green", "pastures", "still", "waters"],
  [],
];
const LENGTHS = [3, 5, 3, 5, 1];

describe("a keyword index sent across threads as flat arrays", () => {
  it("when rebuilt from toData(), then it scores, matches and suggests exactly as the index it came from", () => {
    const built = new Bm25Index(DOCS, { lengths: LENGTHS });
    const data = built.toData();
    // What postMessage does to it: a structured clone.
    const adopted = new Bm25Index(structuredClone(data));
    for (const query of [["love"], ["love", "pray"], ["seven", "times", "love"], ["absent"]]) {
      expect([...adopted.scores(query)]).toEqual([...built.scores(query)]);
      expect(adopted.sparse(query)).toEqual(built.sparse(query));
    }
    expect(adopted.termsLike("forgiv", 4)).toEqual(built.termsLike("forgiv", 4));
    expect(adopted.idf("love")).toBe(built.idf("love"));
    expect(adopted.size).toBe(DOCS.length);
  });
});

describe("a keyword index held as flat arrays", () => {
  /** Okapi BM25 written out for one document, as a reference. */
  function reference(query: string[], d: number, lengths: number[]) {
    const k1 = 1.2;
    const b = 0.75;
    const avg = lengths.reduce((x, n) => x + n, 0) / lengths.length;
    let score = 0;
    for (const term of new Set(query)) {
      const df = DOCS.filter((doc) => doc.includes(term)).length;
      const tf = DOCS[d]!.filter((t) => t === term).length;
      if (df === 0 || tf === 0) continue;
      const idf = Math.log(1 + (DOCS.length - df + 0.5) / (df + 0.5));
      const norm = Math.fround(k1 * (1 - b + (b * lengths[d]!) / avg));
      score += (idf * tf * (k1 + 1)) / (tf + norm);
    }
    return score;
  }

  it("when built from tokens or adopted from its arrays, then every document scores as Okapi BM25 does, and sparse() lists exactly the documents a query term is in", () => {
    const built = new Bm25Index(DOCS, { lengths: LENGTHS });
    const adopted = new Bm25Index(structuredClone(built.toData()));
    for (const index of [built, adopted]) {
      for (const query of [["love"], ["love", "pray", "love"], ["seven", "times", "shepherd"], ["absent"], []]) {
        const all = index.scores(query);
        DOCS.forEach((_, d) => expect(all[d]).toBeCloseTo(reference(query, d, LENGTHS), 5));
        const { docs, scores } = index.sparse(query);
        const holding = DOCS.flatMap((doc, d) => (query.some((t) => doc.includes(t)) ? [d] : []));
        expect([...docs].sort((x, y) => x - y)).toEqual(holding);
        docs.forEach((d, j) => expect(scores[j]).toBe(all[d]));
      }
    }
  });

  it("when read as data, then term i's postings are docs/tfs[offsets[i], offsets[i + 1]), terms in the order first seen", () => {
    const data = new Bm25Index(DOCS, { lengths: LENGTHS }).toData();
    expect(data.terms.slice(0, 5)).toEqual(["love", "neighbour", "forgive", "brother", "seventy"]);
    expect(data.offsets.length).toBe(data.terms.length + 1);
    expect(data.offsets[data.terms.length]).toBe(data.docs.length);
    const love = data.terms.indexOf("love");
    expect([...data.docs.subarray(data.offsets[love]!, data.offsets[love + 1]!)]).toEqual([0, 2]);
    expect([...data.tfs.subarray(data.offsets[love]!, data.offsets[love + 1]!)]).toEqual([2, 1]);
    expect(data.idf[love]).toBeCloseTo(Math.log(1 + (5 - 2 + 0.5) / 2.5), 12);
  });
});


describe("a keyword index built from a generator", () => {
  it("when the documents come one at a time and the generator fills the lengths as it yields, then the arrays equal an index built from the same documents at once", () => {
    const texts = ["god so loved the world", "love your neighbor", "in the beginning god created", "god is love love", "the word"];
    const extra = ["gospel", "", "creation", "love", ""];
    const lengths: number[] = [];
    const docs = function* () {
      for (const [i, t] of texts.entries()) {
        const tokens = t.split(" ");
        lengths.push(tokens.length);
        if (extra[i]) tokens.push(extra[i]!);
        yield tokens;
      }
    };
    const streamed = new Bm25Index(docs(), { lengths }).toData();
    const whole = new Bm25Index(
      texts.map((t, i) => [...t.split(" "), ...(extra[i] ? [extra[i]!] : [])]),
      { lengths: texts.map((t) => t.split(" ").length) },
    ).toData();
    expect(streamed).toEqual(whole);
    expect(streamed.size).toBe(5);
    // The lengths the generator gave (not the token counts, which include the extra terms) set the norms.
    expect(streamed.norms[3]).toBeCloseTo(1.2 * (1 - 0.75 + (0.75 * 4) / (19 / 5)), 6);
  });
});
