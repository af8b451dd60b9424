import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { startSearchService, type SearchService } from "../../src/scripture/search/service.js";
import { GUESSES_NOTE, WEAK_NOTE } from "../../graphs/chat/tools/search-scripture.js";
import { lastToolCalls, startHarness, toolResults, type Harness } from "./harness.js";

/**
 * The confidence of the prefetched turn, on the real index (the run's shared Chroma): a search that
 * found nothing to build on is left out of the turn, a weak one says so, a confident one is plain.
 */
let service: SearchService;
let h: Harness;
beforeAll(async () => {
  const quiet = { info() {}, warn() {}, error() {} };
  const library = loadBibleLibrary();
  service = startSearchService({ dataDir: inject("indexDataDir"), chromaUrl: inject("indexChromaUrl"), library, logger: quiet });
  await service.indexed;
  h = await startHarness({ search: service.search, bibles: library });
});
afterAll(async () => {
  await h?.close();
  await service?.stop();
});

/** What the model's first call carried of the service's prefetched turn: its tool calls and their results. */
async function prefetchedFor(question: string, passage?: { book: string; chapter: number; verses?: number[] }) {
  h.provider.reset();
  await h.run(question, { skipPreflight: true, ...(passage ? { passage } : {}) });
  const first = h.agentCalls()[0]!;
  return { calls: lastToolCalls(first).map((c) => c.function.name), results: toolResults(first) };
}

describe("the prefetched turn's confidence", () => {
  it("when the question holds nothing the index knows, then the turn leaves the search out", async () => {
    const { calls, results } = await prefetchedFor("qwertyuiop zxcvbnm asdfgh");
    expect(calls).toEqual([]);
    expect(results).toEqual([]);
  });

  it("when the search can only guess from words that begin like the question's, then the turn leaves it out, but the request's passage is still looked up", async () => {
    expect((await service.search.search({ query: "forgivenessification", bibleId: "eng-web", limit: 4 })).lowConfidenceReason).toBe("guess");
    expect((await prefetchedFor("forgivenessification")).calls).toEqual([]);
    const named = await prefetchedFor("forgivenessification", { book: "MAT", chapter: 18, verses: [21] });
    expect(named.calls).toEqual(["lookup_passage"]);
    expect(named.results[0]).toMatch(/Peter came and said/);
  });

  it("when nothing the question names matched and the matches are loose, then the turn keeps them and says they are weak", async () => {
    const answer = await service.search.search({ query: "something about car engines", bibleId: "eng-web", limit: 4 });
    expect(answer).toMatchObject({ lowConfidence: true, lowConfidenceReason: "weak" });
    const { calls, results } = await prefetchedFor("something about car engines");
    expect(calls).toEqual(["search_scripture"]);
    expect(results[0]!.startsWith(WEAK_NOTE)).toBe(true);
  });

  it("when a remembered line matched, then the turn holds its passage with no note of doubt", async () => {
    const answer = await service.search.search({ query: "the battle is the lords", bibleId: "eng-web", limit: 4 });
    expect(answer.lowConfidence).toBe(false);
    expect(answer.lowConfidenceReason).toBeUndefined();
    const { calls, results } = await prefetchedFor("the battle is the lords");
    expect(calls).toEqual(["search_scripture"]);
    expect(results[0]).toMatch(/^## 1 Samuel 17 /);
    expect(results[0]).not.toContain(WEAK_NOTE);
    expect(results[0]).not.toContain(GUESSES_NOTE);
  });
});
