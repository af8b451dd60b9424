import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { searchRouter } from "../../src/http/search/route.js";
import { SIMILARITY_FLOOR } from "../../src/scripture/search/search.js";
import { CARE_AVOID } from "../../src/scripture/search/concepts.js";
import { createLogger } from "../../src/logger.js";
import { startTestSearch, type TestSearch } from "../helpers/chroma.js";
import { listen, type Listening } from "../helpers/listen.js";

let svc: TestSearch;
let srv: Listening;

beforeAll(async () => {
  svc = await startTestSearch();
  const app = createApp({
    config: loadConfig({}),
    logger: createLogger("silent", new Writable({ write: (_c, _e, cb) => cb() })),
    readiness: svc.readiness,
    listings: { models: [], modelsCreated: 0, translations: () => [], theologies: () => [], profiles: () => [] },
    routers: [searchRouter(svc.search, () => svc.library.ids())],
  });
  srv = await listen(app);
});
afterAll(async () => {
  await srv?.close();
  await svc?.close();
});

const get = async (params: Record<string, string>) => {
  const res = await fetch(`${srv.url}/v1/scripture/search?${new URLSearchParams(params)}`);
  return { status: res.status, body: await res.json() };
};
const post = async (body: unknown) => {
  const res = await fetch(`${srv.url}/v1/scripture/search`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};

type Item = { reference: string; book: string; book_id: string; chapter: number; text: string; similarity: number };

function expectRanked(results: Item[]) {
  for (const r of results) expect(r.similarity).toBeGreaterThanOrEqual(0), expect(r.similarity).toBeLessThanOrEqual(1);
  const sims = results.map((r) => r.similarity);
  expect(sims).toEqual([...sims].sort((a, b) => b - a));
}

describe("scripture search over HTTP on a real embedded Chroma", () => {
  it("when a story is asked by title, then its chapter comes first with the full chapter text", async () => {
    const { status, body } = await get({ q: "the Good Samaritan" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ query: "the Good Samaritan", bible_id: "eng-web", type: "semantic_hybrid", total: 5 });
    expect(body.results[0]).toMatchObject({ reference: "Luke 10", book: "Luke", book_id: "LUK", chapter: 10 });
    expect(body.results[0].text).toContain("Samaritan");
    expect(body.results[0].text.length).toBeGreaterThan(3000);
    expect(body.results[0].similarity).toBeLessThan(1);
    expectRanked(body.results);
  });

  it("when a paraphrase is posted, then the story is found by meaning and limit is honoured", async () => {
    const { status, body } = await post({ query: "Jesus stops a storm while crossing the lake with his disciples", limit: 3 });
    expect(status).toBe(200);
    expect(body.total).toBe(body.results.length);
    expect(body.results.length).toBeLessThanOrEqual(3);
    expect(body.results.map((r: Item) => `${r.book_id} ${r.chapter}`)).toEqual(expect.arrayContaining([expect.stringMatching(/^(MAT 8|LUK 8)$/)]));
  });

  it("when the query is a passage reference, then that chapter with similarity 1.0 and type direct_passage", async () => {
    for (const q of ["John 3:16", "Gen 1", "1 Cor 13:4-7"]) {
      const { body } = await get({ q });
      expect(body.type).toBe("direct_passage");
      expect(body.results).toHaveLength(1);
      expect(body.results[0].similarity).toBe(1);
    }
    const { body } = await get({ q: "Juan 3:16", bible_id: "spa-rv1909" });
    expect(body.results[0]).toMatchObject({ book_id: "JHN", chapter: 3, book: "Juan", reference: "Juan 3" });
    expect(body.results[0].text).toContain("Porque de tal manera amó Dios al mundo");
  });

  it("when bible_id is eng-kjv, then ranking is unchanged and the text is the KJV's", async () => {
    const web = await get({ q: "God so loved the world that he gave his Son" });
    const kjv = await get({ q: "God so loved the world that he gave his Son", bible_id: "eng-kjv" });
    expect(kjv.body.bible_id).toBe("eng-kjv");
    expect(kjv.body.results.map((r: Item) => r.reference)).toEqual(web.body.results.map((r: Item) => r.reference));
    const john3 = kjv.body.results.find((r: Item) => r.book_id === "JHN" && r.chapter === 3);
    expect(john3.text).toContain("only begotten Son");
  });

  it("when filtered by testament or book, then every result is inside the filter", async () => {
    for (const testament of ["Old Testament", "old testament", "OT"]) {
      const { status, body } = await get({ q: "love and mercy", testament, limit: "10" });
      expect(status).toBe(200);
      expect(body.results.length).toBeGreaterThan(0);
      for (const r of body.results as Item[]) expect(["GEN", "EXO", "PSA", "ISA"]).toContain(r.book_id);
    }
    const nt = await post({ query: "love and mercy", testament: "New Testament" });
    for (const r of nt.body.results as Item[]) expect(["MAT", "LUK", "JHN", "ACT", "ROM", "1CO", "EPH"]).toContain(r.book_id);
    for (const book of ["Psalms", "PSA", "salmos"]) {
      const { body } = await get({ q: "shepherd", book });
      expect(body.results.length).toBeGreaterThan(0);
      expect(new Set(body.results.map((r: Item) => r.book_id))).toEqual(new Set(["PSA"]));
      expectRanked(body.results);
    }
  });

  it("when a direct passage lies outside the filters, then no result rather than a contradiction", async () => {
    const { status, body } = await get({ q: "John 3:16", testament: "Old Testament" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ type: "direct_passage", results: [], total: 0 });
  });

  it.each([
    [{}, "invalid_request", "q"],
    [{ q: "   " }, "invalid_request", "q"],
    [{ q: "x".repeat(1001) }, "invalid_parameter", "q"],
    [{ q: "love", limit: "0" }, "invalid_parameter", "limit"],
    [{ q: "love", limit: "21" }, "invalid_parameter", "limit"],
    [{ q: "love", limit: "2.5" }, "invalid_parameter", "limit"],
    [{ q: "love", limit: "five" }, "invalid_parameter", "limit"],
    [{ q: "love", testament: "Middle Testament" }, "invalid_parameter", "testament"],
    [{ q: "love", book: "Hezekiah" }, "invalid_parameter", "book"],
    [{ q: "love", bible_id: "eng-niv" }, "invalid_parameter", "bible_id"],
  ])("when GET has %j, then 400 %s", async (params, code, param) => {
    const { status, body } = await get(params as Record<string, string>);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ type: "invalid_request_error", code, param });
  });

  it("when bible_id is unknown, then the message lists the available ids", async () => {
    const { body } = await post({ query: "love", bible_id: "xx" });
    expect(body.error.message).toContain("eng-web, eng-kjv, spa-rv1909");
  });

  it("when the POST body is not an object or query is not a string, then 400 invalid_request", async () => {
    expect((await post(["love"])).body.error.code).toBe("invalid_request");
    expect((await post({ query: 42 })).body.error.code).toBe("invalid_request");
    expect((await post({ limit: 3 })).body.error).toMatchObject({ code: "invalid_request", param: "query" });
    expect((await post({ query: "love", limit: "3" })).status).toBe(200);
  });

  it("when GET sends query instead of q, or POST sends q instead of query, then each searches the same", async () => {
    const byQ = await get({ q: "the good samaritan", limit: "3" });
    const byQuery = await get({ query: "the good samaritan", limit: "3" });
    const posted = await post({ q: "the good samaritan", limit: 3 });
    expect(byQ.status).toBe(200);
    for (const other of [byQuery, posted]) {
      expect(other.status).toBe(200);
      expect(other.body.results.map((r: Item) => r.reference)).toEqual(byQ.body.results.map((r: Item) => r.reference));
      expect(other.body.query).toBe("the good samaritan");
    }
    // Both names with the same text are fine; with different texts the request is ambiguous.
    expect((await get({ q: "love", query: "love" })).status).toBe(200);
    expect((await get({ q: "love", query: "hope" })).body.error).toMatchObject({ code: "invalid_parameter", param: "query" });
    expect((await post({ query: "love", q: "hope" })).body.error).toMatchObject({ code: "invalid_parameter", param: "q" });
    // An empty alias does not hide the other name's text; both empty is the usual missing-text error.
    expect((await get({ q: "", query: "love" })).status).toBe(200);
    expect((await get({ q: "", query: " " })).body.error).toMatchObject({ code: "invalid_request", param: "q" });
    expect((await post({ q: 42 })).body.error).toMatchObject({ code: "invalid_request", param: "q" });
  });

  it("when the method is wrong, then 405 with Allow", async () => {
    const res = await fetch(`${srv.url}/v1/scripture/search`, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("POST");
  });

  it("when Chroma dies, then search answers 503 and /readyz's body says search is down, and search recovers when it is back", async () => {
    const searchState = async () => {
      const res = await fetch(`${srv.url}/readyz`);
      return { status: res.status, search: ((await res.json()) as { search: { ready: boolean; chroma: string } }).search };
    };
    expect(await searchState()).toMatchObject({ search: { ready: true } });
    const pid = svc.embedded()!.pid()!;
    process.kill(pid, "SIGKILL");
    await new Promise((r) => setTimeout(r, 100));
    const down = await get({ q: "forgiveness of sins" });
    expect(down.status).toBe(503);
    expect(down.body.error).toMatchObject({ type: "server_error", code: "search_unavailable" });
    expect(await searchState()).toMatchObject({ search: { ready: false, chroma: "down" } });
    // Direct passages need no vector store.
    expect((await get({ q: "John 3:16" })).status).toBe(200);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !(await searchState()).search.ready) await new Promise((r) => setTimeout(r, 200));
    expect((await searchState()).search.ready).toBe(true);
    expect((await get({ q: "forgiveness of sins" })).status).toBe(200);
    expect(svc.embedded()!.pid()).not.toBe(pid);
  });
});

