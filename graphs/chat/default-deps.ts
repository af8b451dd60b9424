import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config.js";
import { loadPrompts } from "../../src/prompts/loader.js";
import { createLogger } from "../../src/logger.js";
import { loadBibleLibrary, type BibleLibrary } from "../../src/scripture/corpus.js";
import { startSearchService } from "../../src/scripture/search/service.js";
import { convertLinks, createLinkStream } from "../../src/scripture/links.js";
import { formatReference, parsePassageQuery } from "../../src/scripture/references.js";
import type { ChatDeps } from "./deps.js";
import { createModelFactory } from "./models.js";

/**
 * Studio's local debugging settings (.env at the repository root, see .env.example). Variables already
 * set win, so a test or a shell can override any of them; the service itself never reads .env.
 */
function loadLocalEnv() {
  const file = fileURLToPath(new URL("../../.env", import.meta.url));
  if (existsSync(file)) process.loadEnvFile(file);
}

/**
 * Deps from configuration for LangGraph Studio, each built on first use so that importing graph.ts
 * (tests, `npm run graph`) loads nothing. The service builds its own deps and calls buildChatGraph.
 */
export function lazyDefaultDeps(): ChatDeps {
  const memo = new Map<string, unknown>();
  const once = <T>(key: string, make: () => T): T => {
    if (!memo.has(key)) memo.set(key, make());
    return memo.get(key) as T;
  };
  const config = () => once("config", () => (loadLocalEnv(), loadConfig()));
  const logger = () => once("logger", () => createLogger(config().logLevel));
  return {
    get models() {
      return once("models", () => createModelFactory({ baseURL: config().provider.baseURL, timeoutMs: config().provider.timeoutMs }));
    },
    get prompts() {
      return once("prompts", () => loadPrompts(config().promptsDir));
    },
    get bibles() {
      return once("bibles", () => loadBibleLibrary());
    },
    references: { parsePassageQuery, formatReference },
    links: { convertLinks, createLinkStream },
    get search(): ChatDeps["search"] {
      return once("search", () => {
        const service = startSearchService({
          dataDir: config().dataDir,
          chromaUrl: config().chromaUrl,
          embeddings: config().embeddings,
          library: this.bibles as BibleLibrary,
          logger: logger(),
        });
        // Studio may call before the index is ready; the tools then wait for it (or report it down).
        return {
          search: async (input) => (await service.indexed, service.search.search(input)),
          keyword: async (input) => (await service.indexed, service.search.keyword(input)),
        };
      });
    },
    get logger() {
      return logger();
    },
    get maxSteps() {
      return config().agentMaxSteps;
    },
    get providerTimeoutMs() {
      return config().provider.timeoutMs;
    },
    get providerName() {
      return new URL(config().provider.baseURL).host;
    },
    get defaultModel() {
      return config().defaultModel;
    },
    get preflightModel() {
      return config().preflightModel;
    },
    get studioApiKey() {
      return config().studioApiKey;
    },
  };
}
