import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEXT_LIMITS } from "../../src/limits.js";
import { startService, type RunningService } from "../helpers/service.js";

const MARKS = "\u0301\u0316\u0334\u0345";
const KEY = "sk-test-text-caps-41b7e2";

describe("every text is checked against its cap before any work on it", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({});
  });
  afterAll(async () => svc?.close());

  it("when a gzip body of under 1 KB inflates to a book of 60,000 combining marks, then search answers 400 invalid_parameter with param book at once", async () => {
    const body = gzipSync(JSON.stringify({ query: "love", book: `J${MARKS.repeat(60_000)}` }));
    expect(body.length).toBeLessThan(1_000);
    const started = performance.now();
    const res = await fetch(`${svc.url}/v1/scripture/search`, { method: "POST", headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" }, body: new Uint8Array(body) });
    const took = performance.now() - started;
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { type: "invalid_request_error", code: "invalid_parameter", param: "book", message: `'book' is too long: at most ${TEXT_LIMITS.bookName} characters (got 240001).` } });
    expect(took).toBeLessThan(1_000);
  });

  it.each([
    ["q", `/v1/scripture/search?q=${"a".repeat(TEXT_LIMITS.query + 1)}`],
    ["bible_id", `/v1/scripture/search?q=love&bible_id=${"x".repeat(TEXT_LIMITS.name + 1)}`],
    ["testament", `/v1/scripture/search?q=love&testament=${"x".repeat(TEXT_LIMITS.name + 1)}`],
  ])("when search's %s is over its cap, then the 400 names it", async (param, path) => {
    const res = await fetch(`${svc.url}${path}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param, message: expect.stringContaining("too long") } });
  });

  it("when a chat's book_id is over the book-name cap, then the 400 names book_id before any provider call", async () => {
    const before = svc.provider.requests.length;
    const res = await fetch(`${svc.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ messages: [{ role: "user", content: "What is grace?" }], book_id: `J${MARKS.repeat(100)}` }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: "book_id" } });
    expect(svc.provider.requests.length).toBe(before);
  });
});

describe("the study endpoints refuse over-long or cross-book references instead of cutting them", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({});
  });
  afterAll(async () => svc?.close());

  it.each([
    ["/v1/passage", "ref", `John 3:16${", 17".repeat(60)}`, "too long"],
    ["/v1/passage", "ref", "John 3:16-Romans 3:23", "from John into Romans"],
    ["/v1/topics", "q", "anger ".repeat(40), "too long"],
  ])("when %s gets %s over its cap or across books, then 400 names the parameter", async (path, param, value, says) => {
    const res = await fetch(`${svc.url}${path}?${param}=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param, message: expect.stringContaining(says) } });
  });
});
