import {
  type ChatRequest,
  forcedFunction,
  isStructured,
  lastMessage,
  lastUserText,
  messageText,
} from "./chat-request.js";

export type Matcher = (request: ChatRequest) => boolean;

function test(pattern: string | RegExp, text: string): boolean {
  return typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);
}

/** Predicates over a chat request, to pick a scripted reply. */
export const match = {
  any: (): Matcher => () => true,
  /** Structured output by response_format or by a forced function: this is how the preflight call looks. */
  structured: (): Matcher => (r) => isStructured(r.body),
  /** Our preflight classifier is the pipeline's only structured call; an alias for readable tests. */
  preflight: (): Matcher => (r) => isStructured(r.body),
  /** Structured output under a given schema or forced-function name. */
  schemaName:
    (name: string): Matcher =>
    (r) =>
      r.body.response_format?.json_schema?.name === name || forcedFunction(r.body)?.function.name === name,
  /** Tools offered and none forced: an agent turn. */
  agent: (): Matcher => (r) => (r.body.tools?.length ?? 0) > 0 && forcedFunction(r.body) === undefined,
  hasTools: (): Matcher => (r) => (r.body.tools?.length ?? 0) > 0,
  /** The last message is a tool result: the model is being asked to continue after a tool ran. */
  afterToolResult: (): Matcher => (r) => lastMessage(r.body)?.role === "tool",
  stream: (): Matcher => (r) => r.body.stream === true,
  model: (name: string): Matcher => (r) => r.body.model === name,
  /** Any message (system, user, assistant, tool) contains the text. */
  contains:
    (pattern: string | RegExp): Matcher =>
    (r) =>
      r.body.messages.some((m) => test(pattern, messageText(m))),
  lastUser:
    (pattern: string | RegExp): Matcher =>
    (r) =>
      test(pattern, lastUserText(r.body)),
  system:
    (pattern: string | RegExp): Matcher =>
    (r) =>
      r.body.messages.some((m) => (m.role === "system" || m.role === "developer") && test(pattern, messageText(m))),
  all:
    (...matchers: Matcher[]): Matcher =>
    (r) =>
      matchers.every((m) => m(r)),
  not:
    (matcher: Matcher): Matcher =>
    (r) =>
      !matcher(r),
};
