import { z } from "zod";
import { FINISH_REASONS } from "../../../graphs/chat/contract.js";

/**
 * Response shapes for the OpenAPI document. Requests are validated by the endpoints' own zod schemas
 * (chat, search); responses are built by plain functions, so their shapes are stated here and the
 * OpenAPI test checks real responses against them, which keeps the two honest.
 */

export const ErrorObject = z
  .object({
    message: z.string(),
    type: z.enum(["invalid_request_error", "server_error"]),
    code: z.string(),
    param: z.string().nullable(),
    limit: z.int().optional().describe("conversation_limit_exceeded only: the most user messages allowed (5)."),
    count: z.int().optional().describe("conversation_limit_exceeded only: the user messages sent."),
  })
  .loose();

export const ErrorResponse = z.object({ error: ErrorObject }).describe("OpenAI's error envelope, used by every endpoint.");

const Usage = z.object({ prompt_tokens: z.int(), completion_tokens: z.int(), total_tokens: z.int() });
const FinishReason = z.enum(FINISH_REASONS);

export const Citation = z
  .object({
    reference: z.string().describe('The passage in the translation\'s language: "John 3:16", "Juan 3:16", "Psalm 23".'),
    book_id: z.string().describe("USFM book id: JHN."),
    chapter: z.int(),
    verses: z.array(z.int()).nullable().describe("Verses of that chapter; null for whole chapters."),
    chapter_end: z.int().optional().describe("Only for a passage that runs into a later chapter."),
    bible_id: z.string(),
    url: z.string().describe("Reader link; absolute when PUBLIC_BASE_URL is set, with bible_id when not the default."),
    quoted: z.string().nullable().describe("The words the answer shows between quotation marks; null when not quoted."),
    status: z
      .enum(["verified", "corrected", "cited", "unverified"])
      .describe(
        "verified: quoted faithfully; corrected: a misquotation was replaced by the exact words, or the reference by the verse the words come from (cited_as); " +
          "cited: referred to without a quotation; unverified: quoted in a translation the service does not ship (translation), left as written.",
      ),
    cited_as: z.string().optional().describe("The reference the answer gave when the quotation's words are this passage's instead."),
    translation: z.string().optional().describe('The translation the answer named for its quotation ("KJV", "NIV"); bible_id is it when shipped.'),
  })
  .describe("A passage the answer cites, in order of first appearance (docs/grounding.md).");

const Citations = z
  .array(Citation)
  .optional()
  .describe("The scripture the answer cites; on answers only (not on canned replies), on the streamed chunk that carries finish_reason.");

export const ChatCompletion = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.int(),
  model: z.string(),
  system_fingerprint: z.string().optional(),
  choices: z.array(
    z.object({
      index: z.int(),
      message: z.object({ role: z.literal("assistant"), content: z.string(), refusal: z.null().optional() }),
      logprobs: z.null().optional(),
      finish_reason: FinishReason,
    }),
  ),
  usage: Usage,
  citations: Citations,
});

export const ChatCompletionChunk = z
  .object({
    id: z.string(),
    object: z.literal("chat.completion.chunk"),
    created: z.int(),
    model: z.string(),
    system_fingerprint: z.string().optional(),
    choices: z.array(
      z.object({
        index: z.int(),
        delta: z.object({ role: z.literal("assistant").optional(), content: z.string().optional() }),
        logprobs: z.null().optional(),
        finish_reason: FinishReason.nullable(),
      }),
    ),
    usage: Usage.nullable().optional(),
    citations: Citations,
  })
  .describe(
    "One `data:` event of the text/event-stream. The first chunk's delta carries role; the last has finish_reason; with stream_options.include_usage a final chunk has choices [] and usage. The stream ends with `data: [DONE]`; a failure after the first byte is a `data: {\"error\":{...}}` event, then `data: [DONE]`.",
  );

const ResponsesUsage = z.object({
  input_tokens: z.int(),
  input_tokens_details: z.object({ cached_tokens: z.int() }).loose(),
  output_tokens: z.int(),
  output_tokens_details: z.object({ reasoning_tokens: z.int() }).loose(),
  total_tokens: z.int(),
});
const OutputText = z.object({ type: z.literal("output_text"), text: z.string(), annotations: z.array(z.unknown()), logprobs: z.array(z.unknown()).optional() });
const OutputMessage = z.object({
  id: z.string(),
  type: z.literal("message"),
  status: z.enum(["in_progress", "completed", "incomplete"]),
  role: z.literal("assistant"),
  content: z.array(OutputText),
});

