import { randomUUID } from "node:crypto";
import type { Citation, Usage } from "../../../graphs/chat/contract.js";
import type { AppError } from "../../errors.js";
import type { SseWriter } from "../sse.js";
import type { SpokenOutcome, StreamRenderer } from "../chat/wire-format.js";
import type { ResponseEcho } from "./request.js";
import type {
  Response,
  ResponseOutputMessage,
  ResponseOutputText,
  ResponseStreamEvent,
  ResponseUsage,
} from "openai/resources/responses/responses";
import type { ReasoningEffort } from "openai/resources/shared";

/**
 * The Response object and its stream events, shaped as openai-node's types declare them
 * (`Response`, `ResponseStreamEvent` in openai/resources/responses): one assistant message holding one
 * output_text part. Our extra: `citations`, as on chat completions.
 */

type Status = "in_progress" | "completed" | "incomplete" | "failed";

/**
 * A Response as it travels: `output_text` is no field of the wire format (openai-node adds it on
 * receipt). Typing what we build with openai-node's own types makes the compiler check every field.
 */
export type WireResponse = Omit<Response, "output_text"> & {
  citations?: Citation[];
  /** Returned by OpenAI's API though openai-node's type lacks it: always false here (nothing is kept). */
  store?: boolean;
};
type WireEvent = ResponseStreamEvent extends infer E
  ? E extends { response: Response }
    ? Omit<E, "response"> & { response: WireResponse }
    : E
  : never;

export interface ResponseMeta {
  id: string;
  itemId: string;
  createdAt: number;
  model: string;
  echo: ResponseEcho;
}

const hex = () => randomUUID().replace(/-/g, "");

export function responseMeta(model: string, echo: ResponseEcho, now = Date.now()): ResponseMeta {
  return { id: `resp_${hex()}`, itemId: `msg_${hex()}`, createdAt: Math.floor(now / 1000), model, echo };
}

export function responseUsage(usage: Usage): ResponseUsage {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.total_tokens,
  };
}

function textPart(text: string): ResponseOutputText {
  return { type: "output_text", text, annotations: [], logprobs: [] };
}

function messageItem(meta: ResponseMeta, status: ResponseOutputMessage["status"], text: string | undefined): ResponseOutputMessage {
  return { id: meta.itemId, type: "message" as const, status, role: "assistant" as const, content: text === undefined ? [] : [textPart(text)] };
}

/** OpenAI's closed set of `response.error.code`; the precise code of ours travels in the `error` event. */
function responseErrorCode(err: AppError): NonNullable<Response["error"]>["code"] {
  if (err.status === 429) return "rate_limit_exceeded";
  if (err.status < 500) return "invalid_prompt";
  return "server_error";
}

interface Ending {
  status: Status;
  /** Why an incomplete response stopped: a length cut reads as max_output_tokens, as at OpenAI. */
  incomplete?: "max_output_tokens" | "content_filter";
  output: ResponseOutputMessage[];
  usage?: Usage;
  error?: AppError;
  citations?: Citation[] | undefined;
}

export function responseObject(meta: ResponseMeta, end: Ending): WireResponse {
  const { echo } = meta;
  const body: WireResponse = {
    id: meta.id,
    object: "response",
    created_at: meta.createdAt,
    status: end.status,
    background: false,
    error: end.error ? { code: responseErrorCode(end.error), message: end.error.message } : null,
    incomplete_details: end.status === "incomplete" ? { reason: end.incomplete ?? "max_output_tokens" } : null,
    instructions: echo.instructions,
    max_output_tokens: echo.maxOutputTokens,
    model: meta.model,
    output: end.output,
    parallel_tool_calls: false,
    previous_response_id: null,
    // Both were validated against OpenAI's values by the chat adapter (src/http/chat/schema.ts).
    reasoning: { effort: echo.reasoningEffort as ReasoningEffort, summary: null },
    service_tier: echo.serviceTier as WireResponse["service_tier"],
    store: false,
    temperature: echo.temperature,
    text: { format: { type: "text" } },
    // The service runs its own tools; none are the caller's.
    tool_choice: "none",
    tools: [],
    top_p: echo.topP,
    truncation: "disabled",
    ...(end.usage ? { usage: responseUsage(end.usage) } : {}),
    ...(echo.user !== null ? { user: echo.user } : {}),
    metadata: echo.metadata,
  };
  if (end.status === "completed" || end.status === "incomplete") body.completed_at = Math.floor(Date.now() / 1000);
  if (end.citations) body.citations = end.citations;
  return body;
}

/**
 * A word-limit cut ends the message incomplete, as a max_output_tokens cut does at OpenAI; so does the
 * provider's content filter (reason content_filter).
 */
const endStatus = (outcome: SpokenOutcome) => (outcome.kind === "answer" && outcome.finishReason !== "stop" ? "incomplete" : "completed");
const incompleteReason = (outcome: SpokenOutcome) =>
  outcome.kind === "answer" && outcome.finishReason === "content_filter" ? ("content_filter" as const) : ("max_output_tokens" as const);

export function finalResponse(meta: ResponseMeta, outcome: SpokenOutcome) {
  const status = endStatus(outcome);
  return responseObject(meta, {
    status,
    incomplete: incompleteReason(outcome),
    output: [messageItem(meta, status, outcome.content)],
    usage: outcome.usage,
    citations: outcome.kind === "answer" ? outcome.citations : undefined,
  });
}

/**
 * The Responses event sequence over one SSE connection: created, in_progress, the message item and
 * its text part added, text deltas, then everything done and `response.completed` (or
 * `response.incomplete` for a word-limit cut); a failure is an `error` event then `response.failed`.
 * Every event carries its sequence_number; the stream ends without `[DONE]`, as OpenAI's does.
 */
export function responseStream(meta: ResponseMeta, sse: SseWriter): StreamRenderer {
  let seq = 0;
  let text = "";
  // Each event is built as openai-node's type for it, so the compiler checks its fields.
  type Fields<T extends WireEvent["type"]> = Omit<Extract<WireEvent, { type: T }>, "type" | "sequence_number">;
  const emit = <T extends WireEvent["type"]>(type: T, fields: Fields<T>) => sse.event(type, { type, ...fields, sequence_number: seq++ });
  const at = { item_id: meta.itemId, output_index: 0, content_index: 0 };
  return {
    open() {
      const started = responseObject(meta, { status: "in_progress", output: [] });
      emit("response.created", { response: started });
      emit("response.in_progress", { response: started });
      emit("response.output_item.added", { output_index: 0, item: messageItem(meta, "in_progress", undefined) });
      emit("response.content_part.added", { ...at, part: textPart("") });
    },
    delta(piece) {
      text += piece;
      emit("response.output_text.delta", { ...at, delta: piece, logprobs: [] });
    },
    finish(outcome, streamed) {
      if (!streamed && outcome.content !== "") this.delta(outcome.content);
      const status = endStatus(outcome);
      emit("response.output_text.done", { ...at, text, logprobs: [] });
      emit("response.content_part.done", { ...at, part: textPart(text) });
      emit("response.output_item.done", { output_index: 0, item: messageItem(meta, status, text) });
      const final = finalResponse(meta, outcome);
      emit(status === "completed" ? "response.completed" : "response.incomplete", { response: final });
      sse.end();
    },
    fail(err) {
      emit("error", { code: err.code, message: err.message, param: err.param });
      const output = text === "" ? [] : [messageItem(meta, "incomplete", text)];
      emit("response.failed", { response: responseObject(meta, { status: "failed", output, error: err }) });
      sse.end();
    },
  };
}
