import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/chroma/embedded.js";
import { reply } from "../fakes/index.js";
import { startService, type RunningService } from "../helpers/service.js";

// A real Redis server (Debian's redis-server; .ci/run installs it). Where there is none, these tests are
// skipped and the run's summary names them.
const hasRedis = spawnSync("redis-server", ["--version"]).status === 0;
const needs = hasRedis ? "" : " [not run: no redis-server on PATH]";

let redis: ChildProcess | undefined;
let url: string;
let port: number;
const services: RunningService[] = [];
const REFUSED = "sk-refused-across-replicas-2b7f01c9";

async function startRedis() {
  const proc = spawn("setpriv", ["--pdeathsig", "SIGTERM", "--", "redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  redis = proc;
  for (let i = 0; i < 100; i++) {
    if (spawnSync("redis-cli", ["-p", String(port), "ping"]).stdout?.toString().trim() === "PONG") return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("redis-server did not answer");
}
async function stopRedis() {
  const proc = redis;
  redis = undefined;
  if (!proc || proc.exitCode !== null) return;
  await new Promise<void>((resolve) => (proc.once("exit", () => resolve()), proc.kill("SIGTERM")));
}

beforeAll(async () => {
  if (!hasRedis) return;
  port = await freePort();
  url = `redis://127.0.0.1:${port}`;
  await startRedis();
});
afterAll(async () => {
  for (const s of services) await s.close();
  await stopRedis();
});

const models = async (s: RunningService) => {
  const res = await fetch(`${s.url}/v1/models`);
  return { status: res.status, limit: res.headers.get("x-ratelimit-limit"), remaining: res.headers.get("x-ratelimit-remaining") };
};

describe.skipIf(!hasRedis)(`key-less limits shared by replicas through Redis (RATE_LIMIT_REDIS_URL)${needs}`, () => {
  it("when two replicas share one Redis, then a client gets what X-RateLimit-Limit says in all, wherever its requests land", async () => {
    const env = { RATE_LIMIT_PER_MINUTE: "4", RATE_LIMIT_REDIS_URL: url };
    services.push(...(await Promise.all([startService({ env }), startService({ env })])));
    const [a, b] = services as [RunningService, RunningService];
    const seen = [];
    for (let i = 0; i < 10; i++) seen.push(await models(i % 2 === 0 ? a : b));
    expect(seen.filter((r) => r.status === 200)).toHaveLength(4);
    expect(seen.slice(4).every((r) => r.status === 429)).toBe(true);
    expect(seen.map((r) => r.limit)).toEqual(Array(10).fill("4"));
    expect(seen.slice(0, 4).map((r) => r.remaining)).toEqual(["3", "2", "1", "0"]);
  });

  it("when two replicas share one Redis, then keys the provider refused on one count on the other (KEY_REFUSALS_PER_MINUTE, with the key-less limit off)", async () => {
    const env = { KEY_REFUSALS_PER_MINUTE: "2", RATE_LIMIT_REDIS_URL: url };
    const pair = await Promise.all([startService({ env }), startService({ env })]);
    services.push(...pair);
    const [c, d] = pair;
    for (const s of pair) s.provider.on((r) => r.headers.authorization === `Bearer ${REFUSED}`, reply.error(401));
    const chat = (s: RunningService) =>
      fetch(`${s.url}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${REFUSED}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "What is grace?" }] }),
      });
    expect((await chat(c)).status).toBe(401);
    expect((await chat(d)).status).toBe(401);
    const before = c.provider.chatRequests.length;
    const limited = await chat(c);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toMatchObject({ error: { code: "rate_limited" } });
    expect(c.provider.chatRequests.length).toBe(before);
    expect((await chat(d)).status).toBe(429);
  });

  it("when Redis goes away, then the key-less endpoints keep answering (each replica counts alone) and nothing fails", async () => {
    const [a] = services as [RunningService];
    await stopRedis();
    await new Promise((r) => setTimeout(r, 300));
    const res = await fetch(`${a.url}/v1/scripture/search?q=John%203%3A16`);
    expect([200, 429]).toContain(res.status);
    expect(a.logs.join("")).toContain("Redis not answering");
    expect(a.logs.join("")).not.toMatch(/"level":50/);
  });
});
