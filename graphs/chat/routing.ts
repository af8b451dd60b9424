import type { AIMessage } from "@langchain/core/messages";
import type { ChatRunConfig } from "./configuration.js";
import { PREFLIGHT_ACTION } from "./contract.js";
import type { ChatStateValue } from "./state.js";

export function routeAfterValidate(_state: ChatStateValue, config: ChatRunConfig): "classifyPreflight" | "retrieveScripture" {
  return (config.context as { skipPreflight?: boolean } | undefined)?.skipPreflight === true ? "retrieveScripture" : "classifyPreflight";
}

/** The agent's way starts with the prefetched retrieval (retrieveScripture), then callAgent. */
const AFTER_PREFLIGHT = { agent: "retrieveScripture", canned: "respondCanned", refused: "rejectInput" } as const;

/** The contract's PREFLIGHT_ACTION says what each category does; this only names the node that does it. */
export function routeAfterPreflight(state: ChatStateValue): "retrieveScripture" | "respondCanned" | "rejectInput" | "answerHousekeeping" {
  if (state.housekeeping) return "answerHousekeeping";
  return state.category ? AFTER_PREFLIGHT[PREFLIGHT_ACTION[state.category]] : "retrieveScripture";
}

export function routeAfterAgent(state: ChatStateValue): "callTools" | "convertLinks" {
  const last = state.messages[state.messages.length - 1] as AIMessage | undefined;
  return last?.tool_calls?.length ? "callTools" : "convertLinks";
}
