import { groundingOptions, groundText } from "../answer/grounding.js";
import { resolveContext, type ChatRunConfig } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import type { ChatStateUpdate, ChatStateValue } from "../state.js";
import { countQuotes } from "../../../src/scripture/quotes/index.js";

/**
 * The answer's final form: quotations checked, then links converted (when on). The answer turn
 * already did both while streaming (AnswerStream), so this node only does it for an answer that
 * reached the state some other way; it runs the same code (groundText), so the result is the same.
 */
export function createConvertLinks(deps: ChatDeps) {
  return async function convertLinks(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    if (state.content !== "" || state.answer === "") return { content: state.content };
    const grounded = groundText(state.answer, groundingOptions(resolveContext(config, deps), deps));
    return {
      content: grounded.content,
      citations: grounded.citations as unknown as Record<string, unknown>[],
      quotes: countQuotes(grounded.quotes),
    };
  };
}
