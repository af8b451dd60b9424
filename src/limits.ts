import { z } from "zod";

/**
 * The one owner of how long each text the service reads may be. Every length is checked before any work
 * on the text (parsing, normalising, searching), by the HTTP endpoints, the MCP tools and the chat
 * graph's tools alike, so a text costs at most what its meaning needs. Values and reasons:
 * docs/reliability.md.
 */
export const TEXT_LIMITS = {
  /** A book name or id: the longest name with its ordinal and spacing ("Additional Esther (Greek)", "Primera de Corintios") fits with room. */
  bookName: 64,
  /** An id or a short enumerated name: a translation id, a testament, a slug. */
  name: 64,
  /** A passage reference, or a list of them in one chapter ("Romans 8:28, 31, 35-39", "1 Corintios 13:4-7"). */
  reference: 200,
  /** A search query (HTTP `q`/`query`, MCP and agent search tools): a question or a pasted verse, not a chapter. */
  query: 1000,
  /** Topic words for Nave's topics (HTTP `/v1/topics?q=`, the `topics` tool): a subject, not a question. */
  topic: 200,
  /** One word or Strong's number of a word study ("created", "G5368"). */
  word: 64,
  /** One chat message and `system_instructions`: about 5k tokens, room for a long pasted passage, not for a book. */
  message: 20_000,
  /** All of a chat request's messages plus `system_instructions`: well inside any model's context. */
  conversation: 100_000,
} as const;

export type TextLimit = keyof typeof TEXT_LIMITS;

/** "'book' is too long: at most 64 characters." The message every surface gives for a text over its cap. */
export function tooLongMessage(param: string, limit: TextLimit, length?: number): string {
  const got = length === undefined ? "" : ` (got ${length})`;
  return `'${param}' is too long: at most ${TEXT_LIMITS[limit]} characters${got}.`;
}

/** Whether the text fits its cap. */
export function fits(text: string, limit: TextLimit): boolean {
  return text.length <= TEXT_LIMITS[limit];
}

/**
 * A zod string bounded by its cap, with the same message as the HTTP checks; for tool and MCP argument
 * schemas (zod checks the length before any other refinement runs).
 */
export function boundedText(limit: TextLimit, param: string) {
  return z.string().max(TEXT_LIMITS[limit], { error: () => tooLongMessage(param, limit) });
}

/**
 * The text cut to its cap at a word boundary (or at the cap, never inside a surrogate pair), for text the
 * service itself passes on: the prefetched search of a chat message asks with its first words.
 */
export function clipText(text: string, limit: TextLimit): string {
  const max = TEXT_LIMITS[limit];
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  const space = text.lastIndexOf(" ", end);
  return text.slice(0, space > max / 2 ? space : end).trimEnd();
}
