import { createServer, type Server } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/chroma/embedded.js";
import { match, reply, type FakeProvider } from "../fakes/index.js";
import { startService, type RunningService } from "../helpers/service.js";
import { ask } from "./fault-kit.js";

const KEY = "sk-test-chroma-faults-5b2d8e";
const rejections: unknown[] = [];
const onRejection = (err: unknown) => void rejections.push(err);
process.on("unhandledRejection", onRejection);
afterAll(() => void process.off("unhandledRejection", onRejection));

const status = async (url: string) => (await fetch(url)).status;
/** /readyz's body says search's own state; the status stays 200 while the replica can answer chat. */
const readyz = async (base: string) => {
  const res = await fetch(`${base}/readyz`);
  return { status: res.status, search: ((await res.json()) as { search: { ready: boolean; state: string; chroma: string } }).search };
};
const searchReady = async (base: string) => (await readyz(base)).search.ready;
async function until(what: string, cond: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Binds a port as soon as the killed process has released it; connections are dropped at once. */
async function holdPort(port: number, deadPid: number): Promise<Server> {
  const deadline = Date.now() + 2000;
  while (Date.now() < deadline) {
    try {
      process.kill(deadPid, 0);
    } catch {
      const srv = createServer((socket) => socket.destroy());
      const ok = await new Promise<boolean>((resolve) => {
        srv.once("error", () => resolve(false));
        srv.listen(port, "127.0.0.1", () => resolve(true));
      });
      if (ok) return srv;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`could not take port ${port} from the killed Chroma`);
}

/** What the agent was told by a tool, from the provider's view of the next turn. */
const toolResults = (provider: FakeProvider) =>
  provider.chatRequests.flatMap((r) => r.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content)));

/** Chat with search down: the model calls search (told it failed), then lookup_passage (local corpus), then answers. */
async function chatWithSearchDown(s: RunningService, stream: boolean) {
  s.provider.reset();
  // The classifier and the agent's first call run side by side (PREFLIGHT_MODE=parallel), so replies
  // are picked by what a request is, not by arrival order; the agent's turns follow one another.
  s.provider.on(match.structured(), reply.normal()); // preflight: the default script lets the question through
  s.provider.once(match.agent(), reply.toolCall("search_scripture", { query: "patience" }));
  s.provider.once(match.agent(), reply.toolCall("lookup_passage", { reference: "James 1:3" }));
  s.provider.once(match.agent(), reply.text("Patience grows under testing, as James 1:3 says."));
  const out = await ask(s.client(KEY), stream);
  expect(out).toMatchObject({ status: 200 });
  expect(out.text).toContain("James 1:3");
  const told = toolResults(s.provider);
  expect(told.some((t) => t.includes("search_scripture is unavailable"))).toBe(true);
  expect(told.some((t) => /testing of your faith produces endurance/i.test(t))).toBe(true);
}