export const ResponseObject = z
  .object({
    id: z.string(),
    object: z.literal("response"),
    created_at: z.int(),
    status: z.enum(["in_progress", "completed", "incomplete", "failed"]),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    incomplete_details: z
      .object({ reason: z.enum(["max_output_tokens", "content_filter"]) })
      .nullable()
      .describe("Set when the answer was cut: max_output_tokens at max_words (or the provider's token limit), content_filter when the provider's content filter withheld the rest."),
    instructions: z.string().nullable(),
    model: z.string(),
    output: z.array(OutputMessage).describe("One assistant message holding one output_text part: the answer."),
    store: z.literal(false),
    usage: ResponsesUsage.optional(),
    citations: Citations,
  })
  .loose()
  .describe("OpenAI's Response object (stateless: store is always false). Other fields echo the request as OpenAI does.");

export const ResponseStreamEvent = z
  .object({ type: z.string(), sequence_number: z.int() })
  .loose()
  .describe(
    "One `event:`/`data:` pair of the text/event-stream: response.created, response.in_progress, response.output_item.added, response.content_part.added, response.output_text.delta (one per piece), response.output_text.done, response.content_part.done, response.output_item.done, then response.completed (or response.incomplete when cut at max_words or by the provider's content filter). A failure after the first event is an `error` event (the code as on chat completions), then response.failed. No `[DONE]`.",
  );

const Model = z.object({ id: z.string(), object: z.literal("model"), created: z.int(), owned_by: z.string() });
export const ModelList = z.object({ object: z.literal("list"), data: z.array(Model) });
export { Model };

export const TheologyList = z.object({
  theologies: z.array(z.object({ slug: z.string(), name: z.string(), description: z.string(), is_default: z.boolean() })),
});

export const ProfileList = z.object({
  profiles: z.array(
    z.object({
      slug: z.string(),
      name: z.string(),
      description: z.string(),
      experience_level: z.int().min(0).max(5),
      is_default: z.boolean(),
    }),
  ),
});

export const TranslationList = z.object({
  translations: z.array(z.object({ id: z.string(), name: z.string(), language: z.string(), is_default: z.boolean() })),
});

const SearchResult = z.object({
  reference: z.string(),
  book: z.string(),
  book_id: z.string(),
  chapter: z.int(),
  text: z.string().describe("The whole chapter in the requested translation."),
  similarity: z.number().min(0).max(1),
  highlights: z
    .array(z.object({ verse: z.int(), text: z.string(), url: z.string().describe("The verse in the reader (built like `url`).") }))
    .describe("The verses that matched best (at most three, best first; a direct passage's named verses, at most ten), in the requested translation."),
  url: z.string().describe("The chapter in the reader; absolute when PUBLIC_BASE_URL is set, with bible_id when not the default."),
});

export const SearchResponse = z.object({
  results: z.array(SearchResult),
  query: z.string(),
  bible_id: z.string(),
  total: z.int(),
  type: z.enum(["semantic_hybrid", "direct_passage"]),
  low_confidence: z
    .boolean()
    .describe("True when nothing matched the question well: no result reached the similarity floor (results is then empty, e.g. \"asdf qwerty\"), the results are guesses from index words that only begin like the question's (a typo), or nothing the question names (a passage title, a topic, a remembered line) matched and the best result's similarity is under 0.35. Never true for a direct passage."),
});

export const Health = z.object({ status: z.literal("ok") });
export const Readiness = z
  .object({
    status: z.enum(["ready", "starting", "draining"]),
    search: z
      .object({
        ready: z.boolean(),
        state: z.string().describe("starting, waiting for Chroma, indexing, ready, vector store down or failed"),
        chroma: z.enum(["up", "down", "unknown"]),
        index: z.string().optional().describe("The Chroma collection in use"),
        index_version: z.number().int().optional(),
        embedder: z.string().optional(),
      })
      .loose()
      .optional()
      .describe("Search's own state: chat answers without it, so it does not decide the status code."),
  })
  .loose()
  .describe("200 while this replica can answer chat, 503 while it shuts down; search's state in the body.");
