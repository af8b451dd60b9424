import type { MetricsRecorder } from "../../src/metrics.js";
import type { PromptRegistry } from "../../src/prompts/loader.js";
import type { BibleLibrary, VerseText } from "../../src/scripture/corpus.js";
import type { LinkOptions } from "../../src/scripture/links.js";
import type { ScriptureRef } from "../../src/scripture/references.js";
import type { StudyLibrary } from "../../src/study/library.js";
import type { ScriptureSearch } from "../../src/scripture/search/search.js";
import type { ChatRequestContext, RequestCatalog } from "./contract.js";
import type { ModelClient } from "./models.js";

/**
 * What the graph needs from the rest of the service. buildChatRuntime (runtime.ts) assembles them from
 * configuration for the service, LangGraph Studio and the tests alike; buildChatGraph only wires them.
 * The shapes follow docs/architecture.md.
 */

// The corpus, references and search are typed by their own modules, so the graph cannot drift from them.
export type { VerseText };
export type { ScriptureRef as PassageRef };
export type BibleSource = BibleLibrary;

export type ScriptureSearcher = Pick<ScriptureSearch, "search" | "keyword">;

export interface ReferenceTools {
  /** The whole query as one passage reference, or null. */
  parsePassageQuery(query: string): ScriptureRef | null;
  formatReference(ref: ScriptureRef, lang: "en" | "es"): string;
  /** The passages referred to in prose ("What does John 3:16 mean?"), in order; the chat runtime always sets it (prefetch.ts). */
  findReferences?(text: string): { ref: ScriptureRef }[];
}

export interface LinkTools {
  convertLinks(text: string, options?: LinkOptions): string;
  /** `linked`: the passages linked so far, for the answer's citations. */
  createLinkStream(options?: LinkOptions): { push(chunk: string): string; flush(): string; readonly linked?: readonly ScriptureRef[] };
}

/** Where diagnostics go; a pino logger fits. Never given the key or message text. */
export interface GraphLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ChatDeps {
  /** The provider calls (graphs/chat/models.ts): the caller's key and model come from each request's context. */
  models: ModelClient;
  prompts: PromptRegistry;
  /** The contract's checks read slugs, translations and books here (built from prompts). */
  catalog: RequestCatalog;
  bibles: BibleSource;
  /** Lexicon, word tags, commentaries and topics (src/study); the word_study, commentary and topics tools fall back to the process's shared library. */
  study?: StudyLibrary;
  search: ScriptureSearcher;
  references: ReferenceTools;
  links: LinkTools;
  /** Used when a run's context names none (LangGraph Studio); the adapter always names them. */
  defaultModel: string;
  preflightModel: string;
  /** A key for runs whose context carries none: LangGraph Studio local debugging (.env) only; the service never sets it. */
  studioApiKey?: string | undefined;
  /** On a LangGraph server (studio.ts): the key comes from STUDIO_API_KEY only and a key in a run's context is refused. */
  keyFromEnvironment?: boolean | undefined;
  /**
   * The answer to a run with no key at all, where a caller cannot send one (LangGraph Studio: it says
   * where the key goes); unset, such a run fails with the contract's missing_api_key error.
   */
  missingKeyReply?: string | undefined;
  /** PREFLIGHT_MODE: whether the agent's first call starts beside the classifier (speculation.ts) or after its verdict. */
  preflightMode: "parallel" | "sequential";
  /** Agent model calls per request (AGENT_MAX_STEPS): the one source of the step limit. */
  maxSteps: number;
  /** PROVIDER_TIMEOUT_MS: the longest wait for response headers or for the next stream chunk. */
  providerTimeoutMs: number;
  /** The provider a request's calls go to, as provider errors name it: "default" (OPENAI_BASE_URL) or the <name> of PROVIDER_<NAME>_*, never its address. */
  providerNameFor(ctx: ChatRequestContext): string;
  logger?: GraphLogger;
  /** SUPPORT_REPLY: "empty" (the spec's blank answer to a support question) or "text" (prompts/canned/support.*.md). */
  supportReply?: "empty" | "text";
  /** PUBLIC_BASE_URL: reader links and citation URLs become absolute. */
  publicBaseUrl?: string | undefined;
  /** Provider calls, preflight decisions and tokens (docs/architecture.md, Metrics). */
  metrics?: MetricsRecorder;
}
