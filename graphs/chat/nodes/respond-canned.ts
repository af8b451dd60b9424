import { render } from "../../../src/prompts/loader.js";
import { detectLanguage } from "../../../src/prompts/language.js";
import { resolveContext, type ChatRunConfig } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { lastUserText } from "../messages.js";
import { cannedVars } from "../prompts.js";
import type { ChatStateUpdate, ChatStateValue } from "../state.js";

/** Support questions, greetings and fragments get a canned reply in the user's language (prompts/canned/). */
export function createRespondCanned(deps: ChatDeps) {
  return async function respondCanned(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    const ctx = resolveContext(config, deps);
    const text = lastUserText(state.messages);
    const kind = state.category === "greeting" ? "greeting" : state.category === "support_question" ? "support" : "incomplete_input";
    const doc = deps.prompts.canned(kind, detectLanguage(text));
    return { content: render(doc.body, cannedVars(deps.prompts, ctx, text)), finishReason: "stop" };
  };
}
