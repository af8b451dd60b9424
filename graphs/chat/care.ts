import type { BaseMessage } from "@langchain/core/messages";
import { userTexts } from "./messages.js";
import { needsCare } from "./preflight-rules.js";

/**
 * The run's one care decision: whether the answer is made for a person who may be in distress. It
 * decides three things together: the care-first note in the system prompt (prompts.ts), care-safe
 * retrieval (SearchRequest.care: every care concept's `avoid` applies), and the word limiter keeping
 * the help line (answer/word-limit.ts).
 *
 * classifyPreflight writes it to state (`care`); where no preflight ran (skip_preflight) the rules
 * over the conversation decide here.
 */
export function careFor(state: { care: boolean | null; messages: BaseMessage[] }): boolean {
  return state.care ?? careByRules(state.messages);
}

/** What the rules alone say of the conversation (also the speculative first call's care, made before any verdict). */
export function careByRules(messages: BaseMessage[]): boolean {
  return needsCare(userTexts(messages));
}
