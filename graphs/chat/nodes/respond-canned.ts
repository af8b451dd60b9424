import { render } from "../../../src/prompts/loader.js";
import { detectLanguage } from "../../../src/prompts/language.js";
import { resolveContext, type ChatRunConfig } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { lastUserText } from "../messages.js";
import { promptVars } from "../prompts.js";
import type { ChatStateUpdate, ChatStateValue } from "../state.js";

/** Support questions get an empty reply; greetings and fragments a canned one in the user's language. */
export function createRespondCanned(deps: ChatDeps) {
  return async function respondCanned(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    if (state.category === "support_question") return { content: "", finishReason: "stop" };
    const ctx = resolveContext(config, deps);
    const text = lastUserText(state.messages);
    const kind = state.category === "greeting" ? "greeting" : "incomplete_input";
    const doc = deps.prompts.canned(kind, detectLanguage(text));
    return { content: render(doc.body, promptVars(deps.prompts, ctx, text)), finishReason: "stop" };
  };
}
