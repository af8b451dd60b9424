import { ChatOpenAICompletions, getEndpoint, getHeadersWithUserAgent, OpenAIClient } from "@langchain/openai";
import type { ModelFactory } from "./deps.js";

export interface ModelFactoryOptions {
  /** OPENAI_BASE_URL, including /v1. Only configuration sets it: no request field can move the key elsewhere. */
  baseURL: string;
  timeoutMs: number;
}

/**
 * The Chat Completions flavour of ChatOpenAI on purpose: every OpenAI-compatible provider serves
 * /chat/completions, while ChatOpenAI may switch some model names to the Responses API.
 * No retries: provider errors are mapped for the caller, and hidden retries would multiply latency.
 */
export function createModelFactory(options: ModelFactoryOptions): ModelFactory {
  // One OpenAI client for every call, holding no key: building one per call cost ~1.7 ms. The
  // caller's key rides on each request as its Authorization header (request headers win over the
  // client's), through the per-request model below, which is dropped with the request.
  const client = new OpenAIClient({
    apiKey: "key-sent-per-request",
    baseURL: getEndpoint({ baseURL: options.baseURL }),
    timeout: options.timeoutMs,
    maxRetries: 0,
    defaultHeaders: getHeadersWithUserAgent({}),
  });
  return (ctx, purpose) => {
    const p = ctx.modelParams;
    const forAgent = purpose === "agent";
    const stop = p.stop === undefined ? undefined : Array.isArray(p.stop) ? p.stop : [p.stop];
    const kwargs: Record<string, unknown> = {};
    if (p.seed !== undefined) kwargs.seed = p.seed;
    // `headers` is no client option: the model spreads its configuration into every request's options.
    const configuration = { baseURL: options.baseURL, headers: { Authorization: `Bearer ${ctx.apiKey}` } };
    const model = new ChatOpenAICompletions({
      model: forAgent ? ctx.model : ctx.preflightModel,
      apiKey: ctx.apiKey,
      configuration,
      timeout: options.timeoutMs,
      maxRetries: 0,
      streaming: forAgent,
      streamUsage: true,
      // The classifier keeps the provider's defaults: the caller's sampling knobs are for the answer.
      ...(forAgent && p.temperature !== undefined ? { temperature: p.temperature } : {}),
      ...(forAgent && p.top_p !== undefined ? { topP: p.top_p } : {}),
      ...(forAgent && p.max_tokens !== undefined ? { maxTokens: p.max_tokens } : {}),
      ...(forAgent && p.presence_penalty !== undefined ? { presencePenalty: p.presence_penalty } : {}),
      ...(forAgent && p.frequency_penalty !== undefined ? { frequencyPenalty: p.frequency_penalty } : {}),
      ...(forAgent && stop ? { stop } : {}),
      ...(p.user !== undefined ? { user: p.user } : {}),
      ...(forAgent && Object.keys(kwargs).length > 0 ? { modelKwargs: kwargs } : {}),
    });
    model.client = client;
    return model;
  };
}
