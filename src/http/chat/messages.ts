import { checkTurns, type ChatTurn } from "../../../graphs/chat/contract.js";
import { AppError, invalidRequest, unsupportedParameter } from "../../errors.js";
import { TEXT_LIMITS } from "../../limits.js";
import type { RawMessage } from "./schema.js";

export const MAX_USER_MESSAGES = 5;
const MAX_MESSAGE_CHARS = TEXT_LIMITS.message;
const MAX_TOTAL_CHARS = TEXT_LIMITS.conversation;

export interface Conversation {
  turns: ChatTurn[];
  /** System and developer messages in order, empty ones dropped. */
  system: string[];
  userCount: number;
  /** Characters of each message's text, by index into the caller's messages. */
  chars: number[];
}

const IMAGE_LIKE = new Set(["image_url", "input_image", "input_audio", "audio", "file", "image"]);

function contentText(msg: RawMessage, i: number): string {
  const { content } = msg;
  if (content === null || content === undefined) {
    // OpenAI allows a null assistant content (it then carries tool calls, refused below).
    if (msg.role === "assistant") return "";
    throw invalidRequest(`messages[${i}].content is required for role '${msg.role}'.`, `messages[${i}].content`);
  }
  if (typeof content === "string") return content;
  const texts: string[] = [];
  content.forEach((part, j) => {
    const param = `messages[${i}].content[${j}]`;
    if (part.type === "text") {
      if (typeof part.text !== "string") throw invalidRequest(`${param}.text must be a string.`, `${param}.text`);
      texts.push(part.text);
    } else if (IMAGE_LIKE.has(part.type)) {
      throw unsupportedParameter(`Content parts of type '${part.type}' are not supported; send text only.`, `${param}.type`);
    } else {
      throw invalidRequest(`${param}.type must be 'text', got '${part.type}'.`, `${param}.type`);
    }
  });
  // Text parts of one message are one text, as OpenAI concatenates them.
  return texts.join("\n");
}

/**
 * Splits the caller's messages into conversation turns and system text. Decisions (docs/chat-api.md):
 * developer = system; tool/function/unknown roles are refused; a user message must have text; after
 * the system messages are set aside, the conversation must end with the user.
 */
export function readConversation(messages: RawMessage[]): Conversation {
  const turns: ChatTurn[] = [];
  const system: string[] = [];
  let userCount = 0;
  const chars: number[] = [];
  messages.forEach((msg, i) => {
    const role = msg.role;
    if (role !== "user" && role !== "assistant" && role !== "system" && role !== "developer") {
      throw invalidRequest(
        `messages[${i}].role '${role}' is not supported; use user, assistant, system or developer (tools run server-side).`,
        `messages[${i}].role`,
      );
    }
    if (msg.tool_calls != null || msg.function_call != null) {
      throw invalidRequest(`messages[${i}] carries tool calls; this service runs its tools server-side.`, `messages[${i}].tool_calls`);
    }
    const text = contentText(msg, i);
    chars.push(text.length);
    if (role === "system" || role === "developer") {
      if (text.trim() !== "") system.push(text);
      return;
    }
    if (role === "user") {
      userCount += 1;
      if (text.trim() === "") throw invalidRequest(`messages[${i}].content is empty; ask a question.`, `messages[${i}].content`);
    }
    turns.push({ role, content: text });
  });
  checkTurns(turns);
  return { turns, system, userCount, chars };
}

/** The limits run after the whole body is valid, so a malformed request is told so first. */
export function checkLimits(conv: Conversation, systemInstructions = ""): void {
  if (conv.userCount > MAX_USER_MESSAGES) throw conversationLimit(conv.userCount);
  conv.chars.forEach((n, i) => {
    if (n > MAX_MESSAGE_CHARS) {
      throw contextTooLong(`messages[${i}].content is ${n} characters; the limit is ${MAX_MESSAGE_CHARS}.`, `messages[${i}].content`);
    }
  });
  if (systemInstructions.length > MAX_MESSAGE_CHARS) {
    throw contextTooLong(`system_instructions is ${systemInstructions.length} characters; the limit is ${MAX_MESSAGE_CHARS}.`, "system_instructions");
  }
  const total = conv.chars.reduce((a, b) => a + b, 0) + systemInstructions.length;
  if (total > MAX_TOTAL_CHARS) {
    throw contextTooLong(`The messages hold ${total} characters in all; the limit is ${MAX_TOTAL_CHARS}.`, "messages");
  }
}

function contextTooLong(message: string, param: string): AppError {
  return new AppError({ status: 400, type: "invalid_request_error", code: "context_length_exceeded", message, param });
}

export function conversationLimit(count: number): AppError {
  return new AppError({
    status: 429,
    type: "invalid_request_error",
    code: "conversation_limit_exceeded",
    message: `This service answers focused questions: at most ${MAX_USER_MESSAGES} user messages per request, got ${count}. Start a new conversation.`,
    param: "messages",
    extra: { limit: MAX_USER_MESSAGES, count },
    // Retrying the same body can never succeed; the official SDKs honour this header.
    headers: { "x-should-retry": "false" },
  });
}
