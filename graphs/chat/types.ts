/**
 * The contract between the chat graph (graphs/chat) and the HTTP adapter (src/http/chat).
 * The adapter validates the request and builds a ChatRequestContext; runChat runs the graph and
 * reports either an answer (streamed through onDelta in its final form: word-limited and
 * link-converted), a canned reply from preflight, or a content-filter rejection.
 */

/** The spec's preflight categories, in the order of its table. */
export const PREFLIGHT_CATEGORIES = [
  "biblical_question",
  "passage_request",
  "support_question",
  "greeting",
  "incomplete_input",
  "hacker_activity",
  "inappropriate",
  "invalid",
] as const;

export type PreflightCategory = (typeof PREFLIGHT_CATEGORIES)[number];

export type InterceptedCategory = "support_question" | "greeting" | "incomplete_input";
export type RejectedCategory = "hacker_activity" | "inappropriate" | "invalid";

/** A conversation turn as the agent sees it; caller system messages travel in callerSystem instead. */
export interface ChatTurn {
  role: "user" | "assistant";
  content: string;
}

/** OpenAI request fields passed through to the provider when the caller sets them. */
export interface ModelParams {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  seed?: number;
  user?: string;
  presence_penalty?: number;
  frequency_penalty?: number;
  stop?: string | string[];
}

/** Per-request values. They live in the run's context only: never in state, a checkpoint or a log line. */
export interface ChatRequestContext {
  /** The caller's own provider key (BYOK). */
  apiKey: string;
  model: string;
  preflightModel: string;
  theology: string;
  profile: string;
  bibleId: string;
  /** Scripture context the caller asked about (already validated against the corpus). */
  passage?: { book: string; chapter: number; verses?: number[] };
  maxWords: number;
  convertLinks: boolean;
  skipPreflight: boolean;
  /** Caller system/developer messages joined with a blank line, then system_instructions. */
  callerSystem?: string;
  modelParams: ModelParams;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export type ChatOutcome =
  | { kind: "answer"; content: string; finishReason: "stop" | "length"; usage: Usage; promptVersions: string }
  | { kind: "canned"; category: InterceptedCategory; content: string; usage: Usage; promptVersions: string }
  | { kind: "rejected"; category: RejectedCategory; message: string; usage: Usage };

export interface RunChatOptions {
  /** Aborts the run and the upstream provider request (client disconnect, word-limit cut). */
  signal?: AbortSignal;
  /**
   * Called with each piece of the answer as it should reach the client: only the final answer turn,
   * already cut to max_words and link-converted. Never called for preflight or tool-calling turns.
   */
  onDelta?: (text: string) => void;
}
