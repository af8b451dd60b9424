import OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParams,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { Client as LangSmithClient } from "langsmith";
import type { ChatRequestContext } from "./contract.js";
import { createProviderTransport } from "./provider-fetch.js";
import { postDirect, providerRoute, readBody, type ProviderRoute } from "./provider-request.js";
import { sseEvents } from "./provider-sse.js";
import { requestJson } from "./request-json.js";
import { DEFAULT_PROVIDER } from "./providers.js";

export type { ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool };

export interface ModelClientOptions {
  /** OPENAI_BASE_URL, including /v1: the default provider's. Only configuration sets it: no request field can move the key elsewhere. */
  baseURL: string;
  /** Named providers' base URLs (PROVIDER_<NAME>_BASE_URL), by name; a request's ctx.provider picks one. */
  providers?: ReadonlyMap<string, string> | undefined;
  timeoutMs: number;
  /**
   * LangSmith tracing (LANGSMITH_TRACING / LANGCHAIN_TRACING_V2): each provider call becomes a run with
   * its messages, output and usage. Off: direct requests (provider-request.ts), nothing wrapped, nothing loaded.
   */
  tracing?: boolean | { client?: LangSmithClient } | undefined;
}

/** One agent turn's request: the conversation, the tools, and whether tools are still allowed. */
export interface AgentRequest {
  messages: ChatCompletionMessageParam[];
  tools: ChatCompletionTool[];
  toolChoice?: ChatCompletionToolChoiceOption;
  /** How the system message starts in every such request (the prompt's core): its JSON is reused (request-json.ts). */
  systemPrefix?: string;
}

/** The classifier's request: the conversation and the JSON schema its answer must follow. */
export interface StructuredRequest {
  messages: ChatCompletionMessageParam[];
  schema: { name: string; schema: Record<string, unknown> };
  /** How the system message starts in every such request: its JSON is reused (request-json.ts). */
  systemPrefix?: string;
}

/**
 * How the graph calls the model provider: the `openai` SDK's requests and errors (the client @langchain/openai
 * wraps), with none of LangChain's per-call and per-token layers; untraced, the request is sent directly
 * (provider-request.ts), the SDK's headers and errors kept. Which provider, which base URL and which key
 * is decided here alone, so routing requests to several providers stays a change to this file.
 */
export interface ModelClient {
  /** The agent turn, always streamed (usage included), in both response modes. */
  streamAgent(ctx: ChatRequestContext, request: AgentRequest, signal: AbortSignal): Promise<AsyncIterable<ChatCompletionChunk>>;
  /** The preflight classifier: one completion constrained to a JSON schema. */
  classify(ctx: ChatRequestContext, request: StructuredRequest, signal: AbortSignal): Promise<ChatCompletion>;
}

/** A traced call's inputs are `{args: [body, requestOptions]}`: keep the body, never the options (headers hold the key). */
function onlyBody(inputs: Record<string, unknown>): Record<string, unknown> {
  const args = inputs.args;
  const body = Array.isArray(args) ? args[0] : undefined;
  return body && typeof body === "object" ? (body as Record<string, unknown>) : {};
}

/**
 * Chat Completions on purpose: every OpenAI-compatible provider serves /chat/completions.
 * No retries: provider errors are mapped for the caller, and hidden retries would multiply latency.
 */
