import { AppError, invalidRequest, unsupportedParameter } from "../../errors.js";
import { toHttpError } from "../chat/errors.js";
import { parseChatRequest, type ChatDefaults, type ChatRequestInput, type ParsedChat } from "../chat/request.js";
import { CHAT_ONLY } from "./schema.js";
import type { RequestCatalog } from "../../../graphs/chat/contract.js";

/**
 * POST /v1/responses, stateless: the body is translated into the Chat Completions body the chat adapter
 * already reads (src/http/chat/request.ts), so validation, limits, defaults and the service's own fields
 * (theology, profile, bible_id, max_words...) have one owner. This file knows only what is Responses'
 * own: `input` items, `instructions`, the stored-state fields it must refuse, and the names of the
 * parameters that differ, which it puts back into the errors the chat checks raise.
 */

/** What the Response object repeats back from the request (OpenAI echoes these). */
export interface ResponseEcho {
  instructions: string | null;
  maxOutputTokens: number | null;
  temperature: number | null;
  topP: number | null;
  metadata: Record<string, string>;
  user: string | null;
  serviceTier: string | null;
  reasoningEffort: string | null;
}

export interface ParsedResponse extends ParsedChat {
  echo: ResponseEcho;
}


/** Responses fields that need state this service never keeps (spec: every request is independent). */
const STATEFUL: Record<string, (value: unknown) => boolean> = {
  previous_response_id: () => true,
  conversation: () => true,
  prompt: () => true,
  background: (v) => v !== false,
  store: (v) => v !== false,
};

/** Responses' parameter names for the chat adapter's, used to point an error at what the caller sent. */
const PARAM_NAMES: Record<string, string> = {
  max_completion_tokens: "max_output_tokens",
  reasoning_effort: "reasoning.effort",
  response_format: "text.format",
};

/** Content parts the Responses API has that carry no text: named as the chat adapter refuses them. */
const NON_TEXT_PARTS: Record<string, string> = { input_image: "input_image", input_file: "file", input_audio: "input_audio" };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function statefulRefusal(name: string): AppError {
  return unsupportedParameter(
    name === "store"
      ? "'store: true' is not supported: this service keeps nothing between requests. Send 'store: false' (or leave it out) and the whole conversation in 'input'."
      : `'${name}' is not supported: this service keeps no responses or conversations. Send the whole conversation in 'input'.`,
    name,
  );
}

/** One content part as the chat adapter takes it: text parts become `text`, the rest keep a name it refuses. */
function chatPart(part: unknown, param: string): Json {
  if (!isObject(part) || typeof part.type !== "string") throw invalidRequest(`${param} must be an object with a 'type'.`, param);
  if (part.type === "input_text" || part.type === "output_text") return { type: "text", text: part.text };
  if (part.type === "refusal") return { type: "text", text: part.refusal };
  const nonText = NON_TEXT_PARTS[part.type];
  if (nonText) return { type: nonText };
  throw invalidRequest(`${param}.type must be 'input_text' (or 'output_text' in an assistant message), got '${part.type}'.`, `${param}.type`);
}

/** One input item as a chat message. Only messages: tool calls and their outputs belong to the server here. */
function chatMessage(item: unknown, i: number): Json {
  const param = `input[${i}]`;
  if (!isObject(item)) throw invalidRequest(`${param} must be a message object.`, param);
  const type = item.type ?? "message";
  if (type === "item_reference") {
    throw invalidRequest(
      `${param} refers to a stored item; this service keeps nothing. Send the message itself (with the Vercel AI SDK: providerOptions.openai.store = false).`,
      param,
    );
  }
  if (type !== "message") {
    throw invalidRequest(`${param} is a '${String(type)}' item; send messages only (this service runs its tools server-side).`, `${param}.type`);
  }
  const content = item.content;
  return {
    role: item.role,
    content: Array.isArray(content) ? content.map((part, j) => chatPart(part, `${param}.content[${j}]`)) : content,
  };
}

/**
 * Tool fields that ask for nothing (an empty `tools`, and with it `tool_choice` auto/none or
 * `parallel_tool_calls`) are what agent frameworks send by default; OpenAI's Responses API takes them,
 * so they are dropped here. Any real tool still reaches the chat adapter's refusal.
 */
function withoutEmptyTools(body: Json): Json {
  const out = { ...body };
  if (Array.isArray(out.tools) && out.tools.length === 0) delete out.tools;
  if (out.tools === undefined || out.tools === null) {
    if (out.tool_choice === "auto" || out.tool_choice === "none") delete out.tool_choice;
    delete out.parallel_tool_calls;
  }
  return out;
}

