import { startCall } from "../call-metrics.js";
import { z } from "zod";
import { resolveContext, runKey, type ChatRunConfig } from "../configuration.js";
import { Deadline } from "../deadline.js";
import type { ChatDeps } from "../deps.js";
import { lastUserText, userTexts } from "../messages.js";
import { classifierInput } from "../preflight-input.js";
import { classifyByRules } from "../preflight-rules.js";
import { careByRules } from "../care.js";
import { recogniseHousekeeping } from "../housekeeping.js";
import { isCallerAbort, toProviderError, upstreamTimeout } from "../provider-errors.js";
import { PREFLIGHT_CATEGORIES, type ChatStateUpdate, type ChatStateValue } from "../state.js";
import { addUsage, fromProvider, NO_USAGE } from "../usage.js";
import { PREFLIGHT_ACTION } from "../contract.js";
import { prefetchTurn } from "../prefetch.js";
import { classifierPromptPrefix, classifierSystemPrompt } from "../prompts.js";
import { discardSpeculation, type SpeculativeCall } from "../speculation.js";
import { startSpeculation } from "./call-agent.js";

/**
 * The classifier's care verdict (prompts/preflight.md): whether the writer may be in distress (self-harm,
 * suicide, abuse, grief, despair), and "danger" when they may be hurt or in danger now (something taken,
 * a plan under way, violence happening). Either puts the run under care (care.ts).
 */
export const CARE_VERDICTS = ["none", "distress", "danger"] as const;

export const PreflightSchema = z.object({
  category: z.enum(PREFLIGHT_CATEGORIES),
  care: z.enum(CARE_VERDICTS),
});

/** What is read back: a classifier that left the care verdict out still gave its category (no care from the model). */
const ParsedPreflight = PreflightSchema.extend({ care: z.enum(CARE_VERDICTS).nullish() });

/** The JSON schema the classifier must answer in (OpenAI structured outputs, strict). */
const PREFLIGHT_SCHEMA = (() => {
  const { $schema: _drop, ...schema } = z.toJSONSchema(PreflightSchema) as Record<string, unknown>;
  return { name: "preflight_classification", schema };
})();

/** The category the classifier answered, or null when it did not answer one of them as JSON. */
function parseClassification(content: string | null | undefined): z.infer<typeof ParsedPreflight> | null {
  if (!content) return null;
  try {
    const result = ParsedPreflight.safeParse(JSON.parse(content));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/**
 * Rules first (no provider call), then the classifier model on the last user message, with the
 * turns before it for context (classifierInput). A classifier
 * that answers nonsense fails open to the agent: the guardrails still apply there, and refusing a
 * sincere question because a cheap model stumbled is the worse error. Provider failures (key, rate
 * limit, outage, timeout) propagate: the agent call would meet the same provider.
 *
 * PREFLIGHT_MODE=parallel: when the classifier must run, the agent's first call starts beside it
 * (over the prefetched tool turn, prefetch.ts) and is held (speculation.ts): nothing of it leaves
 * before the verdict. A verdict that sends the message to the agent leaves it for callAgent to adopt;
 * any other verdict, and a classifier failure, close it at once, and its cost joins this node's usage.
 *
 * Care (care.ts) is the rules' reading of the conversation or the classifier's care verdict. A message
 * under care always reaches the agent, whatever category the classifier gave it (distress is never
 * refused nor answered with a canned reply), and a speculative call made without the care note (the
 * rules missed what the classifier read) is closed at the verdict and its cost counted: callAgent then
 * asks again with the care note, over a care-safe prefetched turn.
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
    // A chat UI's title/tags/follow-ups request is answered as what it is, before any rule reads it as a question.
    const task = recogniseHousekeeping(text);
    if (task) return { housekeeping: task.kind, classifiedBy: "rules" };
    const byRule = classifyByRules(text, (t) => deps.references.parsePassageQuery(t) !== null, {
      hasContext: input.hasContext,
      earlierUserTexts: userTexts(state.messages).slice(0, -1),
    });
    // The rules' care decision over the whole conversation (care sticks once a turn read as distress).
    const rulesCare = careByRules(state.messages);
    if (byRule) {
      deps.metrics?.preflight(byRule);
      return { category: byRule, classifiedBy: "rules", care: rulesCare };
    }

    const deadline = new Deadline(deps.providerTimeoutMs, config.signal);
    const done = startCall(deps.metrics, "preflight", ctx.provider?.name);
    // Settled into a value at once, so a classifier that fails while the speculation starts is no unhandled rejection.
    const classified = deps.models
      .classify(
        ctx,
        {
          messages: [
            { role: "system", content: classifierSystemPrompt(deps.prompts, input.withTurns) },
            { role: "user", content: input.text || text },
          ],
          schema: PREFLIGHT_SCHEMA,
          systemPrefix: classifierPromptPrefix(deps.prompts),
        },
        deadline.signal,
      )
      // The clock stops when the classifier settles, so a slow prefetch after a fast failure is not a timeout.
      .then(
        (completion) => (deadline.stop(), { completion }),
        (error: unknown) => (deadline.stop(), { error }),
      );
    const run = runKey(config);
    let speculative: SpeculativeCall | undefined;
    let outcome: Awaited<typeof classified>;
    try {
      if (deps.preflightMode === "parallel" && run) {
        const turn = await prefetchTurn(deps, ctx, state.messages, config, rulesCare);
        speculative = startSpeculation(deps, ctx, [...state.messages, ...turn], run, config.signal, rulesCare);
      }
      outcome = await classified;
    } catch (err) {
      // Only the caller leaving gets here (prefetch and the classifier settle into values).
      deadline.abort(err);
      discardSpeculation(run, err);
      throw err;
    } finally {
      deadline.stop();
    }
    if ("error" in outcome) {
      const err = outcome.error;
      if (isCallerAbort(config.signal)) {
        done(err, true);
        discardSpeculation(run, err);
        throw err;
      }
      const mapped = deadline.timedOut
        ? upstreamTimeout(deps.providerNameFor(ctx), deps.providerTimeoutMs)
        : toProviderError(err, { provider: deps.providerNameFor(ctx), model: ctx.preflightModel, timeoutMs: deps.providerTimeoutMs });
      done(mapped);
      // The run fails as the sequential one would; the speculative call is closed before it does.
      discardSpeculation(run, mapped);
      throw mapped;
    }
    done(undefined);
    const { completion } = outcome;
    let usage = completion.usage ? fromProvider(completion.usage) : NO_USAGE;
    if (completion.usage) deps.metrics?.tokens({ prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens });
    const parsed = parseClassification(completion.choices?.[0]?.message?.content);
    const care = rulesCare || (parsed?.care != null && parsed.care !== "none");
    if (parsed && care !== rulesCare) deps.logger?.warn({ node: "classifyPreflight", care: parsed.care }, "the classifier read distress the rules missed: answering with care");
    // Distress is never refused nor given a canned reply: the agent, whose guardrails still hold, answers it.
    const category = parsed && care && PREFLIGHT_ACTION[parsed.category] !== "agent" ? "biblical_question" : parsed?.category;
    const update = category ? { category, classifiedBy: "model" as const } : failOpen();
    if (category) deps.metrics?.preflight(category);
    // The verdict: the agent adopts the speculative call when it was made for this category and care;
    // otherwise it is closed now and its cost counted.
    if (speculative && (PREFLIGHT_ACTION[update.category!] !== "agent" || care !== rulesCare)) usage = addUsage(usage, discardSpeculation(run) ?? NO_USAGE);
    return { ...update, care, usage };
  };
}
