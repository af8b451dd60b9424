import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorHandler } from "../../src/http/error-handler.js";
import { keyRefusalLimit, memoryCounter, type CountKeyRefusal } from "../../src/http/rate-limit.js";
import { reply, type FakeProvider } from "../fakes/index.js";
import { listen } from "../helpers/listen.js";
import { withinOneRateWindow } from "../helpers/rate-window.js";
import { startService, type RunningService } from "../helpers/service.js";

const REFUSED = "sk-refused-by-provider-7c1e9a44d0b2";
const WORKING = "sk-working-key-5f0a2b9d13c8";
const LIMIT = 3;

const question = { model: "gpt-4o-mini", messages: [{ role: "user", content: "What is grace?" }] };

function post(s: RunningService, path: string, key: string, ip: string, body: object = question) {
  return fetch(`${s.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });
}

const callsWith = (provider: FakeProvider, key: string) => provider.chatRequests.filter((r) => r.headers.authorization === `Bearer ${key}`).length;

describe("chats whose key the provider refuses are limited per client (KEY_REFUSALS_PER_MINUTE)", () => {
  let s: RunningService;
  beforeAll(async () => {
    s = await startService({ env: { KEY_REFUSALS_PER_MINUTE: String(LIMIT), TRUST_PROXY: "1" }, logLevel: "trace" });
    // The provider refuses one key, quoting it as real providers do.
    s.provider.on((r) => r.headers.authorization === `Bearer ${REFUSED}`, reply.error(401, { error: { message: `Incorrect API key provided: ${REFUSED}.` } }));
  });
  afterAll(async () => {
    await s.close();
  });

  it("when a client's key was refused LIMIT times, then its next chat and Responses requests are 429 rate_limited with Retry-After and reach no provider; another client's working key is unaffected; the key is in no log line", async () => {
    const attacker = "203.0.113.7";
    await withinOneRateWindow();
    for (let i = 0; i < LIMIT; i++) {
      const res = await post(s, "/v1/chat/completions", REFUSED, attacker);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: "invalid_api_key" } });
    }
    const calls = callsWith(s.provider, REFUSED);
    expect(calls).toBeGreaterThanOrEqual(LIMIT);

    const limited = await post(s, "/v1/chat/completions", REFUSED, attacker, { ...question, stream: true });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const text = await limited.text();
    expect(JSON.parse(text)).toMatchObject({ error: { code: "rate_limited", type: "invalid_request_error", param: null } });
    expect(text).not.toContain(REFUSED);
    const responses = await post(s, "/v1/responses", REFUSED, attacker, { model: "gpt-4o-mini", input: "What is grace?" });
    expect(responses.status).toBe(429);
    expect(responses.headers.get("retry-after")).not.toBeNull();
    // Until the window passes the client is stopped whatever key it sends; nothing reached the provider.
    expect((await post(s, "/v1/chat/completions", WORKING, attacker)).status).toBe(429);
    expect(callsWith(s.provider, REFUSED)).toBe(calls);
    expect(callsWith(s.provider, WORKING)).toBe(0);

    const other = await post(s, "/v1/chat/completions", WORKING, "198.51.100.20");
    expect(other.status).toBe(200);
    expect(JSON.stringify(await other.json())).toContain("John 3:16");
    // Key-less endpoints are not this limit's business.
    expect((await fetch(`${s.url}/v1/translations`, { headers: { "x-forwarded-for": attacker } })).status).toBe(200);

    const logs = s.logs.join("");
    expect(logs).toContain('"level":20'); // the most verbose lines were written
    expect(logs).not.toContain(REFUSED);
    expect(logs).not.toContain(REFUSED.slice(0, 16));
    expect(logs).not.toContain(WORKING);
  }, 60_000);

  it("when the service itself refuses a key's shape, then that costs no provider call and is not counted", async () => {
    const ip = "203.0.113.8";
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await post(s, "/v1/chat/completions", "not-a-key", ip);
      expect(res.status).toBe(401);
    }
    expect((await post(s, "/v1/chat/completions", WORKING, ip)).status).toBe(200);
  });

  it("when 32 chats with a working key arrive at once from one address, then none is limited", async () => {
    const statuses = await Promise.all(Array.from({ length: 32 }, () => post(s, "/v1/chat/completions", WORKING, "192.0.2.50").then((r) => r.status)));
    expect(statuses.filter((st) => st !== 200)).toEqual([]);
  });
});

describe("keyRefusalLimit's window", () => {
  it("when the window passes, then a client stopped for refusals is served again", async () => {
    let now = 60_000 * 500 + 58_500;
    const counter = memoryCounter({ now: () => now });
    const app = express();
    app.set("trust proxy", true);
    app.use(keyRefusalLimit({ perMinute: 2, counter }), (req, res) => {
      if (req.get("authorization") === "refused") (res.locals.countKeyRefusal as CountKeyRefusal)();
      res.json({ ok: true });
    });
    app.use(errorHandler);
    const srv = await listen(app);
    const get = (ip: string, authorization = "refused") => fetch(`${srv.url}/`, { headers: { "x-forwarded-for": ip, authorization } });
    try {
      expect((await get("10.0.0.1")).status).toBe(200);
      expect((await get("10.0.0.1")).status).toBe(200);
      const stopped = await get("10.0.0.1", "fine");
      expect(stopped.status).toBe(429);
      expect(stopped.headers.get("retry-after")).toBe("2");
      expect((await get("10.0.0.2", "fine")).status).toBe(200);
      now += 1_500;
      expect((await get("10.0.0.1", "fine")).status).toBe(200);
    } finally {
      await srv.close();
    }
  });
});