export function createModelClient(options: ModelClientOptions): ModelClient {
  const providers = new Map<string, Promise<Provider>>();
  // One keep-alive transport for every provider (provider-fetch.ts: leaner than the global fetch). Traced
  // calls go through the SDK and the transport's `fetch`, whose event streams come in pieces of a few events
  // (provider-fetch.ts SSE_PIECE_BYTES) for the SDK's reader; untraced calls through its `post`, whose reads
  // sseEvents takes whole.
  const transport = createProviderTransport();
  // Per configured provider, holding no key: traced, a client (the caller's key rides on each request as its
  // Authorization header, which wins over the client's); untraced, the client's URL and headers, built once,
  // for direct requests (provider-request.ts) that add the caller's key. The key is dropped with the request.
  const providerFor = (ctx: ChatRequestContext): Promise<Provider> => {
    const name = ctx.provider?.name ?? DEFAULT_PROVIDER;
    const known = providers.get(name);
    if (known) return known;
    const baseURL = name === DEFAULT_PROVIDER ? options.baseURL : options.providers?.get(name);
    // The route comes from configuration (contract.modelFields); a name it does not hold is a bug, never a URL.
    if (baseURL === undefined) return Promise.reject(new Error(`no provider named '${name}' is configured`));
    const plain = new OpenAI({ apiKey: "key-sent-per-request", baseURL, timeout: options.timeoutMs, maxRetries: 0, fetch: transport.fetch });
    const provider = options.tracing
      ? traced(plain, options.tracing).then((client): Provider => ({ client }))
      : providerRoute(plain, "/chat/completions").then((route): Provider => ({ route }));
    providers.set(name, provider);
    return provider;
  };
  const headers = (ctx: ChatRequestContext) => ({ Authorization: `Bearer ${ctx.apiKey}` });
  // Untraced, the body is the JSON the SDK would write itself (the same bytes, request-json.ts), built with
  // the parts every request repeats serialized once, and sent as the SDK would send it, with its errors
  // (provider-request.ts). Traced, LangSmith's wrapper records `create`'s body object, so that path stays.
  const post = (route: ProviderRoute, ctx: ChatRequestContext, body: ChatCompletionCreateParams, systemPrefix: string | undefined, signal: AbortSignal) =>
    postDirect(transport, route, ctx.apiKey, requestJson(body as unknown as Record<string, unknown>, systemPrefix), signal, options.timeoutMs);
  const quirks = new ProviderQuirks();
  return {
    async streamAgent(ctx, request, signal) {
      const provider = ctx.provider?.name ?? DEFAULT_PROVIDER;
      const body: ChatCompletionCreateParamsStreaming = {
        model: ctx.provider?.model ?? ctx.model,
        messages: request.messages,
        tools: request.tools,
        ...(request.toolChoice ? { tool_choice: request.toolChoice } : {}),
        ...agentParams(ctx),
        stream: true,
        stream_options: { include_usage: true },
      };
      const { client, route } = await providerFor(ctx);
      for (const fallback of AGENT_FALLBACKS) if (quirks.has(provider, fallback.feature) && fallback.applies(body)) fallback.apply(body);
      // Each fallback takes its field out of the body, so this asks at most once more per fallback.
      for (;;) {
        try {
          // Untraced, the event stream is read by sseEvents (provider-sse.ts: the SDK's reading without its
          // generator chain). Traced, LangSmith's wrapper reads the SDK's stream to record the run.
          if (client) return await client.chat.completions.create(body, { signal, headers: headers(ctx) });
          return sseEvents<ChatCompletionChunk>(await post(route, ctx, body, request.systemPrefix, signal));
        } catch (err) {
          // A provider that refuses a field: ask once more without it, and never again (quirks are kept per process).
          const fallback = AGENT_FALLBACKS.find((f) => f.applies(body) && rejects(err, f.field));
          if (!fallback) throw err;
          quirks.add(provider, fallback.feature);
          fallback.apply(body);
        }
      }
    },
    async classify(ctx, request, signal) {
      const provider = ctx.provider?.name ?? DEFAULT_PROVIDER;
      // The classifier keeps the provider's defaults: the caller's sampling knobs are for the answer.
      const base = {
        model: ctx.preflightModel,
        ...(ctx.modelParams.user !== undefined ? { user: ctx.modelParams.user } : {}),
        stream: false as const,
      };
      const structured: ChatCompletionCreateParamsNonStreaming = {
        ...base,
        messages: request.messages,
        response_format: { type: "json_schema", json_schema: { name: request.schema.name, strict: true, schema: request.schema.schema } },
      };
      // Without structured outputs the same schema is asked for in words; what comes back is parsed the same way.
      const plainJson = (): ChatCompletionCreateParamsNonStreaming => ({ ...base, messages: withJsonInstruction(request) });
      const { client, route } = await providerFor(ctx);
      const send = async (body: ChatCompletionCreateParamsNonStreaming): Promise<ChatCompletion> =>
        client ? client.chat.completions.create(body, { signal, headers: headers(ctx) }) : readBody<ChatCompletion>(await post(route, ctx, body, request.systemPrefix, signal));
      if (quirks.has(provider, "json_schema")) return send(plainJson());
      try {
        return await send(structured);
      } catch (err) {
        if (!rejects(err, /response_format|json_schema|structured/i)) throw err;
        quirks.add(provider, "json_schema");
        return send(plainJson());
      }
    },
  };
}

