import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Writable } from "node:stream";
import OpenAI from "openai";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { buildServices, type Services } from "../../src/services.js";
import { startFakeProvider, type FakeProvider } from "../fakes/index.js";
import type { ChatRequest } from "../fakes/chat-request.js";
import { listen, type Listening } from "../helpers/listen.js";

/** The bar: during a first start no /healthz waits longer than this, and the event loop never stalls longer. */
const LIMIT_MS = 250;
const QUESTION = "What does the Bible say about forgiving someone who hurt me?";

let provider: FakeProvider | undefined;
let server: Listening | undefined;
let services: Services | undefined;
let dataDir: string | undefined;

afterAll(async () => {
  await server?.close();
  await services?.stop();
  await provider?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Traffic {
  probes: number;
  chats: number;
  slowestProbeMs: number;
  /** The event loop's longest stall while the traffic ran (monitorEventLoopDelay). */
  stallMs: number;
}

/** /healthz every 100 ms and a chat every 3 s until `done()`, with the event loop's delay measured meanwhile. */
async function traffic(url: string, ask: () => Promise<OpenAI.ChatCompletion>, done: () => boolean): Promise<Traffic> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const probes: number[] = [];
  const probing = (async () => {
    while (!done()) {
      const t = performance.now();
      const res = await fetch(`${url}/healthz`);
      expect(res.status).toBe(200);
      probes.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  let chats = 0;
  while (!done()) {
    expect((await ask()).choices[0]?.message.content).toBeTruthy();
    chats++;
    if (!done()) await new Promise((r) => setTimeout(r, 3_000));
  }
  await probing;
  loop.disable();
  return { probes: probes.length, chats, slowestProbeMs: Math.max(...probes), stallMs: loop.max / 1e6 };
}

/** A chapter heading of search_scripture's result ("## Matthew 18 (eng-web, relevance 0.63; ..."). */
const FOUND_PASSAGE = /^## .+ \d+ \(eng-web, relevance/m;

/** The last agent call (the one offered search_scripture) among the first `upTo` calls the provider received. */
const agentCallOf = (p: FakeProvider, upTo = p.chatRequests.length) =>
  p.chatRequests.slice(0, upTo).filter((r) => r.body.tools?.some((t) => t.function.name === "search_scripture")).at(-1);

/** The text of the prefetched search_scripture result the agent's provider call carried. */
function searchResultSent(req: ChatRequest | undefined): string {
  const call = req?.body.messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.function.name === "search_scripture");
  const result = req?.body.messages.find((m) => m.role === "tool" && m.tool_call_id === call?.id);
  return typeof result?.content === "string" ? result.content : "";
}

describe("a first start on an empty DATA_DIR (the full production corpus: windows, LSA training, embedding)", () => {
  it("when the index is being built, then /healthz and chat answer meanwhile, the event loop never stalls past 250 ms, and chat quotes scripture once the index is ready", async () => {
    provider = await startFakeProvider({ delayMs: 0 });
    dataDir = mkdtempSync(join(tmpdir(), "bc-first-start-"));
    const config = loadConfig({ OPENAI_BASE_URL: provider.baseURL, DATA_DIR: dataDir });
    const logs: string[] = [];
    // How many provider calls had arrived when search became ready (its state line is logged in the same
    // synchronous step as it attaches, before `indexed`, which also waits for the remembered lines): a
    // chat in flight then may search the ready index (as it should), so only the calls that arrived
    // before are read as made while indexing.
    let arrivedBeforeReady: number | undefined;
    const noteLine = (line: string) => {
      logs.push(line);
      if (arrivedBeforeReady === undefined && line.includes('"msg":"scripture search state"') && line.includes('"state":"ready"'))
        arrivedBeforeReady = provider?.chatRequests.length ?? 0;
    };
    const logger = createLogger("info", new Writable({ write: (c, _e, cb) => (noteLine(String(c)), cb()) }));
    // What runs before listening (prompts, corpus, reference parsers) is start-up, not a stall a caller sees.
    services = buildServices(config, logger);
    server = await listen(createApp(services.app));
    let ready = false;
    const indexed = services.search.indexed.then(() => (ready = true));
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "sk-first-start-test", maxRetries: 0, timeout: 60_000 });
    const ask = () => client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: QUESTION }] });

    // The first chat after any start (warm or not) pays for compiling the chat path; it is answered, and
    // the stall measured below is the index build's, with chats still coming in.
    expect((await ask()).choices[0]?.message.content).toBeTruthy();
    expect(ready).toBe(false);
    const building = await traffic(server.url, ask, () => ready);
    await indexed;
    // While indexing the model was told search is not ready; from now on it reads the passages found.
    expect(arrivedBeforeReady).toBeDefined();
    const lastWhileIndexing = agentCallOf(provider, arrivedBeforeReady);
    expect(lastWhileIndexing).toBeDefined();
    expect(searchResultSent(lastWhileIndexing)).not.toMatch(FOUND_PASSAGE);
    provider.reset();
    // The same traffic once the index is ready: what this machine's load alone does to the loop right now.
    let chats = 0;
    const asUsual = await traffic(server.url, async () => (chats++, ask()), () => chats >= Math.min(building.chats, 6));
    console.log(
      `first start: while indexing ${building.probes} /healthz probes and ${building.chats} chats, slowest probe ${building.slowestProbeMs.toFixed(0)} ms, ` +
        `longest event-loop stall ${building.stallMs.toFixed(0)} ms; the same traffic after: slowest probe ${asUsual.slowestProbeMs.toFixed(0)} ms, stall ${asUsual.stallMs.toFixed(0)} ms`,
    );

    expect(logs.some((l) => l.includes("search index: training LSA"))).toBe(true);
    expect(building.chats).toBeGreaterThan(1);
    expect(building.probes).toBeGreaterThan(5);
    // 250 ms is the bar; on a machine so loaded that the same traffic alone stalls the loop longer, the
    // build may add no more than half again of what that traffic shows.
    const bar = (usual: number) => Math.max(LIMIT_MS, 1.5 * usual);
    expect(building.stallMs).toBeLessThan(bar(asUsual.stallMs));
    expect(building.slowestProbeMs).toBeLessThan(bar(asUsual.slowestProbeMs));

    expect(searchResultSent(agentCallOf(provider))).toMatch(FOUND_PASSAGE);
  }, 600_000);
});
