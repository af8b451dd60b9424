import { z } from "zod";
import { REASONING_EFFORTS } from "../../../graphs/chat/contract.js";
import { ChatBodySchema } from "../chat/schema.js";

/**
 * The Responses request as the OpenAPI document states it. The fields shared with chat completions
 * are chat's own validators (they are checked there, after request.ts translates the body); the
 * Responses fields below are checked by request.ts and documented here.
 */
const InputPart = z
  .object({ type: z.enum(["input_text", "output_text"]), text: z.string() })
  .describe("A text part: input_text in user, system and developer messages, output_text in earlier assistant turns.");

const InputMessage = z
  .object({
    type: z.literal("message").optional(),
    role: z.enum(["user", "assistant", "system", "developer"]),
    content: z.union([z.string(), z.array(InputPart)]),
  })
  .describe("A message. Only messages: function calls, their outputs and item references are refused (tools run server-side; nothing is stored).");

/**
 * Chat Completions fields a Responses body does not have: sent to /v1/responses they mean something
 * else (or collide with the translated fields), so request.ts does not carry them over and the
 * document does not list them.
 */
export const CHAT_ONLY = new Set([
  "messages",
  "stream_options",
  "max_tokens",
  "max_completion_tokens",
  "n",
  "stop",
  "seed",
  "presence_penalty",
  "frequency_penalty",
  "reasoning_effort",
  "response_format",
  "functions",
  "function_call",
] as const);

const chatOnlyFields = Object.fromEntries([...CHAT_ONLY].filter((k) => k in ChatBodySchema.shape).map((k) => [k, true])) as {
  [K in keyof typeof ChatBodySchema.shape & (typeof CHAT_ONLY extends Set<infer T> ? T : never)]: true;
};

export const ResponsesBodySchema = ChatBodySchema.omit(chatOnlyFields).extend({
  input: z.union([z.string(), z.array(InputMessage).min(1)]).describe("The question, or the conversation (at most 5 user messages)."),
  instructions: z.string().nullish().describe("Your system message: appended to the service's guardrails, never above them."),
  max_output_tokens: z.int().min(1).nullish().describe("Passed to the provider as max_completion_tokens. The answer's length is max_words."),
  reasoning: z.object({ effort: z.enum(REASONING_EFFORTS).nullish() }).nullish().describe("effort passed to the provider as reasoning_effort."),
  text: z.object({ format: z.object({ type: z.literal("text") }).nullish() }).nullish().describe("Text only: JSON output formats are refused (unsupported_parameter)."),
  store: z.literal(false).nullish().describe("Nothing is stored: store true is refused (unsupported_parameter); leave it out or send false."),
  previous_response_id: z.null().optional().describe("Refused when set: nothing is stored, send the whole conversation in input."),
  stream_options: z.object({ include_obfuscation: z.boolean().nullish() }).nullish().describe("Accepted; nothing to obfuscate here."),
  include: z.array(z.string()).nullish().describe("Accepted; the service has no extra output data to include."),
});