/** One configured provider: traced, the client LangSmith wraps; untraced, where direct requests go. */
type Provider = { client: OpenAI; route?: undefined } | { client?: undefined; route: ProviderRoute };

/** The client wrapped so each call is a LangSmith run (tracing on; off, the wrapper is never loaded). */
function traced(plain: OpenAI, tracing: NonNullable<ModelClientOptions["tracing"]>): Promise<OpenAI> {
  const lsClient = typeof tracing === "object" ? tracing.client : undefined;
  return import("langsmith/wrappers/openai").then(
    ({ wrapOpenAI }) =>
      wrapOpenAI(plain, {
        tracingEnabled: true,
        ...(lsClient ? { client: lsClient } : {}),
        // The run records the request body only: the request options carry the caller's key.
        processInputs: onlyBody,
      } as Parameters<typeof wrapOpenAI>[1]) as unknown as OpenAI,
  );
}

/**
 * What a provider was found not to support, learned from its 400 answers and kept for the process:
 * the request is sent once more without the feature, and later requests go without it from the start.
 */
type Quirk = "stream_options" | "json_schema" | "max_completion_tokens";

class ProviderQuirks {
  private readonly seen = new Set<string>();
  has(provider: string, feature: Quirk): boolean {
    return this.seen.has(`${provider}\u0000${feature}`);
  }
  add(provider: string, feature: Quirk): void {
    this.seen.add(`${provider}\u0000${feature}`);
  }
}

/** What the agent call does without a field its provider refuses; each applies only when the body has the field. */
const AGENT_FALLBACKS: { feature: Quirk; field: RegExp; applies(body: ChatCompletionCreateParamsStreaming): boolean; apply(body: ChatCompletionCreateParamsStreaming): void }[] = [
  {
    // Usage is then estimated when the provider sends none.
    feature: "stream_options",
    field: /stream_options/i,
    applies: (body) => body.stream_options !== undefined,
    apply: (body) => delete body.stream_options,
  },
  {
    // Older OpenAI-compatible servers know only the older name for the same cap.
    feature: "max_completion_tokens",
    field: /max_completion_tokens/i,
    applies: (body) => body.max_completion_tokens != null,
    apply: (body) => {
      body.max_tokens = body.max_completion_tokens;
      delete body.max_completion_tokens;
    },
  },
];

/** A 400/422 whose message names the request field the provider does not accept. */
function rejects(err: unknown, field: RegExp): boolean {
  const e = err as { status?: unknown; message?: unknown } | null;
  return (e?.status === 400 || e?.status === 422) && typeof e.message === "string" && field.test(e.message);
}

/** The classifier's messages with the schema asked for in words (for providers without structured outputs). */
function withJsonInstruction(request: StructuredRequest): ChatCompletionMessageParam[] {
  const instruction = `Reply with one JSON object and nothing else, matching this JSON schema: ${JSON.stringify(request.schema.schema)}`;
  const [first, ...rest] = request.messages;
  if (first?.role === "system" && typeof first.content === "string") return [{ role: "system", content: `${first.content}\n\n${instruction}` }, ...rest];
  return [{ role: "system", content: instruction }, ...request.messages];
}

/** The caller's OpenAI parameters, passed through to the answer's provider calls. */
function agentParams(ctx: ChatRequestContext): Partial<ChatCompletionCreateParamsStreaming> {
  const p = ctx.modelParams;
  const out: Partial<ChatCompletionCreateParamsStreaming> = {};
  if (p.temperature !== undefined) out.temperature = p.temperature;
  if (p.top_p !== undefined) out.top_p = p.top_p;
  if (p.max_tokens !== undefined) out.max_tokens = p.max_tokens;
  if (p.max_completion_tokens !== undefined) out.max_completion_tokens = p.max_completion_tokens;
  if (p.reasoning_effort !== undefined) out.reasoning_effort = p.reasoning_effort;
  if (p.service_tier !== undefined) out.service_tier = p.service_tier;
  if (p.presence_penalty !== undefined) out.presence_penalty = p.presence_penalty;
  if (p.frequency_penalty !== undefined) out.frequency_penalty = p.frequency_penalty;
  if (p.stop !== undefined) out.stop = Array.isArray(p.stop) ? p.stop : [p.stop];
  if (p.seed !== undefined) out.seed = p.seed;
  if (p.user !== undefined) out.user = p.user;
  return out;
}
