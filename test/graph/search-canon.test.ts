import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import type { SearchRequest } from "../../src/scripture/search/search.js";
import { startSearchService, type SearchService } from "../../src/scripture/search/service.js";
import { SEARCH_SCRIPTURE_DESCRIPTION } from "../../graphs/chat/tools/search-scripture.js";
import type { ChatRequest } from "../fakes/index.js";
import { startHarness, toolResults, type Harness } from "./harness.js";

/**
 * The agent's search tool against the real index (shared Chroma of the run): what the model asks for
 * reaches the index unchanged, and the theology's canon decides whether the deuterocanon is searched.
 * The search service is the real one; `seen` only records the requests it is given.
 */
let service: SearchService;
let h: Harness;
let catholic: Harness;
const seen: SearchRequest[] = [];

beforeAll(async () => {
  const quiet = { info() {}, warn() {}, error() {} };
  const library = loadBibleLibrary();
  service = startSearchService({ dataDir: inject("indexDataDir"), chromaUrl: inject("indexChromaUrl"), library, logger: quiet });
  await service.indexed;
  const recorded = {
    search: (req: SearchRequest) => (seen.push(req), service.search.search(req)),
    keyword: (req: SearchRequest) => (seen.push(req), service.search.keyword(req)),
  };
  h = await startHarness({ search: recorded, bibles: library });
  // The real prompts: prompts/theologies/catholic.md says `canon: catholic`, default.md names none.
  catholic = h;
});
afterAll(async () => {
  await h?.close();
  await service?.stop();
});
beforeEach(() => {
  h.provider.reset();
  seen.length = 0;
});

/** The result of the model's own (scripted) call: the latest tool round, after the prefetched one. */
const toolResult = (r: ChatRequest) => toolResults(r)[0] ?? "";

function script(harness: Harness, name: string, args: unknown) {
  harness.scriptToolTurn(name, args);
}

describe("the agent's search tool", () => {
  it("when the model calls search_scripture, then its query reaches the index exactly as sent, with the request's translation", async () => {
    const query = "  Do not be anxious; cast your cares on him (1 Peter 5)  ";
    script(h, "search_scripture", { query, limit: 3 });
    await h.run("How do I stop worrying?", { skipPreflight: true, bibleId: "eng-kjv" });
    // First the service's prefetched search of the question, then the model's own, each unchanged.
    expect(seen).toEqual([
      { query: "How do I stop worrying?", bibleId: "eng-kjv", limit: 4 },
      { query, bibleId: "eng-kjv", limit: 3 },
    ]);
  });

  it("when the tool result comes back, then each chapter names its best verses and shows them numbered", async () => {
    script(h, "search_scripture", { query: "do not be anxious about anything, pray with thanksgiving" });
    await h.run("What does the Bible say about anxiety?", { skipPreflight: true });
    const calls = h.provider.chatRequests.filter((r) => (r.body.tools?.length ?? 0) > 0);
    const result = toolResult(calls[1]!);
    expect(result).toMatch(/^## Philippians 4 \(eng-web, relevance \d\.\d\d; best verses [\d, ]*\b6\b[\d, ]*\)$/m);
    expect(result).toMatch(/^6 In nothing be anxious/m);
    expect(result.length).toBeLessThanOrEqual(6_100);
  });

  it("when the provider sees the tool, then its description asks for the Bible's own words and several searches for a many-sided question", async () => {
    script(h, "search_scripture", { query: "wrath" });
    await h.run("How do I control my temper?", { skipPreflight: true });
    const tool = h.provider.chatRequests[0]!.body.tools!.find((t) => t.function.name === "search_scripture")!;
    expect(tool.function.description).toBe(SEARCH_SCRIPTURE_DESCRIPTION);
    expect(tool.function.description).toMatch(/words the Bible itself uses/);
    expect(tool.function.description).toMatch(/search more than once/);
  });

  it("when the theology's canon has the deuterocanon, then the agent's searches include it; otherwise the 66 books", async () => {
    script(catholic, "search_scripture", { query: "the angel Raphael, Tobias and the fish" });
    await catholic.run("Who is the angel Raphael?", { skipPreflight: true, theology: "catholic" });
    expect(seen.at(-1)).toMatchObject({ deuterocanon: true });
    const calls = catholic.provider.chatRequests.filter((r) => (r.body.tools?.length ?? 0) > 0);
    expect(toolResult(calls[1]!)).toMatch(/^## Tobit \d+/m);

    catholic.provider.reset();
    script(catholic, "keyword_search", { query: "Raphael" });
    await catholic.run("Where is Raphael named?", { skipPreflight: true, theology: "catholic" });
    expect(seen.at(-1)).toMatchObject({ query: "Raphael", deuterocanon: true });

    catholic.provider.reset();
    script(catholic, "search_scripture", { query: "the angel Raphael, Tobias and the fish" });
    await catholic.run("Who is the angel Raphael?", { skipPreflight: true, theology: "default" });
    expect(seen.at(-1)!.deuterocanon).toBeUndefined();
    const plain = catholic.provider.chatRequests.filter((r) => (r.body.tools?.length ?? 0) > 0);
    expect(toolResult(plain[1]!)).not.toMatch(/Tobit/);
  });
});
