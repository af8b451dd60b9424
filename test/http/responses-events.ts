import type OpenAI from "openai";
import { z } from "zod";

/**
 * Runtime schemas for the Responses events this service sends, each tied at compile time to
 * openai-node's type for it (the Assignable checks below fail `npm run typecheck` if a schema drifts
 * from the SDK's type). Strict objects: a field the SDK's type does not declare fails the parse, except
 * on the Response object, where `citations` and `store` are ours/OpenAI's documented extras.
 */

type Assignable<A extends B, B> = A;

const Annotation = z.never();
const OutputText = z.strictObject({ type: z.literal("output_text"), text: z.string(), annotations: z.array(Annotation), logprobs: z.array(z.never()) });
const Message = z.strictObject({
  id: z.string().regex(/^msg_/),
  type: z.literal("message"),
  status: z.enum(["in_progress", "completed", "incomplete"]),
  role: z.literal("assistant"),
  content: z.array(OutputText),
});
const Usage = z.strictObject({
  input_tokens: z.int().nonnegative(),
  input_tokens_details: z.strictObject({ cached_tokens: z.int(), cache_write_tokens: z.int() }),
  output_tokens: z.int().nonnegative(),
  output_tokens_details: z.strictObject({ reasoning_tokens: z.int() }),
  total_tokens: z.int().nonnegative(),
});
export const ResponseSchema = z.object({
  id: z.string().regex(/^resp_/),
  object: z.literal("response"),
  created_at: z.int(),
  completed_at: z.int().optional(),
  status: z.enum(["in_progress", "completed", "incomplete", "failed"]),
  background: z.literal(false),
  error: z.strictObject({ code: z.enum(["server_error", "rate_limit_exceeded", "invalid_prompt"]), message: z.string() }).nullable(),
  incomplete_details: z.strictObject({ reason: z.enum(["max_output_tokens", "content_filter"]) }).nullable(),
  instructions: z.string().nullable(),
  max_output_tokens: z.int().nullable(),
  model: z.string(),
  output: z.array(Message),
  parallel_tool_calls: z.boolean(),
  previous_response_id: z.null(),
  reasoning: z.strictObject({ effort: z.enum(["none", "minimal", "low", "medium", "high", "xhigh", "max"]).nullable(), summary: z.null() }),
  service_tier: z.enum(["auto", "default", "flex", "scale", "priority"]).nullable(),
  store: z.literal(false),
  temperature: z.number().nullable(),
  text: z.strictObject({ format: z.strictObject({ type: z.literal("text") }) }),
  tool_choice: z.literal("none"),
  tools: z.array(z.never()),
  top_p: z.number().nullable(),
  truncation: z.literal("disabled"),
  usage: Usage.optional(),
  user: z.string().optional(),
  metadata: z.record(z.string(), z.string()),
  citations: z.array(z.object({ reference: z.string(), url: z.string() }).loose()).optional(),
});
type _Response = Assignable<Omit<z.infer<typeof ResponseSchema>, "citations" | "store">, Omit<OpenAI.Responses.Response, "output_text">>;

const seq = { sequence_number: z.int().nonnegative() };
const at = { item_id: z.string(), output_index: z.literal(0), content_index: z.literal(0), ...seq };
const withResponse = <T extends string>(type: T) => z.strictObject({ type: z.literal(type), response: ResponseSchema, ...seq });

export const Created = withResponse("response.created");
export const InProgress = withResponse("response.in_progress");
export const Completed = withResponse("response.completed");
export const Incomplete = withResponse("response.incomplete");
export const Failed = withResponse("response.failed");
export const ItemAdded = z.strictObject({ type: z.literal("response.output_item.added"), output_index: z.literal(0), item: Message, ...seq });
export const ItemDone = z.strictObject({ type: z.literal("response.output_item.done"), output_index: z.literal(0), item: Message, ...seq });
export const PartAdded = z.strictObject({ type: z.literal("response.content_part.added"), part: OutputText, ...at });
export const PartDone = z.strictObject({ type: z.literal("response.content_part.done"), part: OutputText, ...at });
export const TextDelta = z.strictObject({ type: z.literal("response.output_text.delta"), delta: z.string().min(1), logprobs: z.array(z.never()), ...at });
export const TextDone = z.strictObject({ type: z.literal("response.output_text.done"), text: z.string(), logprobs: z.array(z.never()), ...at });
export const ErrorEvent = z.strictObject({ type: z.literal("error"), code: z.string().nullable(), message: z.string(), param: z.string().nullable(), ...seq });

