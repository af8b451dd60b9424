import { GraphRecursionError } from "@langchain/langgraph";
import type { Client as LangSmithClient } from "langsmith";
import type { Config } from "../../src/config.js";
import type { MetricsRecorder } from "../../src/metrics.js";
import type { PromptRegistry } from "../../src/prompts/loader.js";
import { convertLinks, createLinkStream } from "../../src/scripture/links.js";
import { findReferences, formatReference, parsePassageQuery } from "../../src/scripture/references.js";
import { ANSWER_SINK } from "./answer/answer-stream.js";
import { type ChatOutcome, type ChatRequestContext, type Citation, type ChatTurn, DEFAULT_API_KEY_PREFIXES, isIntercepted, isRejected, type RequestCatalog, requestCatalog, type RunChatOptions } from "./contract.js";
import type { BibleSource, ChatDeps, GraphLogger, LinkTools, ScriptureSearcher } from "./deps.js";
import { careOnProviderFailure } from "./care-on-failure.js";
import { agentStepLimit } from "./errors.js";
import { buildChatGraph, type ChatGraph } from "./graph.js";
import { toMessages } from "./messages.js";
import { createModelClient } from "./models.js";
import { DEFAULT_PROVIDER, providerTable, type ProviderTable } from "./providers.js";
import type { ChatStateValue } from "./state.js";
import { addUsage, NO_USAGE } from "./usage.js";
import { discardSpeculation } from "./speculation.js";
import { installLeanRunContext, NO_AMBIENT_CONFIG } from "./run-context.js";
import { installPooledRandom } from "./random-pool.js";
import { withAnswerCache } from "./search-cache.js";

/** The configuration the chat runtime reads (src/config.ts is its only source). */
export type ChatRuntimeConfig = Pick<
  Config,
  "provider" | "defaultModel" | "preflightModel" | "agentMaxSteps" | "studioApiKey" | "tracing" | "apiKeyPrefixes" | "supportReply" | "preflightMode"
> &
  Partial<Pick<Config, "publicBaseUrl" | "providers" | "models">> & {
    /** Set by the LangGraph server's entry (studio.ts) only: see ChatDeps.keyFromEnvironment. */
    keyFromEnvironment?: boolean;
    missingKeyReply?: string | undefined;
  };

/** The providers configuration names: OPENAI_BASE_URL (with MODELS, PREFLIGHT_MODEL, API_KEY_PREFIXES) and each PROVIDER_<NAME>_*. */
export function providersFrom(config: ChatRuntimeConfig): ProviderTable {
  return providerTable(
    {
      name: DEFAULT_PROVIDER,
      baseURL: config.provider.baseURL,
      models: config.models ?? [config.defaultModel],
      preflightModel: config.preflightModel,
      keyRule: config.apiKeyPrefixes ?? DEFAULT_API_KEY_PREFIXES,
    },
    (config.providers ?? []).map((p) => ({
      name: p.name,
      baseURL: p.baseURL,
      models: p.models,
      preflightModel: p.preflightModel,
      keyRule: p.keyPrefixes ?? DEFAULT_API_KEY_PREFIXES,
    })),
  );
}

/** What the runtime is built over: loaded data and services the caller owns (and may build lazily). */
export interface ChatRuntimeParts {
  prompts: PromptRegistry;
  bibles: BibleSource;
  search: ScriptureSearcher;
  logger?: GraphLogger | undefined;
  metrics?: MetricsRecorder | undefined;
  /** Reader links; the shipped converter unless a test breaks it on purpose. */
  links?: LinkTools | undefined;
  /** Where traced provider calls go when tracing is on (a test's client); LangSmith's default otherwise. */
  tracingClient?: LangSmithClient | undefined;
}

export type RunChat = (turns: ChatTurn[], ctx: ChatRequestContext, opts: RunChatOptions) => Promise<ChatOutcome>;

export interface ChatRuntime {
  deps: ChatDeps;
  graph: ChatGraph;
  /** The request contract's catalog, for the HTTP adapter's checks. */
  catalog: RequestCatalog;
  /** One chat request through the graph (see runChat). */
  run: RunChat;
}

/** Enough supersteps for validate, preflight, retrieval, every agent/tools round and link conversion. */
export function recursionLimitFor(maxSteps: number): number {
  return 2 * maxSteps + 7;
}

/**
 * The graph's dependencies from configuration and parts. Every field reads its source when first
 * used, so a lazy config or lazy parts (LangGraph Studio) load nothing until a run needs them.
 */
export function chatDeps(config: ChatRuntimeConfig, parts: ChatRuntimeParts): ChatDeps {
  let models: ChatDeps["models"] | undefined;
  let catalog: RequestCatalog | undefined;
  let providers: ProviderTable | undefined;
  let search: ScriptureSearcher | undefined;
  const table = () => (providers ??= providersFrom(config));
  return {
    get models() {
      return (models ??= createModelClient({
        baseURL: config.provider.baseURL,
        providers: new Map(table().all().filter((p) => p.name !== DEFAULT_PROVIDER).map((p) => [p.name, p.baseURL])),
        timeoutMs: config.provider.timeoutMs,
        tracing: config.tracing && (parts.tracingClient ? { client: parts.tracingClient } : true),
      }));
    },
    get prompts() {
      return parts.prompts;
    },
    get catalog() {
      return (catalog ??= requestCatalog(parts.prompts, table()));
    },
    get bibles() {
      return parts.bibles;
    },
    get search() {
      // An identical search within the same index is answered once (search-cache.ts).
      return (search ??= withAnswerCache(parts.search));
    },
    references: { parsePassageQuery, formatReference, findReferences },
    get links() {
      return parts.links ?? { convertLinks, createLinkStream };
    },
    get defaultModel() {
      return config.defaultModel;
    },
    get preflightModel() {
      return config.preflightModel;
    },
    get studioApiKey() {
      return config.studioApiKey;
    },
    keyFromEnvironment: config.keyFromEnvironment,
    get missingKeyReply() {
      return config.missingKeyReply;
    },
    get maxSteps() {
      return config.agentMaxSteps;
    },
    get preflightMode() {
      return config.preflightMode;
    },
    get providerTimeoutMs() {
      return config.provider.timeoutMs;
    },
    providerNameFor(ctx) {
      const named = ctx.provider && table().byName(ctx.provider.name);
      return named ? named.name : DEFAULT_PROVIDER;
    },
    get logger() {
      return parts.logger;
    },
    get publicBaseUrl() {
      return config.publicBaseUrl;
    },
    get supportReply() {
      return config.supportReply;
    },
    get metrics() {
      return parts.metrics;
    },
  };
}

