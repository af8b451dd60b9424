import { describe, expect, it } from "vitest";
import { loadNeighbours, nearestConcept } from "../../src/scripture/search/neighbours.js";
import { DEFAULT_FUSION } from "../../src/scripture/search/ranker.js";
import { useTestSearch } from "../helpers/chroma.js";

/** A short search that names nothing, on a real index of a few books (real Chroma, real WEB). */
const BOOKS = ["DEU", "JER", "NUM", "PSA", "PRO", "MAT", "EPH", "COL", "JAS"];
/** The chapters, among BOOKS, of the concept the shipped table infers for a search (the table follows concepts-data.ts). */
function inferred(query: string): { id: string; chapters: string[] } {
  const near = nearestConcept(loadNeighbours()!, query, DEFAULT_FUSION.neighbourMin)!;
  return { id: near.concept.id, chapters: near.concept.ranges.filter((r) => BOOKS.includes(r.book)).map((r) => `${r.book} ${r.chapter}`) };
}
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
  it("when the search is 'mean words', then more of the chapters its inferred concept teaches from rank", async () => {
    const q = "What does the Bible say about mean words?";
    const concept = inferred(q);
    // Speech or kindness, both of which teach about words (test/unit/search-neighbours.test.ts).
    expect(["speech", "kindness"]).toContain(concept.id);
    const ranked = await chapters(q);
    const without = await withWeight(0, () => chapters(q));
    const teaching = (list: string[]) => list.filter((c) => concept.chapters.includes(c)).length;
    expect(teaching(ranked)).toBeGreaterThan(teaching(without));
  });

  it("when the caller knows the asker needs care, then nothing is inferred", async () => {
    const cared = await chapters("mean words", true);
    expect(cared).toEqual(await withWeight(0, () => chapters("mean words", true)));
  });

  it("when the question names a concept or is longer than a short search, then the ranking is its own", async () => {
    for (const q of ["how do I control my temper", "my coworkers keep saying unkind words about me behind my back"]) {
      expect(await chapters(q), q).toEqual(await withWeight(0, () => chapters(q)));
    }
  });
});
