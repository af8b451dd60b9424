import type { ChatOpenAICompletions } from "@langchain/openai";
import type { MetricsRecorder } from "../../src/metrics.js";
import type { PromptRegistry } from "../../src/prompts/loader.js";
import type { Bible, BibleLibrary } from "../../src/scripture/corpus.js";
import type { ScriptureRef } from "../../src/scripture/references.js";
import type { ScriptureSearch } from "../../src/scripture/search/search.js";
import type { ChatRequestContext } from "./types.js";

/**
 * What the graph needs from the rest of the service. Dependencies are given to buildChatGraph, so it
 * compiles with the real modules (src/scripture, src/prompts) or with stand-ins and a temporary
 * folder of prompts in tests. The shapes follow docs/architecture.md.
 */

export type ModelPurpose = "preflight" | "agent";

/** Builds a model client for one call site of one request; the caller's key comes from ctx. */
export type ModelFactory = (ctx: ChatRequestContext, purpose: ModelPurpose) => ChatOpenAICompletions;

// The corpus, references and search are typed by their own modules, so the graph cannot drift from them.
export type { VerseText, ChapterText } from "../../src/scripture/corpus.js";
export type { ScriptureRef as PassageRef } from "../../src/scripture/references.js";
export type { SearchRequest as SearchInput, SearchResult as SearchHit, KeywordResult as KeywordHit } from "../../src/scripture/search/search.js";
export type BibleText = Bible;
export type BibleSource = BibleLibrary;

export type ScriptureSearcher = Pick<ScriptureSearch, "search" | "keyword">;

export interface ReferenceTools {
  /** The whole query as one passage reference, or null. */
  parsePassageQuery(query: string): ScriptureRef | null;
  formatReference(ref: ScriptureRef, lang: "en" | "es"): string;
}

export interface LinkTools {
  convertLinks(text: string): string;
  createLinkStream(): { push(chunk: string): string; flush(): string };
}

/** Where diagnostics go; a pino logger fits. Never given the key or message text. */
export interface GraphLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ChatDeps {
  models: ModelFactory;
  prompts: PromptRegistry;
  bibles: BibleSource;
  search: ScriptureSearcher;
  references: ReferenceTools;
  links: LinkTools;
  /** Used when a run's context names none (LangGraph Studio); the adapter always names them. */
  defaultModel: string;
  preflightModel: string;
  /** A key for runs whose context carries none: LangGraph Studio local debugging (.env) only; the service never sets it. */
  studioApiKey?: string | undefined;
  /** Agent model calls per request (AGENT_MAX_STEPS). */
  maxSteps: number;
  /** PROVIDER_TIMEOUT_MS: the longest wait for response headers or for the next stream chunk. */
  providerTimeoutMs: number;
  /** Host of OPENAI_BASE_URL, named in provider errors ("api.openai.com"). */
  providerName: string;
  logger?: GraphLogger;
  /** Provider calls, preflight decisions and tokens (docs/architecture.md, Metrics). */
  metrics?: MetricsRecorder;
}
