import { z } from "zod";
import { REASONING_EFFORTS, SERVICE_TIERS } from "../../../graphs/chat/contract.js";
import { TEXT_LIMITS } from "../../limits.js";

/**
 * The chat request body. Every optional field also accepts null, because OpenAI clients send
 * `"temperature": null` for "not set"; nulls are treated as absent. Unknown keys are dropped, so
 * vendor fields from other clients do not fail the request.
 */
const opt = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);

export const MessageSchema = z.object({
  role: z.string(),
  content: z.union([z.string(), z.array(z.object({ type: z.string() }).loose())]).nullish(),
  tool_calls: z.unknown().optional(),
  function_call: z.unknown().optional(),
});

export type RawMessage = z.infer<typeof MessageSchema>;

export const ChatBodySchema = z.object({
  model: opt(z.string().min(1).max(256)),
  messages: z.array(MessageSchema).min(1, "messages must contain at least one message"),
  stream: opt(z.boolean()),
  stream_options: opt(z.object({ include_usage: opt(z.boolean()) })),

  book_id: opt(z.string().min(1).max(TEXT_LIMITS.bookName)),
  chapter: opt(z.int().min(1)),
  verses: opt(z.array(z.int().min(1)).min(1).max(200)),
  bible_id: opt(z.string().min(1).max(TEXT_LIMITS.name)),
  max_words: opt(z.int().min(1).max(2000)),
  skip_preflight: opt(z.boolean()),

  theology: opt(z.string().min(1).max(100)),
  theology_slug: opt(z.string().min(1).max(100)),
  profile: opt(z.string().min(1).max(100)),
  profile_slug: opt(z.string().min(1).max(100)),
  system_instructions: opt(z.string()),
  convert_scripture_links: opt(z.boolean()),
  disable_scripture_links: opt(z.boolean()),
  verify_quotes: opt(z.boolean()),

  temperature: opt(z.number().min(0).max(2)),
  top_p: opt(z.number().min(0).max(1)),
  max_tokens: opt(z.int().min(1)),
  max_completion_tokens: opt(z.int().min(1)),
  reasoning_effort: opt(z.enum(REASONING_EFFORTS)),
  service_tier: opt(z.enum(SERVICE_TIERS)),
  // OpenAI's limits: 16 pairs, keys up to 64 characters, string values up to 512. Checked, never sent on (docs/chat-api.md).
  metadata: opt(
    z
      .record(z.string().max(64), z.string().max(512))
      .refine((m) => Object.keys(m).length <= 16, "metadata holds at most 16 key-value pairs"),
  ),
  seed: opt(z.int()),
  user: opt(z.string().max(512)),
  presence_penalty: opt(z.number().min(-2).max(2)),
  frequency_penalty: opt(z.number().min(-2).max(2)),
  stop: opt(z.union([z.string(), z.array(z.string()).max(4)])),
  n: opt(z.int()),
});

export type ChatBody = z.infer<typeof ChatBodySchema>;

/**
 * `ChatBodySchema.safeParse(raw)`, run on the fields the body has: the schema is cut down to them (`pick`,
 * kept per set of fields), `messages` always kept. The same data and the same issues, in the same order: a
 * field the body lacks is optional, and the whole schema passes over it too. Why: zod runs every field of an
 * object schema whether the body has it or not (35 here, each a null-to-undefined pipe), through parse code
 * that every schema in the process shares; in the service that made this one call about 140 µs a request
 * under load, against 3 µs for the same body in a process that parses nothing else (docs/performance.md,
 * session 23). A request has a few fields. At most PICKED_MAX field sets are kept (a client sends one or a
 * few); a body with another set is parsed by the whole schema.
 */
export function parseChatBody(raw: object): ReturnType<typeof ChatBodySchema.safeParse> {
  const names = CHAT_FIELDS.filter((name) => name === "messages" || name in raw);
  const fields = names.join(",");
  let schema = picked.get(fields);
  if (!schema) {
    if (picked.size >= PICKED_MAX) return ChatBodySchema.safeParse(raw);
    const mask = Object.fromEntries(names.map((name) => [name, true])) as Partial<Record<keyof typeof ChatBodySchema.shape, true>>;
    schema = ChatBodySchema.pick(mask);
    picked.set(fields, schema);
  }
  return schema.safeParse(raw) as ReturnType<typeof ChatBodySchema.safeParse>;
}

const CHAT_FIELDS = Object.keys(ChatBodySchema.shape);
const PICKED_MAX = 64;
const picked = new Map<string, z.ZodType>();

/**
 * Fields that would change what the caller gets back in ways this service cannot honour. Each maps a
 * present value to true when it must be refused; null always means "not set".
 */
export const UNSUPPORTED: Record<string, (value: unknown) => boolean> = {
  tools: () => true,
  functions: () => true,
  tool_choice: () => true,
  function_call: () => true,
  function_calling: () => true,
  parallel_tool_calls: () => true,
  n: (v) => v !== 1,
  logprobs: (v) => v !== false,
  top_logprobs: () => true,
  response_format: (v) => !(typeof v === "object" && (v as { type?: unknown }).type === "text"),
  audio: () => true,
  modalities: (v) => !(Array.isArray(v) && v.every((m) => m === "text")),
  prediction: () => true,
  web_search_options: () => true,
};
