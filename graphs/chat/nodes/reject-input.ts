import { render } from "../../../src/prompts/loader.js";
import { detectLanguage } from "../../../src/prompts/language.js";
import { resolveContext, type ChatRunConfig } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { lastUserText } from "../messages.js";
import { cannedVars } from "../prompts.js";
import type { ChatStateUpdate, ChatStateValue } from "../state.js";

/** Content-filter categories end here; the adapter turns the outcome into 400 content_filter. */
export function createRejectInput(deps: ChatDeps) {
  return async function rejectInput(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    const ctx = resolveContext(config, deps);
    const text = lastUserText(state.messages);
    const doc = deps.prompts.canned("content_filter", detectLanguage(text));
    return { content: render(doc.body, cannedVars(deps.prompts, ctx, text)) };
  };
}