describe("search results: typos still find, gibberish says so, highlights, reader url, deuterocanon", () => {
  it("when a Spanish question names a concept (immigrants), then results come back and the Bible's word for it is highlighted", async () => {
    const { status, body } = await get({ q: "¿cómo debemos tratar a los inmigrantes?" });
    expect(status).toBe(200);
    expect(body.total).toBeGreaterThan(0);
    const keys = body.results.map((r: Item) => `${r.book_id} ${r.chapter}`);
    expect(keys.some((k: string) => ["EXO 22", "EXO 23", "MAT 25"].includes(k))).toBe(true);
    const texts = body.results.flatMap((r: { highlights: { text: string }[] }) => r.highlights.map((h) => h.text)).join(" ");
    expect(texts).toMatch(/foreigner|stranger|alien/i);
  });

  it.each(["forgivness", "samaritn", "forgivnes"])("when a typo %j misses the index, then the list is still not empty", async (q) => {
    const { status, body } = await get({ q });
    expect(status).toBe(200);
    expect(body.total).toBeGreaterThan(0);
    expectRanked(body.results);
  });

  it("when the question matches nothing (\"asdf qwerty\"), then no results and low_confidence says so, also within a filter; a real question is not low confidence", async () => {
    for (const params of [{ q: "asdf qwerty" }, { q: "xyzzy qwerty", book: "Romans" }, { q: "jfkdls fjdk" }] as Record<string, string>[]) {
      const { status, body } = await get(params);
      expect(status).toBe(200);
      expect(body).toMatchObject({ results: [], total: 0, type: "semantic_hybrid", low_confidence: true });
    }
    const real = await get({ q: "the Good Samaritan", limit: "20" });
    expect(real.body.low_confidence).toBe(false);
    for (const r of real.body.results) expect(r.similarity).toBeGreaterThanOrEqual(SIMILARITY_FLOOR);
    expect((await get({ q: "John 3:16" })).body.low_confidence).toBe(false);
  });

  it("when a typo misses the index, then words that begin alike find the passage", async () => {
    // "forgivness" itself is a listed misspelling of the concept (concepts-data.ts); this one is not.
    const { body } = await get({ q: "forgivnes", limit: "10" });
    expect(body.results[0].similarity).toBeGreaterThanOrEqual(SIMILARITY_FLOOR);
    expect(body.low_confidence).toBe(true); // a guess from the word's beginning
    expect(body.results[0].highlights[0].text).toMatch(/forgiv/i);
  });

  it("when a chapter is found, then highlights name its best verses in the requested translation and url opens it in the reader", async () => {
    const web = await get({ q: "love is patient and kind, love does not envy" });
    const first = web.body.results[0];
    expect(first).toMatchObject({ book_id: "1CO", chapter: 13, url: "/read/1CO/13" });
    expect(first.highlights.length).toBeGreaterThan(0);
    expect(first.highlights.length).toBeLessThanOrEqual(3);
    expect(first.highlights.map((h: { verse: number }) => h.verse)).toContain(4);
    expect(first.highlights.find((h: { verse: number }) => h.verse === 4).text).toContain("Love is patient");
    for (const h of first.highlights) expect(h.url).toBe(`/read/1CO/13?verse=${h.verse}`);
    const kjv = await get({ q: "love is patient and kind, love does not envy", bible_id: "eng-kjv" });
    expect(kjv.body.results[0].url).toBe("/read/1CO/13?bible_id=eng-kjv");
    expect(kjv.body.results[0].highlights.find((h: { verse: number }) => h.verse === 4).text).toMatch(/Charity suffereth long/);
    expect(kjv.body.results[0].highlights.find((h: { verse: number }) => h.verse === 4).url).toBe("/read/1CO/13?verse=4&bible_id=eng-kjv");
  });

  it("when the query is a verse reference, then its verses are the highlights; a whole chapter has none", async () => {
    const verse = await get({ q: "John 3:16" });
    expect(verse.body.results[0]).toMatchObject({ url: "/read/JHN/3", highlights: [{ verse: 16 }] });
    expect(verse.body.results[0].highlights[0].text).toContain("For God so loved the world");
    expect((await get({ q: "Genesis 1" })).body.results[0].highlights).toEqual([]);
  });

  it("when deuterocanon is not asked for, then Tobit never ranks; with deuterocanon=true (query or body) it does", async () => {
    const q = "the angel Raphael, Tobias and the fish";
    const plain = await get({ q, limit: "10" });
    expect(plain.body.results.map((r: Item) => r.book_id)).not.toContain("TOB");
    const withQuery = await get({ q, deuterocanon: "true" });
    expect(withQuery.body.results[0].book_id).toBe("TOB");
    const withBody = await post({ query: q, deuterocanon: true });
    expect(withBody.body.results[0]).toMatchObject({ book_id: "TOB", book: "Tobit", url: expect.stringMatching(/^\/read\/TOB\/\d+$/) });
    const ot = await get({ q, deuterocanon: "1", testament: "OT" });
    expect(ot.body.results[0].book_id).toBe("TOB");
    const nt = await get({ q, deuterocanon: "true", testament: "NT" });
    expect(nt.body.results.map((r: Item) => r.book_id)).not.toContain("TOB");
  });

  it("when a translation lacks the deuterocanon, then its chapters are read from eng-web and the url says so", async () => {
    const { body } = await get({ q: "the angel Raphael, Tobias and the fish", deuterocanon: "true", bible_id: "eng-kjv" });
    expect(body.results[0].book_id).toBe("TOB");
    expect(body.results[0].text.length).toBeGreaterThan(100);
    expect(body.results[0].url).not.toContain("bible_id");
  });

  it("when deuterocanon is not a boolean, then 400 invalid_parameter", async () => {
    const bad = await get({ q: "wisdom", deuterocanon: "maybe" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_parameter", param: "deuterocanon" });
    expect((await post({ query: "wisdom", deuterocanon: 3 })).body.error.param).toBe("deuterocanon");
    expect((await get({ q: "wisdom", deuterocanon: "false" })).status).toBe(200);
  });
});

describe("care search (issue 19): people in distress find what a pastor would open, not texts that wound them", () => {
  const chapters = async (q: string) => {
    const { status, body } = await get({ q, limit: "10" });
    expect(status).toBe(200);
    return (body.results as Item[]).map((r) => `${r.book_id} ${r.chapter}`);
  };
  // Within this test index (GEN EXO PSA ISA MAT LUK JHN ACT ROM 1CO EPH, Tobit).
  const ABUSE_FIT = ["PSA 55", "PSA 11", "PSA 10", "PSA 140", "PSA 9", "EXO 3"];
  const ABUSE_HARM = ["EPH 5", "1CO 7", "GEN 3", "MAT 5", "ROM 13", "MAT 19"];
  const DOOM = ["MAT 24", "MAT 25", "LUK 16", "LUK 21", "MAT 10", "MAT 13"];
  it.each([
    ["my husband hits me", ABUSE_FIT, ABUSE_HARM],
    ["mi esposo me pega", ABUSE_FIT, ABUSE_HARM],
    ["is it a sin to leave a husband who beats me", ABUSE_FIT, ABUSE_HARM],
    ["domestic violence", ABUSE_FIT, ABUSE_HARM],
    ["I want to end it all", ["PSA 88", "PSA 42", "PSA 34", "PSA 40", "PSA 139", "ACT 16"], [...DOOM, "MAT 27", "1CO 3"]],
    ["my son killed himself, is he in hell?", ["ROM 8", "PSA 139", "JHN 11", "PSA 34"], [...DOOM, "MAT 27", "1CO 3"]],
    ["my dad hurts me", ["PSA 27", "MAT 18", "PSA 68", "PSA 10", "ISA 49", "PSA 9", "PSA 34"], ["EXO 20", "EPH 6", "MAT 6"]],
    ["sexual abuse by a pastor", ["MAT 18", "MAT 23", "PSA 34", "ISA 61", "PSA 10", "PSA 55"], ["1CO 6", "1CO 7", "EPH 5", "MAT 5", "GEN 39"]],
  ])("when the message is %j, then a fitting chapter is in the top 5 and no wounding one in the top 3", async (q, fit, harm) => {
    const found = await chapters(q);
    expect(found.slice(0, 5).filter((c) => fit.includes(c)), found.join(", ")).not.toEqual([]);
    expect(found.slice(0, 3).filter((c) => harm.includes(c)), found.join(", ")).toEqual([]);
  });

  it.each([
    ["is hell real", ["MAT 25", "LUK 16", "MAT 10", "MAT 13"]],
    ["¿existe el infierno?", ["MAT 25", "LUK 16", "MAT 10", "MAT 13"]],
    ["should a wife submit to her husband", ["EPH 5"]],
    ["what does the bible say about submission", ["EPH 5"]],
    ["signs of the end times", ["MAT 24", "LUK 21"]],
  ])("when the plain question is %j, then the texts a care message avoids are still found in the top 3", async (q, want) => {
    const found = await chapters(q);
    expect(found.slice(0, 3).filter((c) => want.includes(c)), found.join(", ")).not.toEqual([]);
  });
});

describe("care-safe search (the chat's care decision, SearchRequest.care)", () => {
  const avoided = new Set(CARE_AVOID.map((a) => `${a.book} ${a.chapter}`));
  it.each(["is hell real", "should a wife submit to her husband", "signs of the end times"])(
    "when %j is searched for a person the chat found in distress, then no chapter any care concept avoids is in the top 3, though it is without care",
    async (query) => {
      const top3 = async (care: boolean) =>
        (await svc.search.search({ query, bibleId: "eng-web", limit: 10, ...(care ? { care } : {}) })).results.slice(0, 3).map((r) => `${r.book_id} ${r.chapter}`);
      const plain = await top3(false);
      expect(plain.filter((c) => avoided.has(c)), plain.join(", ")).not.toEqual([]);
      const cared = await top3(true);
      expect(cared.filter((c) => avoided.has(c)), cared.join(", ")).toEqual([]);
    },
  );
});

describe("care search, third pass (issue 28)", () => {
  // Words of threat, violence and judgment, as a reader would spot them (the search's own list is not imported).
  const THREAT = /\b(kill\w*|slay|slew|slain|destroy\w*|wrath|curse\w*|vengeance|sword|perish\w*|and more also)\b/i;
  it.each(["I want to end my life", "i took all my pills", "my husband says if i leave he will kill me", "the voices tell me to cut the demons out", "since the baby came i think she would be better off without me"])(
    "when %j is searched for a person in distress, then no highlight quotes a threat, violence or judgment",
    async (query) => {
      const { results } = await svc.search.search({ query, bibleId: "eng-web", limit: 8, care: true });
      expect(results.length).toBeGreaterThan(0);
      const wounding = results.flatMap((r) => r.highlights.filter((h) => THREAT.test(h.text)).map((h) => `${r.book_id} ${r.chapter}:${h.verse} ${h.text}`));
      expect(wounding).toEqual([]);
    },
  );

  it.each([
    ["the voices tell me to cut the demons out", ["EPH 6", "MAT 17", "MRK 16", "ACT 19", "MAT 5", "MRK 9", "MAT 18"]],
    ["my husband says if i leave he will kill me", ["1CO 7", "EPH 5", "1PE 3"]],
    ["since the baby came i think she would be better off without me", ["PSA 58", "PSA 137"]],
    ["they took my passport and make me work", ["EPH 6", "COL 3", "1PE 2"]],
  ] as const)("when %j is searched, even without the chat's care decision, then no chapter that wounds that person is in the top 3", async (query, wounds) => {
    const top3 = (await svc.search.search({ query, bibleId: "eng-web", limit: 10 })).results.slice(0, 3).map((r) => `${r.book_id} ${r.chapter}`);
    expect(top3.filter((c) => (wounds as readonly string[]).includes(c)), top3.join(", ")).toEqual([]);
  });
});

describe("story misses a reader notices (issue 22)", () => {
  const GENEALOGIES = ["GEN 5", "GEN 10", "GEN 11", "GEN 36", "GEN 46", "EXO 6", "MAT 1", "LUK 3"];
  it("when the question is only a story's name (\"the prodigal son\"), then the story comes first and what it teaches follows, not genealogies sharing the word 'son'", async () => {
    const { body } = await get({ q: "the prodigal son", limit: "5" });
    const found = (body.results as Item[]).map((r) => `${r.book_id} ${r.chapter}`);
    expect(found[0]).toBe("LUK 15");
    expect(found.filter((c) => GENEALOGIES.includes(c)), found.join(", ")).toEqual([]);
  });

  it("when the Good Samaritan is told in other words (\"the man who helped a beaten traveler on the road\"), then Luke 10 comes first", async () => {
    for (const q of ["the man who helped a beaten traveler on the road", "the man who fell among robbers"]) {
      const { body } = await get({ q });
      expect(body.results[0].book_id + " " + body.results[0].chapter, q).toBe("LUK 10");
    }
  });
});

// The test index holds TEST_BOOKS only (test/helpers/chroma.ts): every case has passages among them.
describe("questions in a reader's own words that named nothing (session 25)", () => {
  const top = async (q: string, n: number) => ((await get({ q, limit: String(n) })).body.results as Item[]).map((r) => `${r.book_id} ${r.chapter}`);

  it("when Jesus' birth is asked about with the verb (\"where was Jesus born?\"), then the nativity comes first, not being born again", async () => {
    for (const q of ["where was Jesus born?", "what happened when Jesus was born"]) {
      const found = await top(q, 5);
      const nativity = ["LUK 2", "MAT 1", "MAT 2"];
      expect(found.slice(0, 2).filter((c) => nativity.includes(c)), `${q}: ${found.join(", ")}`).toHaveLength(2);
    }
  });

  it("when Jesus' death is asked about as an event (\"how was Jesus killed\"), then a crucifixion account comes first", async () => {
    const found = await top("how was Jesus killed", 5);
    expect(["MAT 27", "MRK 15", "LUK 23", "JHN 19"], found.join(", ")).toContain(found[0]);
  });

  it.each([
    ["when Jesus ascended into heaven", ["LUK 24", "ACT 1"]],
    ["how Paul became a Christian", ["ACT 9", "ACT 22", "ACT 26"]],
    ["which disciple betrayed Jesus", ["MAT 26", "MAT 27"]],
    ["where did Jesus grow up", ["LUK 2"]],
    ["did Jesus have any brothers?", ["MAT 13", "JHN 7"]],
    ["what Jesus wrote on the ground", ["JHN 8"]],
    ["why did God choose Abraham", ["GEN 12"]],
  ] as const)("when an event is asked about with its verb (%j), then its account comes first", async (q, accounts) => {
    const found = await top(q, 5);
    expect(accounts as readonly string[], found.join(", ")).toContain(found[0]);
  });

  it("when the loss of a parent is searched, then grief's comfort comes first, not the command to honour parents", async () => {
    const found = await top("coping with losing my mother", 5);
    expect(["1TH 4", "JHN 11", "PSA 23", "REV 21", "PSA 34", "2CO 1", "MAT 5", "ISA 25"], found.join(", ")).toContain(found[0]);
    expect(found.slice(0, 3)).not.toContain("EPH 6");
  });

  it.each([
    ["paying my workers fair wages", ["JAS 5", "DEU 24", "LEV 19", "1TI 5", "JER 22", "MAL 3", "MAT 20", "LUK 10", "COL 4"]],
    ["prayer for safe travels", ["PSA 121", "PSA 91", "JAS 4", "GEN 28", "PSA 139", "NUM 6", "EXO 33", "PRO 3"]],
    ["my mother in law", ["RUT 1", "EXO 18", "GEN 2", "RUT 2", "RUT 3", "MAT 8", "MIC 7", "EPH 5"]],
  ] as const)("when a topic the concept table added is searched in other words (%j), then one of its passages is in the top 3", async (q, passages) => {
    const found = await top(q, 5);
    expect(found.slice(0, 3).filter((c) => (passages as readonly string[]).includes(c)).length, found.join(", ")).toBeGreaterThanOrEqual(1);
  });
});
