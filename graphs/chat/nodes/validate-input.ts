import { AIMessage } from "@langchain/core/messages";
import { checkContext, checkTurns } from "../contract.js";
import { refuseContextKey, resolveContext, type ChatRunConfig } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import type { ChatStateUpdate, ChatStateValue } from "../state.js";

/**
 * The adapter checks requests before the graph runs; this node guards the graph's own entry
 * (LangGraph Studio, tests, future callers) with the same checks from the contract, and records the
 * prompt versions.
 */
export function createValidateInput(deps: ChatDeps) {
  return async function validateInput(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    refuseContextKey(config, deps);
    const ctx = resolveContext(config, deps);
    // Where no caller can send a key (Studio), a run without one is told where it goes, as its answer.
    if (ctx.apiKey === "" && deps.missingKeyReply) {
      return { content: deps.missingKeyReply, messages: [new AIMessage(deps.missingKeyReply)], promptVersions: "" };
    }
    checkContext(ctx, deps.catalog);
    checkTurns(state.messages.map((m) => ({ role: m.getType() === "human" ? "user" : "assistant" })));
    if (ctx.skipPreflight) deps.metrics?.preflight("skipped");
    return { promptVersions: deps.catalog.promptVersions(ctx.theology, ctx.profile) };
  };
}
