import { AsyncLocalStorage } from "node:async_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchAnswer, SearchRequest } from "../../src/scripture/search/search.js";
import { ScriptureSearch } from "../../src/scripture/search/search.js";
import { type GenerationalSearcher, withAnswerCache } from "../../graphs/chat/search-cache.js";
import { startTestSearch, testLibrary, type TestSearch } from "../helpers/chroma.js";

/** A searcher that counts its searches and answers with the request it was asked, under a generation the test sets. */
function countingSearcher() {
  const asked: SearchRequest[] = [];
  const searcher = {
    generation: {} as object | undefined,
    up: true,
    fail: false,
    ready() {
      return this.up;
    },
    async search(req: SearchRequest): Promise<SearchAnswer> {
      asked.push(req);
      if (this.fail) throw new Error("store down");
      return { results: [{ reference: req.query, book: "John", book_id: "JHN", chapter: asked.length, text: "", similarity: 0.5, highlights: [], url: "/read/JHN/3" }], type: "semantic_hybrid", lowConfidence: false };
    },
    async keyword() {
      return { results: [] };
    },
  };
  return { searcher: searcher satisfies GenerationalSearcher, asked };
}

const req = (query: string, extra: Partial<SearchRequest> = {}): SearchRequest => ({ query, bibleId: "eng-web", limit: 4, ...extra });

describe("the chat's search answer cache (search-cache.ts)", () => {
  it("when the same request comes again within a generation, then the searcher is asked once and both get the same answer", async () => {
    const { searcher, asked } = countingSearcher();
    const cached = withAnswerCache(searcher);
    const first = await cached.search(req("forgiveness"));
    const second = await cached.search(req("forgiveness"));
    expect(asked).toHaveLength(1);
    expect(second).toBe(first);
    expect(cached.stats).toEqual({ hits: 1, misses: 1 });
  });

  it("when any field that decides the answer differs, then the searcher is asked again", async () => {
    const { searcher, asked } = countingSearcher();
    const cached = withAnswerCache(searcher);
    await cached.search(req("forgiveness"));
    await cached.search(req("Forgiveness"));
    await cached.search(req("forgiveness", { bibleId: "eng-kjv" }));
    await cached.search(req("forgiveness", { limit: 3 }));
    await cached.search(req("forgiveness", { testament: "NT" }));
    await cached.search(req("forgiveness", { book: "ROM" }));
    await cached.search(req("forgiveness", { deuterocanon: true }));
    await cached.search(req("forgiveness", { care: true }));
    expect(asked).toHaveLength(8);
  });

  it("when the generation changes (an index attached, its phrase index in), then nothing from before is served", async () => {
    const { searcher, asked } = countingSearcher();
    const cached = withAnswerCache(searcher);
    const before = await cached.search(req("grace"));
    searcher.generation = {};
    const after = await cached.search(req("grace"));
    expect(asked).toHaveLength(2);
    expect(after).not.toBe(before);
  });

  it("when the searcher is not ready or has no generation, then it is always asked and fails as it would", async () => {
    const { searcher, asked } = countingSearcher();
    const cached = withAnswerCache(searcher);
    await cached.search(req("grace"));
    searcher.up = false;
    searcher.fail = true;
    await expect(cached.search(req("grace"))).rejects.toThrow("store down");
    searcher.up = true;
    searcher.fail = false;
    searcher.generation = undefined;
    await cached.search(req("grace"));
    await cached.search(req("grace"));
    expect(asked).toHaveLength(4);
  });

  it("when a search fails, then it is not kept: the next identical request searches again", async () => {
    const { searcher, asked } = countingSearcher();
    const cached = withAnswerCache(searcher);
    searcher.fail = true;
    await expect(cached.search(req("hope"))).rejects.toThrow("store down");
    searcher.fail = false;
    await expect(cached.search(req("hope"))).resolves.toMatchObject({ results: [{ reference: "hope" }] });
    expect(asked).toHaveLength(2);
  });

  it("when more distinct requests come than it holds, then the least recently used is dropped first", async () => {
    const { searcher, asked } = countingSearcher();
    const cached = withAnswerCache(searcher, 2);
    await cached.search(req("a"));
    await cached.search(req("b"));
    await cached.search(req("a")); // a is now the most recent
    await cached.search(req("c")); // drops b
    await cached.search(req("a"));
    await cached.search(req("b"));
    expect(asked.map((r) => r.query)).toEqual(["a", "b", "c", "b"]);
  });

  it("when an answer is served, then it is frozen, so no reader can change what the next one reads", async () => {
    const { searcher } = countingSearcher();
    const answer = await withAnswerCache(searcher).search(req("peace"));
    expect(Object.isFrozen(answer)).toBe(true);
    expect(Object.isFrozen(answer.results[0])).toBe(true);
    expect(() => answer.results.push(answer.results[0]!)).toThrow(TypeError);
  });

  it("when a cached search was made inside a run's async context, then the cache does not keep that run's store alive", async () => {
    // A chat run's AsyncLocalStorage store (LangChain's run config) reaches the whole run; every promise
    // made inside the run carries it. What the cache keeps must not.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const { searcher, asked } = countingSearcher();
    const cached = withAnswerCache(searcher);
    const als = new AsyncLocalStorage<{ run: number[] }>();
    let store: { run: number[] } | undefined = { run: new Array(1000).fill(7) };
    const gone = new WeakRef(store);
    const first = await als.run(store, () => cached.search(req("mercy")));
    store = undefined;
    for (let i = 0; i < 3 && gone.deref(); i++) await new Promise((r) => setImmediate(r)), gc();
    expect(gone.deref()).toBeUndefined();
    // And the answer is still served from the cache.
    expect(await cached.search(req("mercy"))).toBe(first);
    expect(asked).toHaveLength(1);
  });
});

describe("ScriptureSearch's generation, read by the cache (real index and Chroma)", () => {
  let search: TestSearch;
  beforeAll(async () => {
    search = await startTestSearch();
  });
  afterAll(async () => {
    await search?.close();
  });

  it("when no index is attached, then there is no generation and the cache passes every search through", () => {
    expect(new ScriptureSearch(testLibrary()).generation).toBeUndefined();
  });

  it("when an index is attached and its phrase index has come in, then a generation exists and a cached answer equals a fresh search's", async () => {
    await search.search.phrasesReady;
    expect(search.search.generation).toBeDefined();
    const cached = withAnswerCache(search.search);
    const request = req("What does the Bible say about forgiving those who wrong us?");
    const fresh = await search.search.search(request);
    const first = await cached.search(request);
    const again = await cached.search(request);
    expect(again).toBe(first);
    expect(JSON.parse(JSON.stringify(first))).toEqual(JSON.parse(JSON.stringify(fresh)));
    expect(cached.stats).toEqual({ hits: 1, misses: 1 });
  });
});
