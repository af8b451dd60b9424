import type { FinishReason, OpenAIErrorObject, Usage } from "./wire.js";

/** Timing knobs every reply accepts. */
export interface Timing {
  /** Wait before the first byte (status line and headers). */
  delayMs?: number;
  /** Wait between stream chunks; 0 writes the whole stream at once. */
  chunkDelayMs?: number;
}

export interface ToolCallSpec {
  name: string;
  /** An object is serialised; a string is sent verbatim, so it can be invalid JSON on purpose. */
  args: unknown;
  id?: string;
}

export type FakeReply = Timing &
  (
    | {
        kind: "text";
        text: string;
        /** Exact stream pieces; by default the text streams word by word. Joined for non-stream. */
        chunks?: string[];
        finishReason?: FinishReason;
        usage?: Partial<Pick<Usage, "prompt_tokens" | "completion_tokens">>;
      }
    | {
        kind: "toolCalls";
        calls: ToolCallSpec[];
        /** Text the model says before calling (it happens with real models). */
        text?: string;
        /** Size of the pieces the arguments stream in. */
        argumentPieceSize?: number;
        /**
         * The `content` the turn carries beside its calls, as some providers send it: "" or null in the
         * role chunk and in each call's first chunk (stream), and as the message's content (non-stream).
         */
        content?: "" | null;
      }
    /** Structured output: JSON content under response_format, else a call of the forced function. */
    | { kind: "json"; value: unknown }
    | { kind: "error"; status: number; error?: Partial<OpenAIErrorObject>; headers?: Record<string, string>; rawBody?: string }
    /** What the default script would answer (vectors, for embeddings), with these timings. */
    | { kind: "normal" }
    /** Never sends a byte; the request ends only when the client gives up. */
    | { kind: "hang" }
    /** Sends headers and `afterChunks` content chunks (stream) or headers only (non-stream), then goes silent. */
    | { kind: "stall"; afterChunks: number; text?: string }
    /** Destroys the socket: before any byte, or after `afterChunks` content chunks of a stream. */
    | { kind: "reset"; afterChunks: number; text?: string }
    /** Ends the stream cleanly but early: no [DONE], and without the final chunk unless `withFinish`. */
    | { kind: "cut"; afterChunks: number; withFinish: boolean; text?: string }
    /** A 200 whose body (non-stream) or whose next SSE event (stream) is not JSON. */
    | { kind: "malformed"; afterChunks: number; text?: string }
    /** A stream that carries `data: {"error":{...}}` after `afterChunks` chunks, as OpenAI does mid-stream. */
    | { kind: "streamError"; afterChunks: number; error?: Partial<OpenAIErrorObject>; text?: string }
  );

type Opts<K extends FakeReply["kind"]> = Omit<Extract<FakeReply, { kind: K }>, "kind">;

/** Readable builders for scripted replies. */
export const reply = {
  text: (text: string, opts: Partial<Opts<"text">> = {}): FakeReply => ({ kind: "text", text, ...opts }),
  toolCall: (name: string, args: unknown, opts: Partial<Opts<"toolCalls">> = {}): FakeReply => ({
    kind: "toolCalls",
    calls: [{ name, args }],
    ...opts,
  }),
  toolCalls: (calls: ToolCallSpec[], opts: Partial<Opts<"toolCalls">> = {}): FakeReply => ({
    kind: "toolCalls",
    calls,
    ...opts,
  }),
  json: (value: unknown, opts: Timing = {}): FakeReply => ({ kind: "json", value, ...opts }),
  error: (status: number, opts: Partial<Opts<"error">> = {}): FakeReply => ({ kind: "error", status, ...opts }),
  normal: (opts: Timing = {}): FakeReply => ({ kind: "normal", ...opts }),
  hang: (): FakeReply => ({ kind: "hang" }),
  stall: (afterChunks = 1, opts: Partial<Opts<"stall">> = {}): FakeReply => ({ kind: "stall", afterChunks, ...opts }),
  reset: (afterChunks = 0, opts: Partial<Opts<"reset">> = {}): FakeReply => ({ kind: "reset", afterChunks, ...opts }),
  cut: (afterChunks = 1, opts: Partial<Opts<"cut">> = {}): FakeReply => ({
    kind: "cut",
    afterChunks,
    withFinish: false,
    ...opts,
  }),
  malformed: (afterChunks = 1, opts: Partial<Opts<"malformed">> = {}): FakeReply => ({
    kind: "malformed",
    afterChunks,
    ...opts,
  }),
  streamError: (afterChunks = 1, opts: Partial<Opts<"streamError">> = {}): FakeReply => ({
    kind: "streamError",
    afterChunks,
    ...opts,
  }),
};
