import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { neighbourEncoder } from "../../ingest/build-neighbours.js";
import { CONCEPTS, matchConcepts } from "../../src/scripture/search/concepts.js";
import { conceptsKey, COSINES_AT, decodeNeighbours, encodeNeighbours, inferableConcepts, loadNeighbours, nearestConcept, NEIGHBOURS_FILE, type Neighbours } from "../../src/scripture/search/neighbours.js";
import { DEFAULT_FUSION } from "../../src/scripture/search/ranker.js";
import { DEFAULT_STUDY_DIR } from "../../src/study/data.js";

/** The shipped table (data/study/concept-neighbours.json.gz), computed by the real encoder. */
const shipped = decodeNeighbours(gunzipSync(readFileSync(join(DEFAULT_STUDY_DIR, NEIGHBOURS_FILE))));
const table = loadNeighbours() as Neighbours;
const near = (q: string) => nearestConcept(table, q, DEFAULT_FUSION.neighbourMin)?.concept.id;

describe("concepts near a search in meaning: the shipped table", () => {
  it("was computed from today's concept table (rerun npm run ingest:neighbours when it was not)", () => {
    expect(shipped.conceptsKey).toBe(conceptsKey());
    expect(shipped.concepts).toEqual(inferableConcepts().map((c) => c.id));
    expect(table).toBeDefined();
  });

  it("never lists a care concept, nor one that teaches mostly from the end of the age and eternal fire, as one to infer", () => {
    const ids = new Set(shipped.concepts);
    for (const c of CONCEPTS.filter((c) => c.avoid.length > 0)) expect(ids.has(c.id)).toBe(false);
    for (const id of ["hell", "end times", "second coming"]) expect(ids.has(id)).toBe(false);
    expect(ids.has("speech")).toBe(true);
  });

  it("holds the words searchers type that the Bible texts lack, from the encoder's vocabulary", () => {
    for (const w of ["unkind", "travel", "tithing", "bragging", "mocking"]) expect(shipped.words).toContain(w);
  });

  it("is missing or stale -> nothing is loaded, so nothing is inferred", () => {
    const dir = mkdtempSync(join(tmpdir(), "neighbours-"));
    try {
      expect(loadNeighbours(dir)).toBeUndefined();
      writeFileSync(join(dir, NEIGHBOURS_FILE), gzipSync(encodeNeighbours({ ...shipped, conceptsKey: "0000000000000000" })));
      expect(loadNeighbours(dir)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("concepts near a search in meaning: the shipped rows are the encoder's", () => {
  let encoder: Awaited<ReturnType<typeof neighbourEncoder>>;
  beforeAll(async () => {
    encoder = await neighbourEncoder();
  }, 120_000);

  it("a sample of words embedded again gives the same nearest concepts and cosines", async () => {
    const sample = [...shipped.words.filter((_, i) => i % 1500 === 0), "unkind", "travel", "bragging"];
    const fresh = await encoder.rows(sample);
    const row = fresh.length / sample.length;
    sample.forEach((w, k) => {
      const at = shipped.words.indexOf(w) * row;
      const mine = fresh.slice(k * row, (k + 1) * row);
      const theirs = [...shipped.rows.subarray(at, at + row)];
      // The three nearest concepts (two bytes each) agree, and every stored cosine within one step of rounding.
      expect(mine.slice(0, 6), w).toEqual(theirs.slice(0, 6));
      for (let i = COSINES_AT; i < row; i++) expect(Math.abs(mine[i]! - theirs[i]!), `${w} ${i}`).toBeLessThanOrEqual(1);
    });
  }, 120_000);
});

describe("concepts near a search in meaning: which concept a search gets", () => {
  it("when a short search names no concept, then it gets the concept whose teaching it means", () => {
    for (const q of ["hurtful words", "What does the Bible say about hurtful words?", "bragging"]) expect(matchConcepts(q), q).toEqual([]);
    // Two concepts teach about words: speech (James 3) and kindness (Ephesians 4, Proverbs 15).
    expect(["speech", "kindness"]).toContain(near("hurtful words"));
    expect(near("What does the Bible say about hurtful words?")).toBe(near("hurtful words"));
    expect(near("bragging")).toBe("pride");
  });

  it("when a search is nearer to distress or to doom than to any concept it may get, then it gets none", () => {
    for (const q of ["end it all", "hopeless", "eternal fire", "the lake of fire", "judgment day"]) expect(near(q), q).toBeUndefined();
  });

  it("when the search's words are unknown to the table or only stopwords, then it gets none", () => {
    expect(near("qwertyuiop")).toBeUndefined();
    expect(near("what does the bible say about")).toBeUndefined();
  });
});

