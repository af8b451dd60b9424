/**
 * OpenAI Chat Completions wire shapes, as api.openai.com sends them, so that the official SDK and
 * ChatOpenAI cannot tell the fake from the real provider.
 */

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

export interface WireToolCall {
  id: string;
  name: string;
  /** Raw JSON text; may deliberately be invalid. */
  arguments: string;
}

export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

export const SYSTEM_FINGERPRINT = "fp_fake0001";

/** Four characters a token, at least one: close enough to BPE for plausible, deterministic counts. */
export function estimateTokens(chars: number): number {
  return chars === 0 ? 0 : Math.max(1, Math.ceil(chars / 4));
}

export function makeUsage(promptTokens: number, completionTokens: number): Usage {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function toolCallsJson(calls: WireToolCall[]) {
  return calls.map((call) => ({
    id: call.id,
    type: "function" as const,
    function: { name: call.name, arguments: call.arguments },
  }));
}

export function completionBody(
  meta: CompletionMeta,
  content: string | null,
  toolCalls: WireToolCall[],
  finishReason: FinishReason,
  usage: Usage,
) {
  const message: Record<string, unknown> = {
    role: "assistant",
    content,
    refusal: null,
    annotations: [],
  };
  if (toolCalls.length > 0) message.tool_calls = toolCallsJson(toolCalls);
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage,
    service_tier: "default",
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

/**
 * Builds the `data:` frames of one streamed completion. `withUsage` mirrors OpenAI: every chunk
 * then carries `usage: null`, and a last chunk with `choices: []` carries the totals.
 */
export class ChunkWriter {
  constructor(
    private readonly meta: CompletionMeta,
    private readonly withUsage: boolean,
  ) {}

  private frame(choices: unknown[], usage?: Usage): string {
    const chunk: Record<string, unknown> = {
      id: this.meta.id,
      object: "chat.completion.chunk",
      created: this.meta.created,
      model: this.meta.model,
      service_tier: "default",
      system_fingerprint: SYSTEM_FINGERPRINT,
      choices,
    };
    if (this.withUsage) chunk.usage = usage ?? null;
    return `data: ${JSON.stringify(chunk)}\n\n`;
  }

  private delta(delta: Record<string, unknown>, finishReason: FinishReason | null = null): string {
    return this.frame([{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
  }

  role(content: string | null = ""): string {
    return this.delta({ role: "assistant", content, refusal: null });
  }

  content(text: string): string {
    return this.delta({ content: text });
  }

  /** The first piece of a tool call names it; later pieces only extend `arguments`. */
  toolCallStart(index: number, call: WireToolCall, content?: string | null): string {
    return this.delta({
      ...(content !== undefined ? { content } : {}),
      tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
    });
  }

  toolCallArguments(index: number, piece: string): string {
    return this.delta({ tool_calls: [{ index, function: { arguments: piece } }] });
  }

  finish(reason: FinishReason): string {
    return this.delta({}, reason);
  }

  usage(usage: Usage): string {
    return this.frame([], usage);
  }

  static done(): string {
    return "data: [DONE]\n\n";
  }
}

export interface OpenAIErrorObject {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

const DEFAULT_ERRORS: Record<number, Omit<OpenAIErrorObject, "param">> = {
  400: { message: "Invalid request.", type: "invalid_request_error", code: null },
  401: {
    message: "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.",
    type: "invalid_request_error",
    code: "invalid_api_key",
  },
  403: { message: "You are not allowed to sample from this model.", type: "invalid_request_error", code: null },
  404: {
    message: "The model does not exist or you do not have access to it.",
    type: "invalid_request_error",
    code: "model_not_found",
  },
  429: {
    message: "Rate limit reached for requests. Please try again later.",
    type: "requests",
    code: "rate_limit_exceeded",
  },
  500: { message: "The server had an error while processing your request.", type: "server_error", code: null },
  503: { message: "The engine is currently overloaded, please try again later.", type: "server_error", code: null },
};

export function defaultErrorFor(status: number): OpenAIErrorObject {
  const known = DEFAULT_ERRORS[status] ?? {
    message: `Upstream error ${status}.`,
    type: status >= 500 ? "server_error" : "invalid_request_error",
    code: null,
  };
  return { ...known, param: null };
}
