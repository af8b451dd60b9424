import { Writable } from "node:stream";
import OpenAI from "openai";
import type { ScriptureSearcher } from "../../graphs/chat/deps.js";
import { buildChatRuntime } from "../../graphs/chat/runtime.js";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { chatRouter, type RunChat } from "../../src/http/chat/route.js";
import { createLogger } from "../../src/logger.js";
import { loadPrompts } from "../../src/prompts/loader.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { startFakeProvider, type FakeProvider } from "../fakes/index.js";
import { listen } from "../helpers/listen.js";

export interface ChatStack {
  url: string;
  provider: FakeProvider;
  logs: string[];
  client(apiKey: string): OpenAI;
  close(): Promise<void>;
}

/** Semantic search is another module's subject; these runs script the model to read passages instead. */
const searchNotInvolved: ScriptureSearcher = {
  search: async () => Promise.reject(new Error("semantic search is not part of this run")),
  keyword: async () => Promise.reject(new Error("keyword search is not part of this run")),
};

/**
 * The whole service path for one chat request: createApp + chat router + the real graph, prompts,
 * corpus, references and links, talking to the fake OpenAI-compatible provider over real HTTP.
 */
export interface ChatStackOptions {
  search?: ScriptureSearcher;
  logLevel?: string;
  timeoutMs?: number;
  /** Keep log lines in `logs` (tests); benchmarks drop them so memory stays flat. */
  keepLogs?: boolean;
  /** Replaces the graph-backed runner (the benchmark's plain-proxy baseline). */
  runner?: (provider: FakeProvider) => RunChat;
  /** Requests the fake remembers; benchmarks keep few so its records do not count as our memory. */
  maxRecorded?: number;
}

export async function startChatStack(opts: ChatStackOptions = {}): Promise<ChatStack> {
  const provider = await startFakeProvider({ delayMs: 0, ...(opts.maxRecorded ? { maxRecorded: opts.maxRecorded } : {}) });
  const config = loadConfig({ OPENAI_BASE_URL: provider.baseURL, ...(opts.timeoutMs ? { PROVIDER_TIMEOUT_MS: String(opts.timeoutMs) } : {}) });
  const logs: string[] = [];
  const keep = opts.keepLogs ?? true;
  const sink = new Writable({ write: (c, _e, cb) => (keep && logs.push(String(c)), cb()) });
  const logger = createLogger(opts.logLevel ?? "debug", sink);
  const chat = buildChatRuntime(config, { prompts: loadPrompts(), bibles: loadBibleLibrary(), search: opts.search ?? searchNotInvolved, logger });
  const app = createApp({
    config,
    logger,
    readiness: { ready: () => true, detail: () => ({}) },
    listings: { models: config.models, modelsCreated: 0, translations: () => [], theologies: () => [], profiles: () => [] },
    routers: [
      chatRouter({ run: opts.runner?.(provider) ?? chat.run, catalog: chat.catalog, config }),
    ],
  });
  const srv = await listen(app);
  return {
    url: srv.url,
    provider,
    logs,
    client: (apiKey) => new OpenAI({ baseURL: `${srv.url}/v1`, apiKey, maxRetries: 0 }),
    close: async () => {
      await srv.close();
      await provider.close();
    },
  };
}
