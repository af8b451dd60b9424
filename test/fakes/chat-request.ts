import type { IncomingHttpHeaders } from "node:http";

/** Everything the fake received on one HTTP request, kept for assertions. */
export interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
  /** Lower-cased, as Node parses them; `authorization` carries the caller's key. */
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or undefined when the body was empty or not JSON. */
  body: unknown;
  /** Epoch milliseconds with sub-millisecond precision, comparable across processes. */
  receivedAt: number;
  /** When the status line went out. */
  firstByteAt?: number;
  /** When the first content or tool-call delta went out (streams only). */
  firstTokenAt?: number;
  finishedAt?: number;
  /** The client closed the connection before the response was complete. */
  aborted: boolean;
  /** Which kind of scripted reply served it (chat completions only). */
  replyKind?: string;
}

export interface ChatMessage {
  role: string;
  content?: unknown;
  name?: string;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface ChatTool {
  type: string;
  function: { name: string; description?: string; parameters?: unknown; strict?: boolean };
}

export interface ChatBody {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
  tools?: ChatTool[];
  tool_choice?: string | { type: string; function?: { name: string } };
  response_format?: { type: string; json_schema?: { name: string; schema?: unknown; strict?: boolean } };
  [key: string]: unknown;
}

/** A chat-completions request: a recorded request whose body passed the shape check. */
export type ChatRequest = RecordedRequest & { body: ChatBody };

export function isChatBody(body: unknown): body is ChatBody {
  if (typeof body !== "object" || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.model === "string" && Array.isArray(b.messages);
}

/** Text of a message whether its content is a string or an array of text parts. */
export function messageText(message: ChatMessage | undefined): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (typeof part?.text === "string" ? (part.text as string) : ""))
    .join("");
}

export function lastMessage(body: ChatBody): ChatMessage | undefined {
  return body.messages[body.messages.length - 1];
}

export function lastUserText(body: ChatBody): string {
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const message = body.messages[i];
    if (message?.role === "user") return messageText(message);
  }
  return "";
}

/** The function a request forces via `tool_choice`, as ChatOpenAI's function-calling structured output does. */
export function forcedFunction(body: ChatBody): ChatTool | undefined {
  const choice = body.tool_choice;
  if (typeof choice !== "object" || choice?.type !== "function" || !choice.function) return undefined;
  const name = choice.function.name;
  return body.tools?.find((tool) => tool.function.name === name);
}

export function wantsJsonSchema(body: ChatBody): boolean {
  const type = body.response_format?.type;
  return type === "json_schema" || type === "json_object";
}

/** Asks for structured output by either route ChatOpenAI takes. */
export function isStructured(body: ChatBody): boolean {
  return wantsJsonSchema(body) || forcedFunction(body) !== undefined;
}

/** The prompt size that usage figures are based on: all message text plus tool definitions. */
export function promptChars(body: ChatBody, rawLength: number): number {
  // OpenAI bills about three tokens of framing per message plus three to prime the reply.
  let chars = 12;
  for (const message of body.messages) {
    chars += messageText(message).length + 12;
    for (const call of message.tool_calls ?? []) chars += call.function.name.length + call.function.arguments.length;
  }
  // Tool schemas cost prompt tokens too; the raw body length bounds them without re-serialising.
  if (body.tools?.length || body.response_format) chars = Math.max(chars, Math.floor(rawLength * 0.8));
  return chars;
}
