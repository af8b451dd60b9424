import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../fakes/index.js";
import { startService, type RunningService } from "../helpers/service.js";

/**
 * The race at a provider's keep-alive timeout, through the real service: the fake provider behind a
 * TCP proxy that, once told to, resets any connection that sat idle IDLE_MS or more at the moment a
 * request arrives on it (a server or load balancer whose idle timer fired just as the request was on
 * its way: the worst moment, and one a loaded machine makes common). The fuzz test's rare 502 under
 * load was this: several pooled sockets idle since the same burst, all dropped, and the transport's one
 * resend taking the next dropped socket from the pool.
 */
const KEY = "sk-test-keepalive-5d81c2";
const IDLE_MS = 600;

let provider: FakeProvider;
let proxy: Server;
let s: RunningService;
const pairs = new Set<Socket>();
let connections = 0;
let dropped = 0;
let dropIdle = false;

beforeAll(async () => {
  provider = await startFakeProvider({ delayMs: 0 });
  proxy = createServer((down) => {
    connections++;
    const up = connect(provider.port, "127.0.0.1");
    pairs.add(down).add(up);
    let last = performance.now();
    down.on("data", (d) => {
      if (dropIdle && performance.now() - last >= IDLE_MS) {
        dropped++;
        down.resetAndDestroy();
        up.destroy();
        return;
      }
      last = performance.now();
      up.write(d);
    });
    up.on("data", (d) => ((last = performance.now()), down.write(d)));
    const end = () => (down.destroy(), up.destroy(), pairs.delete(down), pairs.delete(up));
    down.on("close", end).on("error", end);
    up.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  s = await startService({ provider, env: { OPENAI_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1` } });
});
afterAll(async () => {
  await s?.close();
  for (const socket of pairs) socket.destroy();
  await new Promise<void>((resolve) => proxy?.close(() => resolve()));
  await provider?.close();
});

const chat = (stream: boolean) =>
  fetch(`${s.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", stream, messages: [{ role: "user", content: "What does John 3:16 mean?" }] }),
  });

describe("when the provider drops every idle keep-alive connection just as a request reuses it", () => {
  it("then the chat is answered: the resend goes out on a new connection, not on another dropped one", async () => {
    // A burst leaves several sockets in the service's pool, idle since the same moment.
    const burst = await Promise.all([chat(false), chat(false), chat(true), chat(true)]);
    for (const res of burst) expect(res.status, await res.text()).toBe(200);
    const pooled = connections;
    expect(pooled).toBeGreaterThanOrEqual(3);

    dropIdle = true;
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 200));
    for (const stream of [false, true]) {
      const res = await chat(stream);
      const text = await res.text();
      expect(res.status, `${text.slice(0, 300)}\n${s.logs.filter((l) => l.includes('"level":50')).join("")}`).toBe(200);
      if (stream) expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    }
    // The race happened (a dropped socket was written to), and the answers came over new connections.
    expect(dropped).toBeGreaterThanOrEqual(1);
    expect(connections).toBeGreaterThan(pooled);
    expect(s.logs.join("")).not.toContain('"msg":"request failed"');
  });
});
