import type { AIMessage } from "@langchain/core/messages";
import { END } from "@langchain/langgraph";
import type { ChatRunConfig } from "./configuration.js";
import { PREFLIGHT_ACTION } from "./contract.js";
import type { ChatStateValue } from "./state.js";

/** END when validateInput already answered (a run with no key where none can be sent: missingKeyReply). */
export function routeAfterValidate(state: ChatStateValue, config: ChatRunConfig): "classifyPreflight" | "callAgent" | typeof END {
  if (state.content !== "") return END;
  return (config.context as { skipPreflight?: boolean } | undefined)?.skipPreflight === true ? "callAgent" : "classifyPreflight";
}

/** The agent's way: callAgent, whose first step adds the prefetched retrieval (prefetch.ts) before its call. */
const AFTER_PREFLIGHT = { agent: "callAgent", canned: "respondCanned", refused: "rejectInput" } as const;

/** The contract's PREFLIGHT_ACTION says what each category does; this only names the node that does it. */
export function routeAfterPreflight(state: ChatStateValue): "callAgent" | "respondCanned" | "rejectInput" | "answerHousekeeping" {
  if (state.housekeeping) return "answerHousekeeping";
  return state.category ? AFTER_PREFLIGHT[PREFLIGHT_ACTION[state.category]] : "callAgent";
}

export function routeAfterAgent(state: ChatStateValue): "callTools" | "convertLinks" {
  const last = state.messages[state.messages.length - 1] as AIMessage | undefined;
  return last?.tool_calls?.length ? "callTools" : "convertLinks";
}
