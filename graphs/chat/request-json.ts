/**
 * A provider request's JSON, the same string `JSON.stringify(body)` gives (the SDK's own encoding), with
 * the parts that repeat across requests serialized once instead of at every call: the system prompt's
 * core (guardrails, theology and profile: about 26 KB of the agent's 35 KB request, with curly quotes
 * that make it a two-byte string) and the tool definitions. Escaping that much text was the SDK's
 * `JSON.stringify` at about 3 % of the service's CPU (docs/performance.md, session 14).
 *
 * Only what is sure to give the same bytes takes the short way:
 * - the first message is a plain `{role: "system", content}` whose content starts with the given prefix,
 *   and that prefix does not end inside a surrogate pair (JSON.stringify escapes a lone surrogate, so a
 *   pair cut in two would be written differently);
 * - a value's remembered JSON is used only for a value handed to `rememberJson`, which freezes it deeply
 *   first, so it cannot change after its JSON was taken.
 * Anything else is `JSON.stringify` as before.
 */

/** JSON of values that never change (rememberJson), by identity. */
const remembered = new WeakMap<object, string>();

/** JSON of system prompt prefixes without the closing quote, by the prefix (few: one per theology, profile and translation). */
const prefixes = new Map<string, string | null>();
const PREFIXES_MAX = 256;

/** Freezes `value` deeply and keeps its JSON, for every request that carries this same object. */
export function rememberJson<T extends object>(value: T): T {
  if (remembered.has(value)) return value;
  deepFreeze(value);
  remembered.set(value, JSON.stringify(value));
  return value;
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}

/** The prefix's JSON without its closing quote; null when the prefix cannot be cut there (a high surrogate last). */
function prefixJson(prefix: string): string | null {
  let json = prefixes.get(prefix);
  if (json !== undefined) return json;
  const last = prefix.charCodeAt(prefix.length - 1);
  json = prefix.length === 0 || (last >= 0xd800 && last <= 0xdbff) ? null : JSON.stringify(prefix).slice(0, -1);
  if (prefixes.size >= PREFIXES_MAX) prefixes.clear();
  prefixes.set(prefix, json);
  return json;
}

/** A value JSON.stringify writes as it is: no toJSON of its own to call. */
const plain = (value: object) => typeof (value as { toJSON?: unknown }).toJSON !== "function";

/**
 * `JSON.stringify(body)`, with `systemPrefix` (the start of the system message, the same every request)
 * and remembered values written from their kept JSON.
 */
export function requestJson(body: Record<string, unknown>, systemPrefix?: string): string {
  const messages = body.messages;
  const first: unknown = Array.isArray(messages) ? messages[0] : undefined;
  const head = systemPrefix === undefined ? null : prefixJson(systemPrefix);
  if (head === null || !plain(body) || !Array.isArray(messages) || !plain(messages) || !isSystemMessage(first) || !startsWith(first.content, systemPrefix!)) {
    return JSON.stringify(body);
  }
  const system = `{"role":"system","content":${head}${JSON.stringify(first.content.slice(systemPrefix!.length)).slice(1)}}`;
  const list = messages.length > 1 ? `[${system},${JSON.stringify(messages.slice(1)).slice(1)}` : `[${system}]`;
  let out = "";
  for (const key of Object.keys(body)) {
    const value = body[key];
    const json = key === "messages" ? list : ((value !== null && typeof value === "object" && remembered.get(value)) || JSON.stringify(value));
    // JSON.stringify leaves out a property whose value it cannot write (undefined, a function, a symbol).
    if (json === undefined) continue;
    out += `${out === "" ? "{" : ","}${JSON.stringify(key)}:${json}`;
  }
  return out === "" ? "{}" : `${out}}`;
}

/**
 * `text.startsWith(prefix)`, in about a microsecond for a 26 KB prefix where V8's startsWith compares a
 * two-byte string character by character (8-50 us measured): a slice is a view, and string equality of
 * flat strings compares their memory at once.
 */
const startsWith = (text: string, prefix: string) => text.length >= prefix.length && text.slice(0, prefix.length) === prefix;

/** `{role: "system", content: string}` and nothing else, in that order (what JSON.stringify writes for it is then known). */
function isSystemMessage(m: unknown): m is { role: "system"; content: string } {
  if (m === null || typeof m !== "object" || !plain(m)) return false;
  const keys = Object.keys(m);
  const r = m as { role?: unknown; content?: unknown };
  return keys.length === 2 && keys[0] === "role" && keys[1] === "content" && r.role === "system" && typeof r.content === "string";
}
