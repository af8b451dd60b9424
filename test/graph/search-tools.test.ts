import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { startSearchService, type SearchService } from "../../src/scripture/search/service.js";
import type { ChatRequest } from "../fakes/index.js";
import { startHarness, toolResults, type Harness } from "./harness.js";

/** The agent's search tools against the real index on the run's shared Chroma (test/helpers/global-index.ts). */
let h: Harness;
let service: SearchService;
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
beforeEach(() => h.provider.reset());

/** The result of the model's own (scripted) call: the latest tool round, after the prefetched one. */
const toolResult = (r: ChatRequest) => toolResults(r)[0] ?? "";

describe("search tools on the real index", () => {
  it("when the agent searches by meaning, then it reads ranked chapters with references and the verses that matched, numbered", async () => {
    h.scriptToolTurn("search_scripture", { query: "the Lord is my shepherd, I shall not want" });
    await h.run("Which psalm talks about God as a shepherd?", { skipPreflight: true });
    const result = toolResult(h.agentCalls()[1]!);
    expect(result).toMatch(/^## Psalm 23 \(eng-web, relevance \d\.\d\d; best verses [\d, ]+\)$/m);
    expect(result).toMatch(/^1 Yahweh is my shepherd/m);
    expect(result.length).toBeLessThanOrEqual(6_100);
  });

  it("when the agent searches for exact words, then it reads the verses that contain them", async () => {
    h.scriptToolTurn("keyword_search", { query: "mustard seed", testament: "NT" });
    await h.run("Where does Jesus talk about a mustard seed?", { skipPreflight: true });
    const result = toolResult(h.agentCalls()[1]!);
    expect(result).toMatch(/(Matthew|Mark|Luke) \d+:\d+/);
    expect(result.toLowerCase()).toContain("mustard seed");
    expect(result).not.toMatch(/Genesis|Psalm/);
  });

  it("when the search is restricted to a book by name, then only that book is searched", async () => {
    h.scriptToolTurn("keyword_search", { query: "love", book: "1 Corinthians", limit: 5 });
    await h.run("What does 1 Corinthians say about love?", { skipPreflight: true });
    const lines = toolResult(h.agentCalls()[1]!).split("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^1 Corinthians \d+:\d+/);
  });

  it("when the book is unknown, then the model is told so", async () => {
    h.scriptToolTurn("search_scripture", { query: "love", book: "Hezekiah" });
    await h.run("What does Hezekiah say about love?", { skipPreflight: true });
    expect(toolResult(h.agentCalls()[1]!)).toMatch(/"Hezekiah" is not a book of the Bible/);
  });
});