type Wire<E> = E extends { response: OpenAI.Responses.Response } ? Omit<E, "response"> & { response: Omit<OpenAI.Responses.Response, "output_text"> } : E;
type Ev<T extends OpenAI.Responses.ResponseStreamEvent["type"]> = Wire<Extract<OpenAI.Responses.ResponseStreamEvent, { type: T }>>;
type Strip<E> = E extends { response: infer R } ? Omit<E, "response"> & { response: Omit<R, "citations" | "store"> } : E;
type _Events = [
  Assignable<Strip<z.infer<typeof Created>>, Ev<"response.created">>,
  Assignable<Strip<z.infer<typeof InProgress>>, Ev<"response.in_progress">>,
  Assignable<Strip<z.infer<typeof Completed>>, Ev<"response.completed">>,
  Assignable<Strip<z.infer<typeof Incomplete>>, Ev<"response.incomplete">>,
  Assignable<Strip<z.infer<typeof Failed>>, Ev<"response.failed">>,
  Assignable<z.infer<typeof ItemAdded>, Ev<"response.output_item.added">>,
  Assignable<z.infer<typeof ItemDone>, Ev<"response.output_item.done">>,
  Assignable<z.infer<typeof PartAdded>, Ev<"response.content_part.added">>,
  Assignable<z.infer<typeof PartDone>, Ev<"response.content_part.done">>,
  Assignable<z.infer<typeof TextDelta>, Ev<"response.output_text.delta">>,
  Assignable<z.infer<typeof TextDone>, Ev<"response.output_text.done">>,
  Assignable<z.infer<typeof ErrorEvent>, Ev<"error">>,
];

export const StreamEvent = z.discriminatedUnion("type", [
  Created,
  InProgress,
  Completed,
  Incomplete,
  Failed,
  ItemAdded,
  ItemDone,
  PartAdded,
  PartDone,
  TextDelta,
  TextDone,
  ErrorEvent,
]);

/** The success sequence OpenAI sends for one text message, with any number of deltas in the middle. */
export const SUCCESS_ORDER = [
  "response.created",
  "response.in_progress",
  "response.output_item.added",
  "response.content_part.added",
  "response.output_text.delta*",
  "response.output_text.done",
  "response.content_part.done",
  "response.output_item.done",
  "response.completed",
] as const;

/** The event types with runs of deltas collapsed to one `response.output_text.delta*`. */
export function collapsedTypes(events: { type: string }[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    const t = e.type === "response.output_text.delta" ? "response.output_text.delta*" : e.type;
    if (out.at(-1) !== t) out.push(t);
  }
  return out;
}

/**
 * Checks a stream: every event parses, sequence numbers count from 0 without gaps, every event names
 * the one response and item, and the deltas add up to the done text.
 */
export function checkStream(events: unknown[]): z.infer<typeof StreamEvent>[] {
  const parsed = events.map((e) => StreamEvent.parse(e));
  parsed.forEach((e, i) => {
    if (e.sequence_number !== i) throw new Error(`event ${i} (${e.type}) has sequence_number ${e.sequence_number}`);
  });
  const ids = new Set(parsed.flatMap((e) => ("response" in e ? [e.response.id] : [])));
  if (ids.size !== 1) throw new Error(`events name ${ids.size} responses`);
  const items = new Set(parsed.flatMap((e) => ("item_id" in e ? [e.item_id] : "item" in e ? [e.item.id] : [])));
  if (items.size > 1) throw new Error(`events name ${items.size} items`);
  const deltas = parsed.flatMap((e) => (e.type === "response.output_text.delta" ? [e.delta] : [])).join("");
  const done = parsed.find((e) => e.type === "response.output_text.done");
  if (done && done.text !== deltas) throw new Error("the deltas do not add up to response.output_text.done's text");
  return parsed;
}