/** The one way to build the chat runtime: used by the service, LangGraph Studio and every test. */
export function buildChatRuntime(config: ChatRuntimeConfig, parts: ChatRuntimeParts): ChatRuntime {
  // No LangSmith RunTree per runnable call while nothing traces (run-context.ts).
  installLeanRunContext();
  // LangGraph's checkpoint ids draw their random bytes from a pool, not one crypto call each (random-pool.ts).
  installPooledRandom();
  const deps = chatDeps(config, parts);
  const graph = buildChatGraph(deps);
  return {
    deps,
    graph,
    get catalog() {
      return deps.catalog;
    },
    // A provider failure on a message that needs care becomes the canned crisis reply (care-on-failure.ts).
    run: (turns, ctx, opts = {}) => careOnProviderFailure(deps, turns, ctx, opts, (o) => runChat(graph, deps, turns, ctx, o)),
  };
}

/**
 * Runs one chat request through the graph. Answer text reaches onDelta in its final form as it is
 * produced; the promise resolves with the outcome, or rejects with a ChatError (provider failures
 * mapped per the contract), or with the abort reason when opts.signal fired.
 */
async function runChat(graph: ChatGraph, deps: ChatDeps, turns: ChatTurn[], ctx: ChatRequestContext, opts: RunChatOptions): Promise<ChatOutcome> {
  let usage = NO_USAGE;
  const onDelta = opts.onDelta;
  // Built from the nodes' updates: "values" mode would copy the whole state (messages included) at
  // every superstep, while the outcome needs only these last-value fields.
  let final: Pick<ChatStateValue, "category" | "content" | "finishReason" | "promptVersions" | "citations" | "quotes"> | undefined;
  try {
    // The run's own iterator, which `graph.stream` wraps: the same updates in the same order, without the
    // two web streams, the abort controller and the per-update context switch the wrapper puts around it
    // for callers that cancel a stream (this loop reads every update; a caller's abort reaches the run
    // through `signal`, which LangGraph's runner races against every step). docs/performance.md, session 14.
    const stream = graph._streamIterator(
      { messages: toMessages(turns) },
      {
        context: ctx as unknown as Record<string, unknown>,
        // Updates only: answer pieces go to onDelta directly through the answer sink, not as one
        // custom-stream event each; a run without a listener (a non-stream request) sets the sink to null,
        // and the agent grounds its answer once, whole (answer-stream.ts), instead of piece by piece.
        streamMode: ["updates"],
        // The graph's nodes read their config from their arguments: LangChain stores it nowhere while
        // nothing traces, and Node's async hooks stay off (run-context.ts).
        configurable: { [ANSWER_SINK]: onDelta ? (text: string) => text && onDelta(text) : null, [NO_AMBIENT_CONFIG]: true },
        recursionLimit: recursionLimitFor(deps.maxSteps),
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
    );
    for await (const [mode, data] of stream as AsyncIterable<[string, unknown]>) {
      if (mode === "updates") {
        final ??= { category: null, content: "", finishReason: null, promptVersions: "", citations: [], quotes: { verified: 0, corrected: 0, unquoted: 0 } };
        for (const update of Object.values(data as Record<string, Partial<ChatStateValue> | null>)) {
          if (!update) continue;
          if (update.category !== undefined) final.category = update.category;
          if (typeof update.care === "boolean") opts.onCare?.(update.care);
          if (update.content !== undefined) final.content = update.content;
          if (update.finishReason !== undefined) final.finishReason = update.finishReason;
          if (update.promptVersions !== undefined) final.promptVersions = update.promptVersions;
          // Each node's update holds its own calls' usage; the state sums them the same way.
          if (update.usage !== undefined) usage = addUsage(usage, update.usage);
          if (update.citations !== undefined) final.citations = update.citations;
          if (update.quotes !== undefined) final.quotes = update.quotes;
        }
      }
    }
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? err;
    if (err instanceof GraphRecursionError) throw agentStepLimit(deps.maxSteps);
    throw err;
  } finally {
    // A speculative agent call no step adopted (the run failed or was aborted in between) is closed here.
    discardSpeculation(ctx);
  }
  if (!final) throw new Error("chat graph produced no state");
  const category = final.category;
  if (isRejected(category)) return { kind: "rejected", category, message: final.content, usage };
  if (isIntercepted(category)) {
    return { kind: "canned", category, content: final.content, usage, promptVersions: final.promptVersions };
  }
  deps.metrics?.quotations?.(final.quotes);
  return {
    kind: "answer",
    content: final.content,
    finishReason: final.finishReason ?? "stop",
    usage,
    promptVersions: final.promptVersions,
    citations: final.citations as unknown as Citation[],
    quotes: final.quotes,
  };
}
