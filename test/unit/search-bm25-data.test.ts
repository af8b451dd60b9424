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
