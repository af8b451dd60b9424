import OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { Client as LangSmithClient } from "langsmith";
import type { ChatRequestContext } from "./contract.js";

export type { ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool };

export interface ModelClientOptions {
  /** OPENAI_BASE_URL, including /v1. Only configuration sets it: no request field can move the key elsewhere. */
  baseURL: string;
  timeoutMs: number;
  /**
   * LangSmith tracing (LANGSMITH_TRACING / LANGCHAIN_TRACING_V2): each provider call becomes a run with
   * its messages, output and usage. Off: the plain client, nothing wrapped, nothing loaded.
   */
  tracing?: boolean | { client?: LangSmithClient } | undefined;
}

/** One agent turn's request: the conversation, the tools, and whether tools are still allowed. */
export interface AgentRequest {
  messages: ChatCompletionMessageParam[];
  tools: ChatCompletionTool[];
  toolChoice?: ChatCompletionToolChoiceOption;
}

/** The classifier's request: the conversation and the JSON schema its answer must follow. */
export interface StructuredRequest {
  messages: ChatCompletionMessageParam[];
  schema: { name: string; schema: Record<string, unknown> };
}

/**
 * How the graph calls the model provider: the plain `openai` client (the one @langchain/openai wraps),
 * with none of LangChain's per-call and per-token layers. Which provider, which base URL and which key
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
  // One client for every call, holding no key: the caller's key rides on each request as its
  // Authorization header (request headers win over the client's) and is dropped with the request.
  const plain = new OpenAI({ apiKey: "key-sent-per-request", baseURL: options.baseURL, timeout: options.timeoutMs, maxRetries: 0 });
  let client: Promise<OpenAI> | undefined;
  const clientFor = (): Promise<OpenAI> => {
    if (client) return client;
    const tracing = options.tracing;
    if (!tracing) return (client = Promise.resolve(plain));
    const lsClient = typeof tracing === "object" ? tracing.client : undefined;
    return (client = import("langsmith/wrappers/openai").then(
      ({ wrapOpenAI }) =>
        wrapOpenAI(plain, {
          tracingEnabled: true,
          ...(lsClient ? { client: lsClient } : {}),
          // The run records the request body only: the request options carry the caller's key.
          processInputs: onlyBody,
        } as Parameters<typeof wrapOpenAI>[1]) as unknown as OpenAI,
    ));
  };
  const headers = (ctx: ChatRequestContext) => ({ Authorization: `Bearer ${ctx.apiKey}` });
  return {
    async streamAgent(ctx, request, signal) {
      const body: ChatCompletionCreateParamsStreaming = {
        model: ctx.model,
        messages: request.messages,
        tools: request.tools,
        ...(request.toolChoice ? { tool_choice: request.toolChoice } : {}),
        ...agentParams(ctx),
        stream: true,
        stream_options: { include_usage: true },
      };
      return (await clientFor()).chat.completions.create(body, { signal, headers: headers(ctx) });
    },
    async classify(ctx, request, signal) {
      // The classifier keeps the provider's defaults: the caller's sampling knobs are for the answer.
      const body: ChatCompletionCreateParamsNonStreaming = {
        model: ctx.preflightModel,
        messages: request.messages,
        response_format: { type: "json_schema", json_schema: { name: request.schema.name, strict: true, schema: request.schema.schema } },
        ...(ctx.modelParams.user !== undefined ? { user: ctx.modelParams.user } : {}),
        stream: false,
      };
      return (await clientFor()).chat.completions.create(body, { signal, headers: headers(ctx) });
    },
  };
}

/** The caller's OpenAI parameters, passed through to the answer's provider calls. */
function agentParams(ctx: ChatRequestContext): Partial<ChatCompletionCreateParamsStreaming> {
  const p = ctx.modelParams;
  const out: Partial<ChatCompletionCreateParamsStreaming> = {};
  if (p.temperature !== undefined) out.temperature = p.temperature;
  if (p.top_p !== undefined) out.top_p = p.top_p;
  if (p.max_tokens !== undefined) out.max_tokens = p.max_tokens;
  if (p.presence_penalty !== undefined) out.presence_penalty = p.presence_penalty;
  if (p.frequency_penalty !== undefined) out.frequency_penalty = p.frequency_penalty;
  if (p.stop !== undefined) out.stop = Array.isArray(p.stop) ? p.stop : [p.stop];
  if (p.seed !== undefined) out.seed = p.seed;
  if (p.user !== undefined) out.user = p.user;
  return out;
}
