import type { AIMessage } from "@langchain/core/messages";
import { Command, END } from "@langchain/langgraph";
import type { ChatRunConfig } from "./configuration.js";
import { PREFLIGHT_ACTION } from "./contract.js";
import type { ChatStateUpdate, ChatStateValue } from "./state.js";

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

/**
 * A node that names the next node itself: it runs, then `route` reads the state its update leaves,
 * and the node returns a Command carrying the update and the destination. The destinations are the
 * node's `ends` in graph.ts, so the drawing and Studio show the same dashed branches a conditional
 * edge would. What it saves is per routed step: a conditional edge is a runnable of its own that
 * first rebuilds the whole state (a fresh copy of every channel with the node's writes applied) only
 * for the router to read one or two fields; here the router reads the node's own update over the
 * state it was given.
 */
export function routed<N extends string>(
  node: (state: ChatStateValue, config: ChatRunConfig) => Promise<ChatStateUpdate>,
  route: (state: ChatStateValue, config: ChatRunConfig) => N,
): (state: ChatStateValue, config: ChatRunConfig) => Promise<Command<unknown, ChatStateUpdate, N>> {
  return async (state, config) => {
    const update = await node(state, config);
    return new Command({ update, goto: route(stateAfter(state, update), config) });
  };
}

/**
 * The state as a router reads it after a node's update: each field the update sets replaces the
 * state's (the routers read last-value fields only), and `messages` has the update's messages after
 * the state's, as the messages reducer appends the new ones the nodes write (AIMessage and
 * ToolMessage instances with fresh ids).
 */
export function stateAfter(state: ChatStateValue, update: ChatStateUpdate): ChatStateValue {
  const added = update.messages;
  const messages = added === undefined ? state.messages : state.messages.concat(added as ChatStateValue["messages"]);
  return { ...state, ...(update as Partial<ChatStateValue>), messages };
}
