/**
 * The chat service alone in this process, for service-only CPU figures and profiles: createApp with
 * metrics, the chat router and the real graph, prompts, corpus, references and links, over a provider
 * at FAKE_BASE_URL (the fake in its own process). No search: the bench's questions name a passage, so
 * the agent looks it up. Prints `{"url": ...}` on stdout when listening; answers "cpu\n" on stdin with
 * its own process.cpuUsage() as one JSON line; stops on SIGTERM.
 *   FAKE_BASE_URL=... [BENCH_RUNNER=graph|langgraph-loop|proxy|scripted] node [--cpu-prof] --import tsx bench/lib/chat-service-child.ts
 */
import { Writable } from "node:stream";
import { createInterface } from "node:readline";
import { buildChatRuntime } from "../../graphs/chat/runtime.js";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { chatRouter } from "../../src/http/chat/route.js";
import { createLogger } from "../../src/logger.js";
import { createMetrics } from "../../src/metrics.js";
import { loadPrompts } from "../../src/prompts/loader.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { prepareReferences } from "../../src/scripture/references.js";
import type { FakeProvider } from "../../test/fakes/index.js";
import { listen } from "../../test/helpers/listen.js";
import { langGraphLoop } from "../chat-floor.js";
import { plainProxy, scriptedAnswer } from "../chat-proxy.js";

const baseURL = process.env.FAKE_BASE_URL;
if (!baseURL) throw new Error("FAKE_BASE_URL is required");
const config = loadConfig({ OPENAI_BASE_URL: baseURL });
// Info-level lines as the service writes them, to a sink that drops them (the cost of writing to a
// pipe or file is the operator's choice, not the service's).
const logger = createLogger("info", new Writable({ write: (_c, _e, cb) => cb() }));
const metrics = createMetrics({ defaultMetrics: true });
prepareReferences();
const chat = buildChatRuntime(config, {
  prompts: loadPrompts(),
  bibles: loadBibleLibrary(),
  search: {
    search: async () => Promise.reject(new Error("semantic search is not part of this run")),
    keyword: async () => Promise.reject(new Error("keyword search is not part of this run")),
  },
  logger: logger.child({ component: "chat" }),
  metrics,
});
/**
 * BENCH_RUNNER: the chat graph (default), or a floor under it: LangGraph's own loop on the same path
 * with no-op nodes, one plain provider call (a thin proxy), or no call at all (the adapter alone).
 */
function runner() {
  const which = process.env.BENCH_RUNNER ?? "graph";
  if (which === "langgraph-loop") return langGraphLoop();
  if (which === "proxy") return plainProxy({ baseURL } as FakeProvider);
  if (which === "scripted") return scriptedAnswer(["God so loved the world. ", "See John 3:16."]);
  return chat.run;
}
const app = createApp({
  config,
  logger,
  metrics,
  readiness: { ready: () => true, detail: () => ({}) },
  listings: { models: config.models, modelsCreated: 0, translations: () => [], theologies: () => [], profiles: () => [] },
  routers: [chatRouter({ run: runner(), catalog: chat.catalog, config })],
});
const srv = await listen(app);
process.stdout.write(`${JSON.stringify({ url: srv.url })}\n`);
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "cpu") process.stdout.write(`${JSON.stringify(process.cpuUsage())}\n`);
});
const stop = async () => {
  await srv.close();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
