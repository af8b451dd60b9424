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

/** The provider's usage report as ours. */
export function fromProvider(u: { prompt_tokens?: number | null; completion_tokens?: number | null }): Usage {
  const prompt = u.prompt_tokens ?? 0;
  const completion = u.completion_tokens ?? 0;
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
