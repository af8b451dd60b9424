import { render } from "../../src/prompts/loader.js";
import { detectLanguage } from "../../src/prompts/language.js";
import type { ChatOutcome, ChatRequestContext, ChatTurn, RunChatOptions } from "./contract.js";
import type { ChatDeps } from "./deps.js";
import { ChatError } from "./errors.js";
import { distressLanguage, isDistress, needsCare } from "./preflight-rules.js";
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
 * - when the conversation needs care (needsCare: the last user message reads as distress, or says
 *   goodbye after one that did) and the provider failed in any way (5xx, timeout, refused connection,
 *   a rejected key, a rate limit, an unknown model), the run answers with the canned crisis reply
 *   (prompts/canned/crisis.*.md, whose help lines are _partials/help-lines.md) in the user's language,
 *   finish_reason "stop", instead of the error;
 * - if part of the answer had already streamed when the provider failed, the crisis reply follows it
 *   after a blank line and the stream ends normally, instead of the in-stream error event: the person
 *   keeps what they read and gets the help lines, and an application that shows errors as "something
 *   went wrong" has nothing to hide them behind. (Not streamed, the partial answer was never sent: the
 *   caller gets the crisis reply alone.)
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
  const onDelta = opts.onDelta;
  const tracked: RunChatOptions = onDelta
    ? {
        ...opts,
        onDelta: (text: string) => {
          sent += text;
          onDelta(text);
        },
      }
    : opts;
  try {
    return await run(tracked);
  } catch (err) {
    if (opts.signal?.aborted || !(err instanceof ChatError) || err.provider === undefined) throw err;
    deps.logger?.warn({ provider: err.provider, address: providerAddress(deps, err.provider), code: err.code }, "model provider call failed");
    const userTexts = turns.filter((t) => t.role === "user").map((t) => t.content);
    if (!needsCare(userTexts)) throw err;
    const resolved = resolveContext({ context: ctx } as ChatRunConfig, deps);
    const reply = crisisReply(deps, resolved, userTexts);
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
}

/** The canned crisis reply in the language of the messages that made the conversation need care. */
export function crisisReply(deps: Pick<ChatDeps, "prompts">, ctx: ChatRequestContext, userTexts: readonly string[]): string {
  const last = userTexts.at(-1) ?? "";
  const distress = userTexts.filter(isDistress);
  // "ok" or "bye" alone says little about the language; the distress before it says more. The stopword
  // guess misses "me quiero matar"; the Spanish distress pattern it matched does not.
  const sample = [...distress.slice(-1), last].join(" ");
  const language = detectLanguage(sample) === "es" || distress.some((t) => distressLanguage(t) === "es") ? "es" : "en";
  const doc = deps.prompts.canned("crisis", language);
  return render(doc.body, cannedVars(deps.prompts, ctx, last)).trim();
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
