import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../helpers/service.js";

/**
 * A key a caller puts anywhere in a request (the path, the query, X-Request-Id, any other header, the
 * Authorization header of a route that takes none) never reaches a log line, nor comes back in an id or
 * an error message. The run-wide capture (capture-setup.ts) scans every log line for these keys too.
 */
// As long as real keys are (OpenAI's project keys run past 100 characters, Groq's are 56).
const KEY = "sk-proj-keysinrequests0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH";
const GROQ = "gsk_keysinrequestsABCDEFGHIJKLMNOP0123456789abcdefghijklm";

describe("keys anywhere in a request stay out of the logs", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ logLevel: "debug", env: { PROVIDER_GROQ_BASE_URL: "http://127.0.0.1:9/v1", PROVIDER_GROQ_KEY_PREFIXES: "gsk_" } });
  });
  afterAll(async () => svc?.close());

  const logged = () => svc.logs.join("");

  it.each([
    ["in the path", (url: string) => fetch(`${url}/v1/${KEY}/chat/completions`, { method: "POST" })],
    ["in the path of a model lookup", (url: string) => fetch(`${url}/v1/models/${KEY}`)],
    ["in the query", (url: string) => fetch(`${url}/v1/scripture/search?q=love&key=${KEY}`)],
    ["in X-Request-Id", (url: string) => fetch(`${url}/v1/models`, { headers: { "X-Request-Id": KEY } })],
    ["in another header", (url: string) => fetch(`${url}/v1/models`, { headers: { "X-Api-Key": KEY, Cookie: `k=${KEY}` } })],
    ["as a bearer on a route that takes no key", (url: string) => fetch(`${url}/v1/nowhere/${KEY.slice(3)}`, { headers: { Authorization: `Bearer ${KEY}` } })],
    ["with a configured provider's prefix, in the path", (url: string) => fetch(`${url}/v1/${GROQ}`)],
    ["in a path segment that is not valid percent-encoding", (url: string) => fetch(`${url}/v1/lexicon/${KEY}%ZZ`, { headers: { Authorization: `Bearer ${KEY}` } })],
  ])("when a key is %s, then no log line, id or message holds it", async (_where, send) => {
    const res = await send(svc.url);
    const body = await res.text();
    expect(res.headers.get("x-request-id")).not.toContain(KEY);
    expect(body).not.toContain(KEY);
    expect(body).not.toContain(KEY.slice(3));
    expect(body).not.toContain(GROQ);
    await new Promise((r) => setTimeout(r, 20));
    expect(logged()).not.toContain(KEY.slice(3));
    expect(logged()).not.toContain(GROQ);
  });

  const bearer = { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" };
  const chat = (url: string, body: object, path = "/v1/chat/completions") => fetch(`${url}${path}`, { method: "POST", headers: bearer, body: JSON.stringify(body) });
  const ask = [{ role: "user", content: "Who was Ruth?" }];
  it.each([
    ["a Strong's number", (url: string) => fetch(`${url}/v1/lexicon/${KEY}`, { headers: bearer })],
    ["a topic", (url: string) => fetch(`${url}/v1/topics/${KEY}`, { headers: bearer })],
    ["a commentary", (url: string) => fetch(`${url}/v1/commentary/${KEY}/JHN/3`, { headers: bearer })],
    ["a passage reference", (url: string) => fetch(`${url}/v1/passage?ref=${KEY}`, { headers: bearer })],
    ["a commentary's book", (url: string) => fetch(`${url}/v1/commentary/mhcc/${KEY}/1`, { headers: bearer })],
    ["a chat's theology", (url: string) => chat(url, { messages: ask, theology: KEY })],
    ["a chat message's role", (url: string) => chat(url, { messages: [{ role: KEY, content: "Who was Ruth?" }] })],
    ["a response's theology", (url: string) => chat(url, { input: "Who was Ruth?", theology: KEY }, "/v1/responses")],
    ["a reader page's book", (url: string) => fetch(`${url}/read/${KEY}/1`, { headers: { ...bearer, Accept: "text/html" } })],
    ["a lexicon page's entry", (url: string) => fetch(`${url}/lexicon/${KEY}`, { headers: { ...bearer, Accept: "text/html" } })],
  ])("when the caller sends their key as %s, then the error that quotes it shows it redacted", async (_what, send) => {
    const res = await send(svc.url);
    const body = await res.text();
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(body).not.toContain(KEY.slice(3, 40));
    expect(body).toContain("[redacted]");
  });

  it("when an unknown value is not shaped like a key, then the error still quotes it", async () => {
    const res = await fetch(`${svc.url}/v1/lexicon/not-a-number`);
    expect((await res.json()).error.message).toContain("'not-a-number'");
  });

  it.each(["trace-42.a:b", "4bf92f3577b34da6a3ce929d0e0e4736", "01HZX3K4M5N6P7Q8R9S0T1U2V3"])("when a request id is sane (%s), then it is kept and logged", async (id) => {
    const res = await fetch(`${svc.url}/v1/models`, { headers: { "X-Request-Id": id } });
    await res.text();
    expect(res.headers.get("x-request-id")).toBe(id);
    await new Promise((r) => setTimeout(r, 20));
    expect(logged()).toContain(`"requestId":"${id}"`);
  });

  it("when a key is in the path of a reader page, then the access line does not hold it", async () => {
    await (await fetch(`${svc.url}/read/${KEY}`)).text();
    await new Promise((r) => setTimeout(r, 20));
    expect(logged()).not.toContain(KEY.slice(3));
  });

  it("when a path is ordinary, then the access line keeps it as it was", async () => {
    await (await fetch(`${svc.url}/read/JHN/3`)).text();
    await new Promise((r) => setTimeout(r, 20));
    expect(logged()).toContain('"path":"/read/JHN/3"');
  });
});
