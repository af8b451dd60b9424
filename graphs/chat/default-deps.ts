import { loadConfig } from "../../src/config.js";
import { loadPrompts } from "../../src/prompts/loader.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { convertLinks, createLinkStream } from "../../src/scripture/links.js";
import { formatReference, parsePassageQuery } from "../../src/scripture/references.js";
import type { ChatDeps } from "./deps.js";
import { createModelFactory } from "./models.js";

/** Deps from configuration, each built on first use so importing graph.ts stays cheap. */
export function lazyDefaultDeps(): ChatDeps {
  const memo = new Map<string, unknown>();
  const once = <T>(key: string, make: () => T): T => {
    if (!memo.has(key)) memo.set(key, make());
    return memo.get(key) as T;
  };
  const config = () => once("config", () => loadConfig());
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
      throw new Error("search: not wired yet");
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
  };
}
