import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Config, loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { loadPrompts, type PromptRegistry } from "../../src/prompts/loader.js";
import { type BibleLibrary, loadBibleLibrary } from "../../src/scripture/corpus.js";
import { startSearchService } from "../../src/scripture/search/service.js";
import type { ScriptureSearcher } from "./deps.js";
import { buildChatRuntime, type ChatRuntime, type ChatRuntimeParts } from "./runtime.js";

/**
 * LangGraph Studio's entry (langgraph.json): the chat runtime from configuration, like the service's,
 * with every part loaded on first use so that building this graph (Studio's start, `npm run graph`)
 * reads nothing. Studio's local settings come from .env at the repository root (see .env.example);
 * variables already set win, so a test or a shell can override any of them. The service never reads .env.
 */
/**
 * A Studio run's answer when no key is configured. Studio sends no Authorization header and a run's
 * context is recorded, so the key belongs in the LangGraph server's environment. The one wording of it.
 */
export const STUDIO_NO_KEY_MESSAGE =
  "No model provider key is set for LangGraph Studio runs. Put it in the environment of the LangGraph server: " +
  "add STUDIO_API_KEY=<your provider key> to the .env file at the repository root (see .env.example), " +
  "or export it in the shell, then restart `npm run studio`. Nothing was sent to the provider.";

function loadLocalEnv() {
  const file = fileURLToPath(new URL("../../.env", import.meta.url));
  if (existsSync(file)) process.loadEnvFile(file);
}

function once<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

export function studioRuntime(): ChatRuntime {
  const config = once((): Config => (loadLocalEnv(), loadConfig()));
  const logger = once(() => createLogger(config().logLevel));
  const prompts = once((): PromptRegistry => loadPrompts(config().promptsDir));
  const bibles = once((): BibleLibrary => loadBibleLibrary());
  const search = once((): ScriptureSearcher => {
    const service = startSearchService({
      dataDir: config().dataDir,
      chromaUrl: config().chromaUrl,
      embeddings: config().embeddings,
      library: bibles(),
      logger: logger(),
    });
    // Studio may call before the index is ready; the tools then wait for it (or report it down).
    return {
      search: async (input) => (await service.indexed, service.search.search(input)),
      keyword: async (input) => (await service.indexed, service.search.keyword(input)),
    };
  });
  const lazyConfig = {
    // A LangGraph server stores each run's context: the key comes from its environment instead.
    keyFromEnvironment: true,
    get provider() {
      return config().provider;
    },
    get defaultModel() {
      return config().defaultModel;
    },
    get preflightModel() {
      return config().preflightModel;
    },
    get agentMaxSteps() {
      return config().agentMaxSteps;
    },
    get preflightMode() {
      return config().preflightMode;
    },
    get supportReply() {
      return config().supportReply;
    },
    get studioApiKey() {
      return config().studioApiKey;
    },
    missingKeyReply: STUDIO_NO_KEY_MESSAGE,
    get tracing() {
      return config().tracing;
    },
  };
  const parts: ChatRuntimeParts = {
    get prompts() {
      return prompts();
    },
    get bibles() {
      return bibles();
    },
    get search() {
      return search();
    },
    get logger() {
      return logger();
    },
  };
  return buildChatRuntime(lazyConfig, parts);
}

/** For LangGraph Studio (langgraph.json): the runtime its graph and its schemas (studio-http.ts) come from. */
export const studio = studioRuntime();
export const graph = studio.graph;
