import type { ChatOutcome, RequestCatalog } from "../../../graphs/chat/contract.js";
import type { AppError } from "../../errors.js";
import type { SseWriter } from "../sse.js";
import type { ChatDefaults, ChatRequestInput, ParsedChat } from "./request.js";

/** An outcome that has something to say (an answer or a canned reply); a rejection is an error. */
export type SpokenOutcome = Exclude<ChatOutcome, { kind: "rejected" }>;

/**
 * How one OpenAI API (Chat Completions, Responses) reads a request into the chat contract and writes
 * the outcome back. Everything else (auth, the run, abort on disconnect, when SSE headers go out, the
 * log line, error mapping) belongs to the one handler (handler.ts), whichever API was called.
 */
export interface WireFormat<P extends ParsedChat = ParsedChat> {
  /** The log line's message ("chat completion", "response"). */
  logName: string;
  parse(input: ChatRequestInput, catalog: RequestCatalog, defaults: ChatDefaults): P;
  /** The whole non-streamed body. */
  body(parsed: P, outcome: SpokenOutcome, promptVersions: string): unknown;
  /** A writer for one streamed outcome over an open SSE connection. */
  stream(parsed: P, sse: SseWriter, promptVersions: string): StreamRenderer;
}

export interface StreamRenderer {
  /** The events that open the stream, before the first text. */
  open(): void;
  delta(text: string): void;
  /** `text` is the whole answer; `streamed` says whether any of it went out as deltas. */
  finish(outcome: SpokenOutcome, streamed: boolean): void;
  /** A failure after the headers went out: the API's in-stream error, then the stream's end. */
  fail(err: AppError): void;
}
