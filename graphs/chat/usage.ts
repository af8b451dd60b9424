import type { Usage } from "./contract.js";

/** About four characters a token: only for calls the provider never reported (see estimateUsage). */
const CHARS_PER_TOKEN = 4;

export const NO_USAGE: Usage = Object.freeze({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

/**
 * More tokens than any model reads or writes in one call (the largest contexts are a few million): a
 * report past it is garbage, as is a negative, fractional or non-numeric one.
 */
const MAX_REPORTED_TOKENS = 100_000_000;

/** One count of the provider's report, taken only when it is a whole number of tokens a call can have; else 0. */
const reported = (n: unknown): number => (typeof n === "number" && Number.isInteger(n) && n >= 0 && n <= MAX_REPORTED_TOKENS ? n : 0);

/**
 * The provider's usage report as ours. The numbers come from the provider as it sent them: a broken or
 * hostile one (1e308, -5, "12") would otherwise reach the caller's usage (the spec's integers) and the
 * tokens counter, which can never come back from +Inf.
 */
export function fromProvider(u: { prompt_tokens?: unknown; completion_tokens?: unknown }): Usage {
  const prompt = reported(u.prompt_tokens);
  const completion = reported(u.completion_tokens);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/**
 * A call that ended without a report (the answer turn that max_words cut: we abort it before the
 * provider's usage chunk) is estimated from the characters sent and received, so usage does not
 * silently drop a call the caller paid for.
 */
export function estimateUsage(promptChars: number, completionChars: number): Usage {
  return fromProvider({ prompt_tokens: Math.ceil(promptChars / CHARS_PER_TOKEN), completion_tokens: Math.ceil(completionChars / CHARS_PER_TOKEN) });
}
