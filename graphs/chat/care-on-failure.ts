import { render } from "../../src/prompts/loader.js";
import { detectCrisisLanguage } from "../../src/prompts/language.js";
import type { ChatOutcome, ChatRequestContext, ChatTurn, RunChatOptions } from "./contract.js";
import type { ChatDeps } from "./deps.js";
import { ChatError } from "./errors.js";
import { distressLanguage, isDistress, needsCare, type DistressLanguage } from "./preflight-rules.js";
import { cannedVars } from "./prompts.js";
import { resolveContext, type ChatRunConfig } from "./configuration.js";
import { NO_USAGE } from "./usage.js";

/**
 * When the model provider fails, a person in distress still gets help (issue 19). This is the one
 * place that decides it, on top of the mapped provider errors (provider-errors.ts) whatever call failed
 * (the classifier, a speculative first call, a later agent turn), streamed or not:
 *
 * - every provider failure is logged here with the provider's address (host and port), which callers
 *   never see: their message names the provider as configured;
 * - when the run's care decision (care.ts: the classifier's verdict when it answered before the failure,
 *   else the rules over the conversation: any turn that read as distress, or a first-message goodbye)
 *   says care, and the provider failed in any way (5xx, timeout, refused connection,
 *   a rejected key, a rate limit, an unknown model), the run answers with the canned crisis reply
 *   (prompts/canned/crisis.*.md, whose help lines are _partials/help-lines.md) in the user's language,
 *   finish_reason "stop", instead of the error;
 * - if part of the answer had already streamed when the provider failed, the crisis reply follows it
 *   after a blank line and the stream ends normally, instead of the in-stream error event: the person
 *   keeps what they read and gets the help lines, and an application that shows errors as "something
 *   went wrong" has nothing to hide them behind. (Not streamed, the partial answer was never sent: the
 *   caller gets the crisis reply alone.)
 *
 * - the same holds when the provider answered but withheld the answer: its content filter stopped it
 *   (finish_reason content_filter, which self-harm filters do to exactly these messages) or the answer is
 *   empty. On a run that needs care the crisis reply follows what was said, finish_reason "stop"; on any
 *   other run the caller gets the provider's finish reason as it is.
 *
 * The crisis reply is sent as it is, outside max_words: crisis care comes before length.
 */
export async function careOnProviderFailure(
  deps: ChatDeps,
  turns: ChatTurn[],
  ctx: ChatRequestContext,
  opts: RunChatOptions,
  run: (opts: RunChatOptions) => Promise<ChatOutcome>,
): Promise<ChatOutcome> {
  let sent = "";
  let decided: boolean | undefined;
  const onDelta = opts.onDelta;
  const tracked: RunChatOptions = {
    ...opts,
    onCare: (care) => {
      decided = care;
      opts.onCare?.(care);
    },
    ...(onDelta
      ? {
          onDelta: (text: string) => {
            sent += text;
            onDelta(text);
          },
        }
      : {}),
  };
  // Read only when the run failed or its answer was withheld, not on every chat.
  const userTexts = () => turns.filter((t) => t.role === "user").map((t) => t.content);
  let outcome: ChatOutcome;
  try {
    outcome = await run(tracked);
  } catch (err) {
    if (opts.signal?.aborted || !(err instanceof ChatError) || err.provider === undefined) throw err;
    deps.logger?.warn({ provider: err.provider, address: providerAddress(deps, err.provider), code: err.code }, "model provider call failed");
    // The same decision the run made (care.ts), or the rules alone when the failure came before it.
    const texts = userTexts();
    if (!(decided ?? needsCare(texts))) throw err;
    const resolved = resolveContext({ context: ctx } as ChatRunConfig, deps);
    const reply = crisisReply(deps, resolved, texts);
    const content = sent ? `\n\n${reply}` : reply;
    onDelta?.(content);
    deps.logger?.warn({ provider: err.provider, code: err.code, streamedBefore: sent.length > 0 }, "model provider failed on a message that needs care: sent the crisis reply");
    return {
      kind: "answer",
      content: sent + content,
      finishReason: "stop",
      usage: NO_USAGE,
      promptVersions: deps.catalog.promptVersions(resolved.theology, resolved.profile),
      citations: [],
      quotes: { verified: 0, corrected: 0, unquoted: 0 },
    };
  }
  // The provider answered but withheld the answer from a person who needs care: the crisis reply follows.
  if (outcome.kind !== "answer") return outcome;
  const empty = outcome.content.trim() === "";
  if (outcome.finishReason !== "content_filter" && !empty) return outcome;
  const texts = userTexts();
  if (!(decided ?? needsCare(texts))) return outcome;
  const reply = crisisReply(deps, resolveContext({ context: ctx } as ChatRunConfig, deps), texts);
  const added = empty ? reply : `\n\n${reply}`;
  onDelta?.(added);
  deps.logger?.warn({ finishReason: outcome.finishReason, empty }, "the provider withheld an answer that needs care: sent the crisis reply after it");
  return { ...outcome, content: outcome.content + added, finishReason: "stop" };
}

/**
 * The canned crisis reply in the language the distress was written in (en, es, pt, fr, de): the
 * language of the last message the rules read as distress, else the stopword guess over the five
 * languages on the last messages ("ok" or "bye" alone says little; the distress before it says more).
 */
export function crisisReply(deps: Pick<ChatDeps, "prompts">, ctx: ChatRequestContext, userTexts: readonly string[]): string {
  const last = userTexts.at(-1) ?? "";
  const doc = deps.prompts.canned("crisis", crisisLanguage(userTexts));
  return render(doc.body, cannedVars(deps.prompts, ctx, last)).trim();
}

function crisisLanguage(userTexts: readonly string[]): DistressLanguage {
  const read = userTexts.map(distressLanguage).filter((l): l is DistressLanguage => l !== undefined);
  // "suicide" reads as English in any language; another language's rule is the more telling one.
  const chosen = read.filter((l) => l !== "en").at(-1) ?? read.at(-1);
  if (chosen && chosen !== "en") return chosen;
  const sample = [...userTexts.filter(isDistress).slice(-1), userTexts.at(-1) ?? ""].join(" ");
  const guessed = detectCrisisLanguage(sample);
  return guessed !== "en" ? guessed : (chosen ?? "en");
}

/** host:port of a configured provider, for the log only. */
function providerAddress(deps: ChatDeps, name: string): string | undefined {
  const baseURL = deps.catalog.providers.byName(name)?.baseURL;
  if (!baseURL) return undefined;
  try {
    return new URL(baseURL).host;
  } catch {
    return undefined;
  }
}
