import { resolveContext, type ChatRunConfig } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { careFor } from "../care.js";
import { prefetchTurn } from "../prefetch.js";
import type { ChatStateUpdate, ChatStateValue } from "../state.js";

/**
 * The service's own retrieval for the question (search_scripture, and lookup_passage for a passage
 * the request or the message names), added to the conversation as a completed tool turn before the
 * agent's first call (prefetch.ts). In parallel preflight mode classifyPreflight has already made it
 * for the speculative call; this node then adds that same turn, so the state holds what was sent.
 */
export function createRetrieveScripture(deps: ChatDeps) {
  return async function retrieveScripture(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    const ctx = resolveContext(config, deps);
    const turn = await prefetchTurn(deps, ctx, state.messages, config, careFor(state));
    return turn.length > 0 ? { messages: turn } : {};
  };
}
