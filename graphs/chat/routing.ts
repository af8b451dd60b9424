import type { AIMessage } from "@langchain/core/messages";
import type { ChatRunConfig } from "./configuration.js";
import type { ChatStateValue } from "./state.js";

export function routeAfterValidate(_state: ChatStateValue, config: ChatRunConfig): "classifyPreflight" | "callAgent" {
  return (config.context as { skipPreflight?: boolean } | undefined)?.skipPreflight === true ? "callAgent" : "classifyPreflight";
}

export function routeAfterPreflight(state: ChatStateValue): "callAgent" | "respondCanned" | "rejectInput" {
  switch (state.category) {
    case "support_question":
    case "greeting":
    case "incomplete_input":
      return "respondCanned";
    case "hacker_activity":
    case "inappropriate":
    case "invalid":
      return "rejectInput";
    default:
      return "callAgent";
  }
}

export function routeAfterAgent(state: ChatStateValue): "callTools" | "convertLinks" {
  const last = state.messages[state.messages.length - 1] as AIMessage | undefined;
  return last?.tool_calls?.length ? "callTools" : "convertLinks";
}
