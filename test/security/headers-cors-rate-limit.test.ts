import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { errorHandler } from "../../src/http/error-handler.js";
import { rateLimit } from "../../src/http/rate-limit.js";
import { listen } from "../helpers/listen.js";
import { withinOneRateWindow } from "../helpers/rate-window.js";
import { startService, type RunningService } from "../helpers/service.js";

const KEY = "sk-test-headers-41d7be0c55";
const started: RunningService[] = [];
afterAll(async () => {
  for (const s of started) await s.close();
});
async function service(env: Record<string, string> = {}) {
  const s = await startService({ env });
  started.push(s);
  return s;
}

describe("security headers", () => {
  it("when the API and the pages answer, then helmet's headers are present and pages keep their own CSP", async () => {
    const s = await service();
    for (const path of ["/v1/models", "/v1/scripture/search?q=grace", "/nope"]) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("x-frame-options"), path).toBe("SAMEORIGIN");
      expect(res.headers.get("strict-transport-security"), path).toMatch(/max-age=\d+/);
      expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(res.headers.get("x-powered-by"), path).toBeNull();
    }
    const page = await fetch(`${s.url}/read/JHN/3?verse=16`);
    expect(page.status).toBe(200);
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src");
    expect(csp).not.toContain("unsafe-inline' 'unsafe-eval");
    expect(await page.text()).toContain("For God so loved the world");
  });
});

describe("CORS", () => {
  it("when CORS_ORIGINS is unset, then any origin is allowed without credentials, preflight included", async () => {
    const s = await service();
    const res = await fetch(`${s.url}/v1/models`, { headers: { origin: "https://anywhere.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    const pre = await fetch(`${s.url}/v1/chat/completions`, {
      method: "OPTIONS",
      headers: { origin: "https://anywhere.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
    expect(pre.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("when CORS_ORIGINS lists origins, then only those are echoed (with Vary: Origin) and others get no CORS headers", async () => {
    const s = await service({ CORS_ORIGINS: "https://app.example, https://lab.example" });
    const ok = await fetch(`${s.url}/v1/models`, { headers: { origin: "https://lab.example" } });
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://lab.example");
    expect(ok.headers.get("vary")).toMatch(/origin/i);
    const other = await fetch(`${s.url}/v1/models`, { headers: { origin: "https://evil.example" } });
    expect(other.status).toBe(200);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const pre = await fetch(`${s.url}/v1/chat/completions`, { method: "OPTIONS", headers: { origin: "https://evil.example" } });
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("per-IP rate limit on the key-less endpoints (RATE_LIMIT_PER_MINUTE)", () => {
  it("when the limit is 3 a minute, then the 4th key-less request is 429 rate_limited with Retry-After, while chat (completions and responses), health and metrics are not limited", async () => {
    const s = await service({ RATE_LIMIT_PER_MINUTE: "3" });
    await withinOneRateWindow();
    const paths = ["/v1/translations", "/v1/scripture/search?q=grace", "/read/JHN/3"];
    for (const p of paths) expect((await fetch(`${s.url}${p}`)).status, p).toBe(200);
    const limited = await fetch(`${s.url}/v1/models`);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await limited.json()).toMatchObject({ error: { code: "rate_limited", type: "invalid_request_error", param: null } });
    expect((await fetch(`${s.url}/v1/scripture/search?q=grace`)).status).toBe(429);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${s.url}/metrics`)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const chat = await s.client(KEY).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "What is grace?" }] });
      expect(chat.choices[0]!.message.content).toContain("John 3:16");
      const response = await s.client(KEY).responses.create({ model: "gpt-4o-mini", input: "What is grace?" });
      expect(response.output_text).toContain("John 3:16");
    }
  });

  it("when the limit is off (default), then a burst of key-less requests is never limited", async () => {
    const s = started[0]!;
    const statuses = await Promise.all(Array.from({ length: 50 }, () => fetch(`${s.url}/v1/translations`).then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it("when the minute turns, then counts start again; when many addresses arrive, memory stays under maxClients", async () => {
    let now = 60_000 * 1000 + 59_000;
    const app = express();
    app.set("trust proxy", true);
    const limiter = rateLimit({ perMinute: 1, maxClients: 3, now: () => now });
    app.use(limiter, (_req, res) => void res.json({ ok: true }));
    app.use(errorHandler);
    const srv = await listen(app);
    const get = (ip: string) => fetch(`${srv.url}/`, { headers: { "x-forwarded-for": ip } });
    try {
      expect((await get("10.0.0.1")).status).toBe(200);
      const second = await get("10.0.0.1");
      expect(second.status).toBe(429);
      expect(second.headers.get("retry-after")).toBe("1");
      now += 1_000;
      expect((await get("10.0.0.1")).status).toBe(200);
      // Four more addresses in a window of capacity 3: the oldest is forgotten, so it may pass again.
      for (const ip of ["10.0.0.2", "10.0.0.3", "10.0.0.4"]) expect((await get(ip)).status).toBe(200);
      expect((await get("10.0.0.1")).status).toBe(200);
      expect((await get("10.0.0.4")).status).toBe(429);
    } finally {
      await srv.close();
    }
  });
});
