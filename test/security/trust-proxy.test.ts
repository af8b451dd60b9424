import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { withinOneRateWindow } from "../helpers/rate-window.js";
import { startService, type RunningService } from "../helpers/service.js";

const started: RunningService[] = [];
afterAll(async () => {
  for (const s of started) await s.close();
});

describe("TRUST_PROXY takes Express's own forms, never 'believe every X-Forwarded-For'", () => {
  it.each([
    ["", false],
    ["false", false],
    ["0", false],
    ["1", 1],
    ["2", 2],
    ["loopback", ["loopback"]],
    ["loopback, 10.0.0.0/8,fd00::/8", ["loopback", "10.0.0.0/8", "fd00::/8"]],
    ["192.168.1.0/255.255.255.0", ["192.168.1.0/255.255.255.0"]],
  ])("when TRUST_PROXY=%j, then Express is given %j", (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(["true", "TRUE", "yes"])("when TRUST_PROXY=%j, then start-up fails and says to give a hop count or addresses", (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: "true" would believe any X-Forwarded-For.*number of proxies.*addresses/);
  });

  it.each(["proxy.example.com", "10.0.0.0/33", "1.2.3.4/8/8", "loopback,,"])("when TRUST_PROXY=%j (not an address, subnet or count), then start-up fails naming it", (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: a hop count/);
  });

  it("when one proxy is trusted and a limited client writes its own X-Forwarded-For, then it is still limited: only the address the proxy appended counts", async () => {
    const s = await startService({ env: { RATE_LIMIT_PER_MINUTE: "3", TRUST_PROXY: "1" } });
    started.push(s);
    await withinOneRateWindow();
    // What a proxy in front forwards: whatever the client sent, then the client's real address (203.0.113.7).
    const statuses: number[] = [];
    for (let i = 0; i < 33; i++) {
      const res = await fetch(`${s.url}/v1/models`, { headers: { "x-forwarded-for": `198.51.100.${i}, 203.0.113.7` } });
      statuses.push(res.status);
      if (i === 0) expect(res.headers.get("x-ratelimit-limit")).toBe("3");
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3).every((st) => st === 429)).toBe(true);
    // Another real client behind the same proxy has its own count.
    expect((await fetch(`${s.url}/v1/models`, { headers: { "x-forwarded-for": "203.0.113.8" } })).status).toBe(200);
  });

  it("when no proxy is trusted (default), then X-Forwarded-For is ignored altogether", async () => {
    const s = await startService({ env: { RATE_LIMIT_PER_MINUTE: "2" } });
    started.push(s);
    await withinOneRateWindow();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await fetch(`${s.url}/v1/models`, { headers: { "x-forwarded-for": `198.51.100.${i}` } })).status);
    expect(statuses.filter((st) => st === 200)).toHaveLength(2);
  });
});
