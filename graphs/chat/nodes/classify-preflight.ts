import { type AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { startCall } from "../call-metrics.js";
import { z } from "zod";
import { resolveContext, type ChatRunConfig } from "../configuration.js";
import { Deadline } from "../deadline.js";
import type { ChatDeps } from "../deps.js";
import { lastUserText } from "../messages.js";
import { classifierInput } from "../preflight-input.js";
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
 * Rules first (no provider call), then the classifier model on the last user message, with the
 * turns before it for context (classifierInput). A classifier
 * that answers nonsense fails open to the agent: the guardrails still apply there, and refusing a
 * sincere question because a cheap model stumbled is the worse error. Provider failures (key, rate
 * limit, outage, timeout) propagate: the agent call would meet the same provider.
 */
export function createClassifyPreflight(deps: ChatDeps) {
  const failOpen = (): ChatStateUpdate => {
    deps.logger?.warn({ node: "classifyPreflight" }, "classifier output was not a category; passing the message to the agent");
    deps.metrics?.preflight("biblical_question");
    return { category: "biblical_question", classifiedBy: "fallback" };
  };

  return async function classifyPreflight(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    const ctx = resolveContext(config, deps);
    const text = lastUserText(state.messages);
    const input = classifierInput(state.messages);
    const byRule = classifyByRules(text, (t) => deps.references.parsePassageQuery(t) !== null, { hasContext: input.hasContext });
    if (byRule) {
      deps.metrics?.preflight(byRule);
      return { category: byRule, classifiedBy: "rules" };
    }

    const model = deps.models(ctx, "preflight").withStructuredOutput(PreflightSchema, {
      name: "preflight_classification",
      method: "jsonSchema",
      includeRaw: true,
    });
    const deadline = new Deadline(deps.providerTimeoutMs, config.signal);
    const done = startCall(deps.metrics, "preflight");
    let result: { raw: BaseMessage; parsed: z.infer<typeof PreflightSchema> | null };
    try {
      result = await model.invoke([new SystemMessage(deps.prompts.preflight.body), new HumanMessage(input.text || text)], {
        callbacks: config.callbacks,
        signal: deadline.signal,
      });
    } catch (err) {
      if (isCallerAbort(config.signal)) {
        done(err, true);
        throw err;
      }
      const mapped = deadline.timedOut
        ? upstreamTimeout(deps.providerName, deps.providerTimeoutMs)
        : isMalformedClassification(err)
          ? undefined
          : toProviderError(err, { provider: deps.providerName, model: ctx.preflightModel, timeoutMs: deps.providerTimeoutMs });
      done(mapped);
      if (mapped) throw mapped;
      return failOpen();
    } finally {
      deadline.stop();
    }
    done(undefined);
    const usage = (result.raw as AIMessage).usage_metadata;
    if (usage) deps.metrics?.tokens({ prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens });
    if (!result.parsed) return failOpen();
    deps.metrics?.preflight(result.parsed.category);
    return { category: result.parsed.category, classifiedBy: "model" };
  };
}
