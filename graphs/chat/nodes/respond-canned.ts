import { render } from "../../../src/prompts/loader.js";
import { detectLanguage } from "../../../src/prompts/language.js";
import type { CannedKind } from "../../../src/prompts/types.js";
import { resolveContext, type ChatRunConfig } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { lastUserText } from "../messages.js";
import { greetingKind } from "../preflight-rules.js";
import { cannedVars } from "../prompts.js";
import type { ChatStateUpdate, ChatStateValue } from "../state.js";

/**
 * Support questions, greetings and fragments get a canned reply in the user's language (prompts/canned/).
 * A greeting's reply fits it: a welcome, thanks for thanks, a goodbye for a goodbye. A support question
 * gets the spec's blank answer (content ""), so that applications built for the original API show their
 * own help; SUPPORT_REPLY=text sends the paragraph about the service instead.
 */
export function createRespondCanned(deps: ChatDeps) {
  return async function respondCanned(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    const text = lastUserText(state.messages);
    if (state.category === "support_question" && deps.supportReply !== "text") return { content: "", finishReason: "stop" };
    const ctx = resolveContext(config, deps);
    const kind: CannedKind = state.category === "greeting" ? greetingKind(text) : state.category === "support_question" ? "support" : "incomplete_input";
    const doc = deps.prompts.canned(kind, detectLanguage(text));
    return { content: render(doc.body, cannedVars(deps.prompts, ctx, text)), finishReason: "stop" };
  };
}