describe("when Chroma is down at start-up", () => {
  let s: RunningService;
  afterAll(() => s?.close());

  it("then /readyz is 200 (chat answers) with search not ready in its body, search is 503 search_unavailable, chat still answers from the local corpus", async () => {
    const port = await freePort();
    s = await startService({ chroma: { url: `http://127.0.0.1:${port}` }, waitReady: false });
    expect(await status(`${s.url}/healthz`)).toBe(200);
    await until("search waiting for Chroma", async () => (await readyz(s.url)).search.state === "waiting for Chroma", 10_000);
    expect(await readyz(s.url)).toMatchObject({ status: 200, search: { ready: false, state: "waiting for Chroma" } });
    const search = await fetch(`${s.url}/v1/scripture/search?q=patience`);
    expect(search.status).toBe(503);
    expect(await search.json()).toMatchObject({ error: { code: "search_unavailable", type: "server_error" } });
    await chatWithSearchDown(s, false);
    await chatWithSearchDown(s, true);
    expect(s.provider.chatRequests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });
});

describe("when the embedded Chroma is killed mid-run", () => {
  let s: RunningService;
  afterAll(() => s?.close());

  it("then search turns not ready while /readyz stays 200, chat keeps answering, and after the automatic restart search is back", async () => {
    s = await startService({ chroma: "embedded" });
    expect(await status(`${s.url}/readyz`)).toBe(200);
    expect(await status(`${s.url}/v1/scripture/search?q=patience`)).toBe(200);

    const embedded = s.services.search.embedded()!;
    const pid = embedded.pid()!;
    process.kill(pid, "SIGKILL");
    // The launcher restarts Chroma within a second; holding its port keeps it down long enough to
    // observe the outage (each failed restart backs off), then releasing it lets the next restart win.
    const blocker = await holdPort(Number(new URL(embedded.url).port), pid);
    await until("search not ready", async () => !(await searchReady(s.url)), 10_000);
    expect(await readyz(s.url)).toMatchObject({ status: 200, search: { ready: false, chroma: "down" } });
    const down = await fetch(`${s.url}/v1/scripture/search?q=patience`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ error: { code: "search_unavailable" } });
    await chatWithSearchDown(s, true);
    await chatWithSearchDown(s, false);
    await new Promise<void>((r) => blocker.close(() => r()));

    await until("search ready after the restart", () => searchReady(s.url));
    expect(embedded.pid()).not.toBe(pid);
    const back = await fetch(`${s.url}/v1/scripture/search?q=the%20Good%20Samaritan`);
    expect(back.status).toBe(200);
    expect(((await back.json()) as { results: { book_id: string }[] }).results[0]!.book_id).toBe("LUK");
    s.provider.reset();
    expect(await ask(s.client(KEY), false)).toMatchObject({ status: 200 });
    expect(rejections).toEqual([]);
  }, 90_000);
});

describe("when the embedded Chroma hangs (alive but not answering) mid-run", () => {
  let s: RunningService;
  let frozen: number | undefined;
  beforeAll(async () => {
    s = await startService({ chroma: "embedded" });
  });
  afterAll(async () => {
    if (frozen) process.kill(frozen, "SIGCONT");
    await s?.close();
  });

  it("then a search already waiting on it is answered 503 search_unavailable once the store is marked down, not held until it wakes", async () => {
    expect(await status(`${s.url}/v1/scripture/search?q=patience`)).toBe(200);
    frozen = s.services.search.embedded()!.pid()!;
    process.kill(frozen, "SIGSTOP");
    const started = Date.now();
    // Sent at once, so it is in flight before the heartbeat notices (two misses, about 2-3 s).
    const waiting = fetch(`${s.url}/v1/scripture/search?q=the%20Good%20Samaritan`).then(async (r) => ({ status: r.status, body: await r.json(), ms: Date.now() - started }));
    const wakeAt = 15_000;
    const wake = setTimeout(() => process.kill(frozen!, "SIGCONT"), wakeAt);
    try {
      const out = await waiting;
      expect(out.status).toBe(503);
      expect(out.body).toMatchObject({ error: { code: "search_unavailable", type: "server_error" } });
      expect(out.ms).toBeLessThan(wakeAt - 5000);
    } finally {
      clearTimeout(wake);
      process.kill(frozen, "SIGCONT");
      frozen = undefined;
    }
    await until("search ready after SIGCONT", () => searchReady(s.url));
    expect(await status(`${s.url}/v1/scripture/search?q=the%20Good%20Samaritan`)).toBe(200);
    expect(rejections).toEqual([]);
  }, 90_000);

  it("and what the store answered is not kept once the search is done (waiting on 'store down' leaks nothing per query)", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const store = (await s.services.search.indexed).store;
    const original = store.query;
    const answers: WeakRef<object>[] = [];
    store.query = async (vector, n) => {
      const hits = await original.call(store, vector, n);
      answers.push(new WeakRef(hits));
      return hits;
    };
    try {
      for (const q of ["patience", "hope", "mercy", "grace", "faith", "love", "peace", "joy", "anger", "fear"]) {
        expect(await status(`${s.url}/v1/scripture/search?q=${q}`)).toBe(200);
      }
    } finally {
      store.query = original;
    }
    expect(answers.length).toBe(10);
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 20));
      gc();
    }
    expect(answers.filter((a) => a.deref() !== undefined).length).toBeLessThanOrEqual(1);
  }, 60_000);
});
