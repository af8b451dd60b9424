import { resolveContext, type ChatRunConfig } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import type { ChatStateUpdate, ChatStateValue } from "../state.js";

/** Link conversion is optional polish: when it throws, the plain answer goes out and the fault is logged. */
export function createConvertLinks(deps: ChatDeps) {
  return async function convertLinks(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    const ctx = resolveContext(config, deps);
    if (!ctx.convertLinks) return { content: state.answer };
    // The answer turn already converted its text while streaming it (see AnswerStream.linked).
    if (state.content !== "") return { content: state.content };
    try {
      return { content: deps.links.convertLinks(state.answer) };
    } catch (err) {
      deps.logger?.error({ err: { name: (err as Error)?.name, message: (err as Error)?.message } }, "link conversion failed; sending plain text");
      return { content: state.answer };
    }
  };
}
