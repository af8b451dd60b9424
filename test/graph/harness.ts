import { loadConfig } from "../../src/config.js";
import { loadPrompts, type PromptRegistry } from "../../src/prompts/loader.js";
import { loadBibleLibrary, type BibleLibrary } from "../../src/scripture/corpus.js";
import type { ChatGraph } from "../../graphs/chat/graph.js";
import type { ChatDeps } from "../../graphs/chat/deps.js";
import { buildChatRuntime, type ChatRuntimeParts } from "../../graphs/chat/runtime.js";
import type { ChatOutcome, ChatRequestContext, ChatTurn } from "../../graphs/chat/contract.js";
import { toHttpError } from "../../src/http/chat/errors.js";
import { match, messageText, reply, startFakeProvider, type ChatRequest, type FakeProvider } from "../fakes/index.js";

export const KEY = "sk-graph-test-0123456789abcdef";

let bibles: BibleLibrary | undefined;
let prompts: PromptRegistry | undefined;

export interface LogLine {
  level: "warn" | "error";
  obj: object;
  msg: string | undefined;
}

export interface Harness {
  provider: FakeProvider;
  deps: ChatDeps;
  graph: ChatGraph;
  logs: LogLine[];
  run(
    turns: ChatTurn[] | string,
    ctx?: Partial<ChatRequestContext>,
    /** `deltas`: an array that receives the streamed pieces, kept also when the run fails. */
    opts?: { signal?: AbortSignal; stream?: boolean; deltas?: string[] },
  ): Promise<ChatOutcome & { deltas: string[]; content: string }>;
  /** The provider calls that offered tools: the agent's turns, preflight left out. */
  agentCalls(): ChatRequest[];
  /**
   * The agent calls `name` with `args` in its first turn (after the service's prefetched turn), then
   * answers `answer` once it has that call's result.
   */
  scriptToolTurn(name: string, args: unknown, answer?: string): void;
  close(): Promise<void>;
}

/**
 * The results of the latest tool round a provider call carried (the tool messages after its last
 * assistant tool-call message), as the model reads them: after a scripted tool turn, that tool's
 * results; in a first call, the service's prefetched turn.
 */
export const toolResults = (r: ChatRequest): string[] => {
  const messages = r.body.messages;
  const round = messages.map((m) => (m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0 ? 1 : 0)).lastIndexOf(1);
  return messages.slice(round + 1).filter((m) => m.role === "tool").map(messageText);
};

/** The tool calls of the latest assistant tool-call message a provider call carried. */
export const lastToolCalls = (r: ChatRequest) => r.body.messages.filter((m) => m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0).at(-1)?.tool_calls ?? [];

/** Matches a provider call that carries the result of the tool call `id` (the model's own call, not the prefetched turn). */
export const answers =
  (id: string) =>
  (r: ChatRequest): boolean =>
    r.body.messages.some((m) => m.role === "tool" && m.tool_call_id === id);

let scripted = 0;

export function context(overrides: Partial<ChatRequestContext> = {}): ChatRequestContext {
  return {
    apiKey: KEY,
    model: "gpt-4o-mini",
    preflightModel: "gpt-4.1-mini",
    theology: "default",
    profile: "universal_explorer",
    bibleId: "eng-web",
    maxWords: 300,
    convertLinks: false,
    verifyQuotes: true,
    skipPreflight: false,
    modelParams: {},
    ...overrides,
  };
}

export interface HarnessOptions extends Partial<Omit<ChatRuntimeParts, "logger">> {
  /** AGENT_MAX_STEPS (4 unless set). */
  maxSteps?: number;
  /** PROVIDER_TIMEOUT_MS (5 s unless set). */
  providerTimeoutMs?: number;
  /** LANGSMITH_TRACING (off unless set). */
  tracing?: boolean;
  /** SUPPORT_REPLY (the default, "empty", unless set). */
  supportReply?: "empty" | "text";
  /** PREFLIGHT_MODE (the service's default, parallel, unless set). */
  preflightMode?: "parallel" | "sequential";
}

/**
 * The real runtime (buildChatRuntime) with real prompts, corpus and references, against the fake
 * provider over HTTP. Errors leave run() as the HTTP edge maps them (toHttpError), as callers see them.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const provider = await startFakeProvider();
  bibles ??= loadBibleLibrary();
  prompts ??= loadPrompts();
  const logs: LogLine[] = [];
  const { maxSteps = 4, providerTimeoutMs = 5_000, tracing = false, supportReply, preflightMode, ...parts } = options;
  const config = loadConfig({
    OPENAI_BASE_URL: provider.baseURL,
    AGENT_MAX_STEPS: String(maxSteps),
    PROVIDER_TIMEOUT_MS: String(providerTimeoutMs),
    DEFAULT_MODEL: "gpt-4o-mini",
    PREFLIGHT_MODEL: "gpt-4.1-mini",
    LANGSMITH_TRACING: String(tracing),
    SUPPORT_REPLY: supportReply,
    PREFLIGHT_MODE: preflightMode,
  });
  const runtime = buildChatRuntime(config, {
    prompts,
    bibles,
    search: {
      search: async () => {
        throw new Error("no search index in this test");
      },
      keyword: async () => {
        throw new Error("no search index in this test");
      },
    },
    logger: {
      warn: (obj, msg) => logs.push({ level: "warn", obj, msg }),
      error: (obj, msg) => logs.push({ level: "error", obj, msg }),
    },
    ...parts,
  });
  const { deps, graph } = runtime;
  return {
    provider,
    deps,
    graph,
    logs,
    async run(turns, ctx = {}, opts = {}) {
      const list: ChatTurn[] = typeof turns === "string" ? [{ role: "user", content: turns }] : turns;
      const deltas: string[] = opts.deltas ?? [];
      const outcome = await runtime
        .run(list, context(ctx), {
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(opts.stream === false ? {} : { onDelta: (t: string) => deltas.push(t) }),
        })
        .catch((err: unknown) => Promise.reject(toHttpError(err)));
      // Every outcome has some text; tests read it as content whatever the kind.
      return { ...outcome, deltas, content: outcome.kind === "rejected" ? outcome.message : outcome.content };
    },
    agentCalls: () => provider.chatRequests.filter((r) => (r.body.tools?.length ?? 0) > 0),
    scriptToolTurn(name, args, answer = "Done.") {
      // The answer waits for this call's own result: the prefetched turn's results are not it.
      const id = `call_scripted${++scripted}`;
      provider.on(match.all(match.agent(), answers(id)), reply.text(answer));
      provider.on(match.agent(), reply.toolCalls([{ name, args, id }]));
    },
    close: () => provider.close(),
  };
}
