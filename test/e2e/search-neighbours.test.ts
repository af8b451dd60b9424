import { describe, expect, it } from "vitest";
import { DEFAULT_FUSION } from "../../src/scripture/search/ranker.js";
import { useTestSearch } from "../helpers/chroma.js";

/** A short search that names nothing, on a real index of a few books (real Chroma, real WEB). */
const BOOKS = ["DEU", "JER", "NUM", "PSA", "PRO", "MAT", "EPH", "COL", "JAS"];
/** The chapters the concept "speech" teaches from (concepts-data.ts), among BOOKS. */
const SPEECH = ["JAS 3", "PRO 18", "EPH 4", "MAT 12", "PRO 15", "PSA 141", "COL 4"];
const svcOf = useTestSearch({ books: BOOKS });

const chapters = async (query: string, care = false) =>
  (await svcOf().search.search({ query, bibleId: "eng-web", limit: 10, ...(care ? { care } : {}) })).results.map((r) => `${r.book_id} ${r.chapter}`);

/** The ranking with the nearest concept's weight set to `weight` for one search. */
async function withWeight<T>(weight: number, run: () => Promise<T>): Promise<T> {
  const before = DEFAULT_FUSION.neighbour;
  DEFAULT_FUSION.neighbour = weight;
  try {
    return await run();
  } finally {
    DEFAULT_FUSION.neighbour = before;
  }
}

describe("search: the concept nearest in meaning to a short search that names nothing", () => {
  it("when the search is 'harsh words', then more of the chapters that teach about speech rank, the concept's first (James 3) among them", async () => {
    const ranked = await chapters("What does the Bible say about harsh words?");
    const without = await withWeight(0, () => chapters("What does the Bible say about harsh words?"));
    const teaching = (list: string[]) => list.filter((c) => SPEECH.includes(c)).length;
    // On these nine books, James 3 enters the top 10 only with the inferred concept.
    expect(teaching(ranked)).toBeGreaterThan(teaching(without));
    expect(ranked).toContain("JAS 3");
    expect(without).not.toContain("JAS 3");
  });

  it("when the caller knows the asker needs care, then nothing is inferred", async () => {
    const cared = await chapters("harsh words", true);
    expect(cared).toEqual(await withWeight(0, () => chapters("harsh words", true)));
  });

  it("when the question names a concept or is longer than a short search, then the ranking is its own", async () => {
    for (const q of ["how do I control my temper", "my coworkers keep saying unkind words about me behind my back"]) {
      expect(await chapters(q), q).toEqual(await withWeight(0, () => chapters(q)));
    }
  });
});
