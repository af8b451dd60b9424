import { describe, expect, it } from "vitest";
import { gram, orthonormalizeColumns, symmetricEigen } from "../../src/scripture/search/linalg.js";
import { LsaModel, trainLsa } from "../../src/scripture/search/lsa.js";

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

// Two topics; "lamb" and "flock" never share a document but share neighbours ("sheep", "shepherd").
const docs = [
  ["sheep", "shepherd", "lamb"],
  ["sheep", "shepherd", "flock"],
  ["shepherd", "lamb", "pastur"],
  ["flock", "pastur", "sheep"],
  ["king", "throne", "crown"],
  ["king", "crown", "palac"],
  ["throne", "palac", "reign"],
  ["reign", "king", "throne"],
];

describe("linear algebra", () => {
  it("when a symmetric matrix is decomposed, then A v = lambda v, largest first", () => {
    const a = Float64Array.from([4, 1, 0, 1, 3, 1, 0, 1, 2]);
    const { values, vectors } = symmetricEigen(a, 3);
    expect(values[0]!).toBeGreaterThan(values[1]!);
    for (let j = 0; j < 3; j++) {
      for (let r = 0; r < 3; r++) {
        let av = 0;
        for (let k = 0; k < 3; k++) av += a[r * 3 + k]! * vectors[k * 3 + j]!;
        expect(av).toBeCloseTo(values[j]! * vectors[r * 3 + j]!, 8);
      }
    }
  });

  it("when columns are orthonormalised, then their Gram matrix is the identity", () => {
    const m = Float64Array.from({ length: 20 * 4 }, (_, i) => Math.sin(i * 1.7) + (i % 5));
    orthonormalizeColumns(m, 20, 4);
    const g = gram(m, 20, 4);
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) expect(g[i * 4 + j]).toBeCloseTo(i === j ? 1 : 0, 10);
  });
});

describe("LSA", () => {
  const model = trainLsa(docs, { dim: 2, seed: 7, minDf: 1 });

  it("when trained twice with the same seed, then the model is identical (same hash)", () => {
    expect(trainLsa(docs, { dim: 2, seed: 7, minDf: 1 }).hash()).toBe(model.hash());
  });

  it("when words co-occur through neighbours, then their vectors are close and other topics are far", () => {
    const lamb = model.embedTokens(["lamb"])!;
    const flock = model.embedTokens(["flock"])!;
    const crown = model.embedTokens(["crown"])!;
    expect(cosine(lamb, flock)).toBeGreaterThan(0.9);
    expect(cosine(lamb, crown)).toBeLessThan(0.3);
  });

  it("when no word is known, then there is no vector rather than a zero one", () => {
    expect(model.embedTokens(["zebra"])).toBeNull();
  });

  it("when serialised and read back, then vectors are unchanged", () => {
    const back = LsaModel.deserialize(model.serialize());
    expect(back.hash()).toBe(model.hash());
    expect(Array.from(back.embedTokens(["king", "throne"])!)).toEqual(Array.from(model.embedTokens(["king", "throne"])!));
  });
});

describe("LSA training's vocabulary", () => {
  // Repeated words in a document, words in one document only, and words whose order differs by code unit.
  const corpus = [
    ["shepherd", "sheep", "sheep", "Zion", "lamb"],
    ["sheep", "Zion", "éden", "throne"],
    ["throne", "éden", "king", "king", "king"],
    ["shepherd", "throne", "alone"],
  ];

  it("when trained with minDf 2, then the vocabulary is the words in two documents or more, in code-unit order, each with idf log((n + 1) / (df + 1)) + 1", () => {
    const model = trainLsa(corpus, { dim: 2, seed: 3, minDf: 2 });
    const df = new Map<string, number>();
    for (const doc of corpus) for (const t of new Set(doc)) df.set(t, (df.get(t) ?? 0) + 1);
    const expected = [...df].filter(([, n]) => n >= 2).map(([t]) => t).sort();
    expect(model.vocab).toEqual(["Zion", "sheep", "shepherd", "throne", "éden"]);
    expect(model.vocab).toEqual(expected);
    expect(Array.from(model.idf)).toEqual(expected.map((t) => Math.fround(Math.log(5 / (df.get(t)! + 1)) + 1)));
  });

  it("when the documents come from a generator, one at a time, then the model is the one trained on the array", () => {
    const fromArray = trainLsa(corpus, { dim: 2, seed: 3, minDf: 2 });
    function* oneAtATime() {
      for (const doc of corpus) yield [...doc];
    }
    const fromGenerator = trainLsa(oneAtATime(), { dim: 2, seed: 3, minDf: 2 });
    expect(fromGenerator.hash()).toBe(fromArray.hash());
    expect(Array.from(fromGenerator.embedTokens(["sheep", "throne"])!)).toEqual(Array.from(fromArray.embedTokens(["sheep", "throne"])!));
  });
});
