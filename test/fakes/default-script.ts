import {
  type ChatRequest,
  forcedFunction,
  lastUserText,
  wantsJsonSchema,
} from "./chat-request.js";
import { type FakeReply, reply } from "./replies.js";
import { sampleFromSchema } from "./sample-json.js";
import { toolArguments } from "./tool-arguments.js";

export const DEFAULT_ANSWER =
  'God\'s love is shown in John 3:16: "For God so loved the world, that he gave his one and only Son." ' +
  "See also Romans 8:28 and Psalm 23.";

/** Whether the conversation already holds a tool result after the last user message. */
export function hasToolResultSinceUser(request: ChatRequest): boolean {
  const messages = request.body.messages;
  for (let i = messages.length - 1; i >= 0; i--) {
    const role = messages[i]?.role;
    if (role === "tool") return true;
    if (role === "user") return false;
  }
  return false;
}

/**
 * What the fake answers when no rule or queued reply applies: enough for a smoke test to run the
 * whole pipeline (a permissive preflight, one tool round trip with the arguments a model would write
 * for the question, then an answer with references).
 */
export function defaultReply(request: ChatRequest): FakeReply {
  const body = request.body;
  const hints = { userText: lastUserText(body) };
  if (wantsJsonSchema(body)) return reply.json(sampleFromSchema(body.response_format?.json_schema?.schema, hints));
  const forced = forcedFunction(body);
  if (forced) return reply.json(sampleFromSchema(forced.function.parameters, hints));
  const tool = body.tools?.[0];
  if (tool && body.tool_choice !== "none" && !hasToolResultSinceUser(request)) {
    return reply.toolCall(tool.function.name, toolArguments(tool, hints.userText));
  }
  return reply.text(DEFAULT_ANSWER);
}
