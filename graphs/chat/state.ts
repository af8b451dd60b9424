import { MessagesValue, ReducedValue, StateSchema, type StateSchemaFields } from "@langchain/langgraph";
import { z } from "zod";
import { FINISH_REASONS, PREFLIGHT_CATEGORIES } from "./contract.js";
import { HOUSEKEEPING_TASKS } from "./housekeeping.js";

import { addUsage } from "./usage.js";

export { PREFLIGHT_CATEGORIES };

const UsageSchema = z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() });

/**
 * A state schema whose node updates LangGraph takes as the nodes wrote them. LangGraph runs the state's
 * zod check on every key of every node's update (32 checks a chat, each an async call and a zod parse)
 * and offers no switch for it; the updates come from this graph's own typed nodes, and over the graph
 * tests every check returned the update unchanged (docs/performance.md, session 11). What a run is
 * given stays checked: its input by ChatInput, its context by the context schema. The JSON schemas
 * Studio draws from (state, update, output) are StateSchema's own, unchanged.
 */
class NodeUpdatesTrusted<F extends StateSchemaFields> extends StateSchema<F> {
  override validateInput<T>(data: T): Promise<T> {
    return Promise.resolve(data);
  }
}

/**
 * What one chat run knows. Nothing per-request and secret lives here (the key, the caller's system
 * text): those travel in the run's context, so a checkpoint or a Studio trace never holds them.
 */
export const ChatState = new NodeUpdatesTrusted({
  /** The conversation: caller turns, then the agent's tool-calling turns, tool results and the answer. */
  messages: MessagesValue,
  /** The preflight category of the last user message; null when preflight was skipped. */
  category: z.enum(PREFLIGHT_CATEGORIES).nullable().default(null),
  /** Who decided the category: cheap rules, the classifier model, or the fail-open fallback; null when skipped. */
  classifiedBy: z.enum(["rules", "model", "fallback"]).nullable().default(null),
  /**
   * Whether the answer is made with care (care.ts careFor): the rules over the conversation or the
   * classifier's verdict, decided by classifyPreflight; null when no preflight ran (the rules decide).
   */
  care: z.boolean().nullable().default(null),
  /** A chat UI's housekeeping request (housekeeping.ts) preflight recognised; null for anything else. */
  housekeeping: z.enum(HOUSEKEEPING_TASKS).nullable().default(null),
  /** Agent model calls made so far; bounded by AGENT_MAX_STEPS. */
  steps: z.number().int().default(0),
  /** The answer as the model wrote it, already cut to max_words, before link conversion. */
  answer: z.string().default(""),
  /** "length" when the word limit (or the provider's token limit) cut the answer; "content_filter" when the provider's filter did. */
  finishReason: z.enum(FINISH_REASONS).nullable().default(null),
  /** What the caller receives: the link-converted answer, a canned reply, or the content-filter message. */
  content: z.string().default(""),
  /** Tokens of every provider call of the run: each node that calls the provider adds its call's. */
  usage: new ReducedValue(UsageSchema.default({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }), { reducer: addUsage }),
  /** The scripture the answer cites (docs/grounding.md): plain JSON objects, in order of first appearance. */
  citations: z.array(z.record(z.string(), z.unknown())).default(() => []),
  /** The answer's quotations of scripture by what the quotation check did. */
  quotes: z.object({ verified: z.number().int(), corrected: z.number().int(), unquoted: z.number().int() }).default(() => ({ verified: 0, corrected: 0, unquoted: 0 })),
  /** The X-Prompt-Versions value of the prompts this run used. */
  promptVersions: z.string().default(""),
});

/** What a run starts from, and all Studio's input form offers: the conversation. The rest is the graph's work. */
export const ChatInput = new StateSchema({ messages: MessagesValue });

export type ChatStateValue = typeof ChatState.State;
export type ChatStateUpdate = typeof ChatState.Update;
