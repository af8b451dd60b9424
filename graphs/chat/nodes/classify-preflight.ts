import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { z } from "zod";
import { resolveContext, type ChatRunConfig } from "../configuration.js";
import { Deadline } from "../deadline.js";
import type { ChatDeps } from "../deps.js";
import { lastUserText } from "../messages.js";
import { classifyByRules } from "../preflight-rules.js";
import { isCallerAbort, toProviderError, upstreamTimeout } from "../provider-errors.js";
import { PREFLIGHT_CATEGORIES, type ChatStateUpdate, type ChatStateValue } from "../state.js";

export const PreflightSchema = z.object({
  category: z.enum(PREFLIGHT_CATEGORIES).describe("The single category that fits the user's message best."),
});

/** The classifier answered, but not with one of the eight categories (or not as JSON). */
function isMalformedClassification(err: unknown): boolean {
  const e = err as { name?: string; lc_error_code?: string; issues?: unknown } | null;
  return (
    e?.name === "OutputParserException" ||
    e?.lc_error_code === "OUTPUT_PARSING_FAILURE" ||
    // zod 4 names its error "$ZodError"; both carry the list of issues.
    (typeof e?.name === "string" && e.name.endsWith("ZodError") && Array.isArray(e.issues))
  );
}

/**
 * Rules first (no provider call), then the classifier model on the last user message. A classifier
 * that answers nonsense fails open to the agent: the guardrails still apply there, and refusing a
 * sincere question because a cheap model stumbled is the worse error. Provider failures (key, rate
 * limit, outage, timeout) propagate: the agent call would meet the same provider.
 */
export function createClassifyPreflight(deps: ChatDeps) {
  return async function classifyPreflight(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    const ctx = resolveContext(config, deps);
    const text = lastUserText(state.messages);
    const byRule = classifyByRules(text, (t) => deps.references.parsePassageQuery(t) !== null);
    if (byRule) return { category: byRule, classifiedBy: "rules" };

    const model = deps.models(ctx, "preflight").withStructuredOutput(PreflightSchema, {
      name: "preflight_classification",
      method: "jsonSchema",
    });
    const deadline = new Deadline(deps.providerTimeoutMs, config.signal);
    try {
      const result = await model.invoke([new SystemMessage(deps.prompts.preflight.body), new HumanMessage(text)], {
        callbacks: config.callbacks,
        signal: deadline.signal,
      });
      return { category: result.category, classifiedBy: "model" };
    } catch (err) {
      if (isCallerAbort(config.signal)) throw err;
      if (deadline.timedOut) throw upstreamTimeout(deps.providerName, deps.providerTimeoutMs);
      if (isMalformedClassification(err)) {
        deps.logger?.warn({ node: "classifyPreflight" }, "classifier output was not a category; passing the message to the agent");
        return { category: "biblical_question", classifiedBy: "fallback" };
      }
      throw toProviderError(err, { provider: deps.providerName, model: ctx.preflightModel, timeoutMs: deps.providerTimeoutMs });
    } finally {
      deadline.stop();
    }
  };
}