export interface Translated {
  chatBody: Json;
  /** Chat messages put before the caller's input (the instructions): messages[k] is input[k - offset]. */
  offset: number;
  echo: ResponseEcho;
}

/** A Responses body as the Chat Completions body the chat adapter reads. */
export function toChatBody(raw: unknown): Translated | undefined {
  if (!isObject(raw)) return undefined;
  for (const [name, refused] of Object.entries(STATEFUL)) {
    const value = raw[name];
    if (value !== undefined && value !== null && refused(value)) throw statefulRefusal(name);
  }
  const { input, instructions, max_output_tokens, reasoning, text, ...rest } = withoutEmptyTools(raw);
  const chatBody: Json = Object.fromEntries(Object.entries(rest).filter(([k]) => !CHAT_ONLY.has(k as never)));

  if (input === undefined || input === null) throw invalidRequest("'input' is required: a question, or a list of messages.", "input");
  if (Array.isArray(input) && input.length === 0) throw invalidRequest("'input' must hold at least one message.", "input");
  if (typeof input !== "string" && !Array.isArray(input)) throw invalidRequest("'input' must be a string or a list of messages.", "input");
  if (instructions !== undefined && instructions !== null && typeof instructions !== "string") {
    throw invalidRequest("'instructions' must be a string.", "instructions");
  }
  const messages: Json[] = typeof input === "string" ? [{ role: "user", content: input }] : input.map(chatMessage);
  // Instructions are the caller's system message: appended to the guardrails like any other, never above them.
  const offset = typeof instructions === "string" && instructions.trim() !== "" ? 1 : 0;
  if (offset) messages.unshift({ role: "system", content: instructions });
  chatBody.messages = messages;

  if (max_output_tokens !== undefined) chatBody.max_completion_tokens = max_output_tokens;
  if (isObject(reasoning) && reasoning.effort !== undefined) chatBody.reasoning_effort = reasoning.effort;
  if (isObject(text) && text.format !== undefined) chatBody.response_format = text.format;

  return {
    chatBody,
    offset,
    echo: {
      instructions: typeof instructions === "string" ? instructions : null,
      maxOutputTokens: typeof max_output_tokens === "number" ? max_output_tokens : null,
      temperature: typeof rest.temperature === "number" ? rest.temperature : null,
      topP: typeof rest.top_p === "number" ? rest.top_p : null,
      metadata: isObject(rest.metadata) ? (rest.metadata as Record<string, string>) : {},
      user: typeof rest.user === "string" ? rest.user : null,
      serviceTier: typeof rest.service_tier === "string" ? rest.service_tier : null,
      reasoningEffort: isObject(reasoning) && typeof reasoning.effort === "string" ? reasoning.effort : null,
    },
  };
}

/** `messages[k]` in the chat adapter's words is `input[k - offset]` (or the instructions) in the caller's. */
function renameMessages(text: string, offset: number): string {
  return text.replace(/\bmessages\[(\d+)\](\.content)?/g, (_m, k: string, content: string | undefined) => {
    const i = Number(k) - offset;
    return i < 0 ? "instructions" : `input[${i}]${content ?? ""}`;
  });
}

/** The chat adapter's error, pointing at the Responses parameter the caller actually sent. */
function inResponsesTerms(err: unknown, offset: number): unknown {
  const e = toHttpError(err);
  if (!(e instanceof AppError)) return err;
  let param = e.param;
  let message = renameMessages(e.message, offset);
  if (param !== null) {
    const renamed = PARAM_NAMES[param];
    if (renamed) {
      message = message.replaceAll(`'${param}'`, `'${renamed}'`);
      param = renamed;
    } else if (param === "messages") {
      param = "input";
    } else {
      param = renameMessages(param, offset);
    }
  }
  return new AppError({ status: e.status, type: e.type, code: e.code, message, param, extra: e.extra, headers: e.headers, cause: e.cause });
}

/** Reads a Responses request through the chat adapter: the same checks, in the same order, the same codes. */
export function parseResponsesRequest(input: ChatRequestInput, catalog: RequestCatalog, defaults: ChatDefaults): ParsedResponse {
  let translated: Translated | undefined;
  try {
    translated = input.isJson ? toChatBody(input.body) : undefined;
    const parsed = parseChatRequest({ ...input, body: translated?.chatBody ?? input.body }, catalog, defaults);
    return { ...parsed, echo: translated!.echo };
  } catch (err) {
    throw inResponsesTerms(err, translated?.offset ?? 0);
  }
}
