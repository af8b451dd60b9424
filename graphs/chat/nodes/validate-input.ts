import { AppError, invalidParameter, invalidRequest } from "../../../src/errors.js";
import { resolveContext, type ChatRunConfig } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import type { ChatStateUpdate, ChatStateValue } from "../state.js";

/**
 * The adapter validates requests before the graph runs; this node guards the graph's own entry
 * (LangGraph Studio, tests, future callers) with the same errors, and records the prompt versions.
 */
export function createValidateInput(deps: ChatDeps) {
  return async function validateInput(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    const ctx = resolveContext(config, deps);
    if (!ctx.apiKey) {
      throw new AppError({ status: 401, type: "invalid_request_error", code: "missing_api_key", message: "No provider API key was given." });
    }
    const last = state.messages[state.messages.length - 1];
    if (!last || last.getType() !== "human") throw invalidRequest("The conversation must end with a user message.", "messages");
    if (!deps.prompts.theology(ctx.theology)) {
      throw invalidParameter(`Unknown theology "${ctx.theology}"; GET /v1/theologies lists the options.`, "theology");
    }
    if (!deps.prompts.profile(ctx.profile)) {
      throw invalidParameter(`Unknown profile "${ctx.profile}"; GET /v1/profiles lists the options.`, "profile");
    }
    if (!deps.bibles.get(ctx.bibleId)) {
      throw invalidParameter(`Unknown bible_id "${ctx.bibleId}"; available: ${deps.bibles.ids().join(", ")}.`, "bible_id");
    }
    if (ctx.skipPreflight) deps.metrics?.preflight("skipped");
    return { promptVersions: deps.prompts.versions(ctx.theology, ctx.profile) };
  };
}
