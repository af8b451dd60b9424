import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TOOL_RESULT_CHARS } from "../../graphs/chat/tools/format.js";
import { withinOneRateWindow } from "../helpers/rate-window.js";
import { startService, type RunningService } from "../helpers/service.js";

const BASE = "https://bible.example.org";
let svc: RunningService;
let client: Client;

async function connect(url: string) {
  const c = new Client({ name: "mcp-http-test", version: "1.0.0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return c;
}

async function call(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  return { text, isError: result.isError === true };
}

/** Markdown links the result carries: [label](url). */
const links = (text: string) => [...text.matchAll(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => ({ label: m[1]!, url: m[2]! }));

beforeAll(async () => {
  svc = await startService({ env: { PUBLIC_BASE_URL: BASE } });
  client = await connect(svc.url);
});
afterAll(async () => {
  await client?.close();
  await svc?.close();
});

describe("MCP over Streamable HTTP at /mcp (stateless, no key)", () => {
  it("when a client lists tools and prompts, then the six scripture tools come with descriptions, schemas and the study prompt", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["commentary", "keyword_search", "lookup_passage", "search_scripture", "topics", "word_study"]);
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(80);
      expect(t.description, t.name).toMatch(/Use it/);
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    }
    const search = tools.find((t) => t.name === "search_scripture")!;
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(["book", "deuterocanon", "limit", "query", "testament", "translation"]);
    expect(search.inputSchema.required).toEqual(["query"]);
    const lookup = tools.find((t) => t.name === "lookup_passage")!;
    expect((lookup.inputSchema.properties as Record<string, { enum?: string[] }>).translation!.enum).toEqual(["eng-web", "eng-kjv", "spa-rv1909"]);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["study_passage"]);
  });

  it("when search_scripture is called with a testament filter, then it returns New Testament chapters as absolute reader links", async () => {
    const { text, isError } = await call("search_scripture", { query: "love your enemies, pray for those who persecute you", testament: "NT", limit: 3 });
    expect(isError).toBe(false);
    const headers = [...text.matchAll(/^## \[([^\]]+)\]\(([^)]+)\)/gm)];
    expect(headers).toHaveLength(3);
    for (const [, , url] of headers) expect(url).toMatch(new RegExp(`^${BASE}/read/(MAT|MRK|LUK|JHN|ACT|ROM|1CO|2CO|GAL|EPH|PHP|COL|1TH|2TH|1TI|2TI|TIT|PHM|HEB|JAS|1PE|2PE|1JN|2JN|3JN|JUD|REV)/\\d+`));
    expect(headers.map((h) => h[1])).toEqual(expect.arrayContaining([expect.stringMatching(/^(Matthew 5|Luke 6)$/)]));
  });

  it("when search_scripture asks with deuterocanon and a book, then the deuterocanon is ranked only when asked, and a book filter holds", async () => {
    const query = "Judith cut off the head of Holofernes";
    const without = await call("search_scripture", { query, limit: 4 });
    const withDeutero = await call("search_scripture", { query, limit: 4, deuterocanon: true });
    expect(without.text).not.toMatch(/## \[Judith/);
    expect(withDeutero.text).toMatch(/## \[Judith 13\]\(https:\/\/bible\.example\.org\/read\/JDT\/13\)/);
    const romans = await call("search_scripture", { query: "grace and faith", book: "Romans", limit: 3 });
    expect([...romans.text.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]).every((r) => r!.startsWith("Romans "))).toBe(true);
  });

  it("when lookup_passage reads a verse range in the KJV, then the verses come numbered with a link that names the translation", async () => {
    const { text, isError } = await call("lookup_passage", { reference: "Romans 8:28-30", translation: "eng-kjv" });
    expect(isError).toBe(false);
    expect(text).toMatch(/^\[Romans 8:28-30\]\(https:\/\/bible\.example\.org\/read\/ROM\/8\?verse=28-30&bible_id=eng-kjv\) \(King James Version, eng-kjv\):/);
    expect(text).toContain("28 And we know that all things work together for good");
    expect(text).toMatch(/^30 /m);
    expect(text).not.toMatch(/^31 /m);
  });

  it("when keyword_search looks for a phrase, then each verse that has it comes with its link", async () => {
    const { text, isError } = await call("keyword_search", { query: "mustard seed", limit: 5 });
    expect(isError).toBe(false);
    const lines = text.split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(line).toMatch(/^\[[^\]]+\]\(https:\/\/bible\.example\.org\/read\/[A-Z0-9]{3}\/\d+\?verse=[\d-]+\): /);
    expect(lines.filter((l) => /mustard/i.test(l)).length).toBeGreaterThanOrEqual(2);
  });

  it("when word_study asks for love in John 21:15, then both Greek words and their Strong's entries come back", async () => {
    const { text, isError } = await call("word_study", { reference: "John 21:15", word: "love" });
    expect(isError).toBe(false);
    expect(text).toMatch(/G25\b/);
    expect(text).toMatch(/G5368\b/);
    expect(text).toMatch(/agap/i);
    expect(links(text).length).toBeGreaterThan(3);
    const byNumber = await call("word_study", { strong: "H7965" });
    expect(byNumber.text).toMatch(/^H7965 .*\(Hebrew; shâlôm/m);
  });

  it("when commentary is asked on a Psalm and on John, then Spurgeon answers the Psalm and Matthew Henry the Gospel, each named", async () => {
    const psalm = await call("commentary", { reference: "Psalm 23:1" });
    expect(psalm.text).toMatch(/^The Treasury of David by Charles H\. Spurgeon/);
    expect(psalm.text).toContain(`(${BASE}/read/PSA/23?verse=1)`);
    const john = await call("commentary", { reference: "John 3:16" });
    expect(john.text).toMatch(/Matthew Henry/);
  });

  it("when topics is asked for a topic and for a verse, then Nave's references come as reader links", async () => {
    const anger = await call("topics", { topic: "anger" });
    expect(anger.isError).toBe(false);
    expect(anger.text).toMatch(/^Nave's Topical Bible/);
    expect(anger.text).toMatch(/^Anger \(\d+ references/m);
    expect(links(anger.text).length).toBeGreaterThan(10);
    const verse = await call("topics", { reference: "Proverbs 15:1" });
    expect(verse.text).toMatch(/Anger/);
  });

  it("when arguments are bad, then each comes back as a tool error with a clear message, and the server keeps serving", async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["search_scripture", { query: "" }, /query/],
      ["search_scripture", { query: "faith", limit: 99 }, /limit/],
      ["search_scripture", { query: "faith", testament: "Apocrypha" }, /testament/],
      ["search_scripture", { query: "faith", book: "Hezekiah" }, /"Hezekiah" is not a book of the Bible/],
      ["lookup_passage", { reference: "Johnny 99:1" }, /is not a Bible reference/],
      ["lookup_passage", { reference: "John 3:16", translation: "nasb" }, /translation/],
      ["lookup_passage", { reference: "John 22:5" }, /"John 22:5" is not a Bible reference/],
      ["word_study", { strong: "Z99" }, /not a Strong's number/],
      ["word_study", {}, /Give a reference and an English word/],
      ["commentary", { reference: "John 3:16", commentary: "tdavid" }, /does not cover John/],
      ["topics", {}, /Give a topic/],
      ["lookup_passage", { reference: 316 }, /reference/],
    ];
    for (const [name, args, message] of cases) {
      const { text, isError } = await call(name, args);
      expect(isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text, `${name} ${JSON.stringify(args)}`).toMatch(message);
    }
    const unknown = (await client.callTool({ name: "delete_everything", arguments: {} })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect((await call("lookup_passage", { reference: "John 11:35" })).text).toContain("Jesus wept");
  });

  it("when a result would be large (all of Psalm 119, 25 keyword verses), then it is bounded with a note saying what was left out", async () => {
    const psalm = await call("lookup_passage", { reference: "Psalm 119" });
    expect(psalm.isError).toBe(false);
    expect(psalm.text.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS + 100);
    expect(psalm.text).toMatch(/\[\d+ more verses left out; look up a narrower range to read them\]|\[more results left out to keep this short\]/);
    expect(psalm.text).not.toMatch(/^176 /m);
    const search = await call("search_scripture", { query: "the law of the Lord is perfect", limit: 8 });
    expect(search.text.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS + 100);
    // Eight chapters shown at their matched verses may fit the bound; when they do not, the note says so.
    const shown = search.text.match(/^## /gm)?.length ?? 0;
    if (shown < 8) expect(search.text).toContain("[more results left out to keep this short]");
    else expect(shown).toBe(8);
    // keyword_search returns single verses (issue 27): twenty-five may fit the bound; when they do not, the note says so.
    const verses = await call("keyword_search", { query: "the Lord", limit: 25 });
    expect(verses.text.length).toBeLessThanOrEqual(MAX_TOOL_RESULT_CHARS + 100);
    const listed = verses.text.match(/^\[[^\]]+ \d+:\d+\]/gm)?.length ?? 0;
    if (listed < 25) expect(verses.text).toContain("[more results left out to keep this short]");
    else expect(listed).toBe(25);
  });

  it("when the study prompt is fetched, then it holds the passage, a commentary and the original words; a bad reference is a JSON-RPC error", async () => {
    const prompt = await client.getPrompt({ name: "study_passage", arguments: { reference: "John 21:15" } });
    const text = prompt.messages.map((m) => (m.content.type === "text" ? m.content.text : "")).join("\n");
    expect(text).toMatch(/## Passage\n\[John 21:15\]/);
    expect(text).toContain("Simon, son of Jonah, do you love me");
    expect(text).toMatch(/## Commentary\n.*Matthew Henry/);
    expect(text).toMatch(/## Original words\n[\s\S]*G\d+/);
    await expect(client.getPrompt({ name: "study_passage", arguments: { reference: "not a verse" } })).rejects.toThrow(/is not a Bible reference/);
  });

  it("when GET or DELETE reach /mcp, then 405 with a JSON-RPC error, as a stateless server answers", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${svc.url}/mcp`, { method, headers: { accept: "text/event-stream" } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, message: expect.stringMatching(/Method not allowed/) }, id: null });
    }
  });

  it("when the body is not JSON or over 1 MB, then the status says so in a JSON-RPC error", async () => {
    const post = (body: string) =>
      fetch(`${svc.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body });
    const bad = await post("{not json");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    const big = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(1_100_000) } }));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, data: { code: "request_too_large" } } });
  });
});

describe("MCP and the per-IP rate limit", () => {
  let limited: RunningService;
  beforeAll(async () => {
    limited = await startService({ env: { RATE_LIMIT_PER_MINUTE: "4" } });
  });
  afterAll(() => limited?.close());

  it("when a client goes over the key-less limit, then /mcp answers 429 with Retry-After in JSON-RPC's shape and the client sees it", async () => {
    // The client's own requests (initialize, notifications/initialized, its GET for a stream) count too.
    await withinOneRateWindow();
    const c = await connect(limited.url);
    let served = 0;
    let refused: unknown;
    try {
      for (let i = 0; i < 5 && refused === undefined; i++) {
        await c.callTool({ name: "lookup_passage", arguments: { reference: "John 3:16" } }).then(
          () => served++,
          (err: unknown) => (refused = err),
        );
      }
    } finally {
      await c.close();
    }
    expect(served).toBeGreaterThanOrEqual(1);
    expect(served).toBeLessThanOrEqual(2);
    expect(String(refused)).toMatch(/limit is 4 a minute/);
    const res = await fetch(`${limited.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, message: expect.stringMatching(/limit is 4 a minute/), data: { code: "rate_limited" } } });
  });
});
