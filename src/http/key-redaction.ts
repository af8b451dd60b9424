/**
 * Keys never reach a log, wherever a caller puts them: the Authorization header is never logged, and the
 * parts of a request that are (the path in the access line and in 404 messages, the caller's
 * X-Request-Id) lose anything shaped like a key first. Shaped like a key: the caller's own bearer token,
 * a token that starts with a configured key prefix (API_KEY_PREFIXES, PROVIDER_<NAME>_KEY_PREFIXES, the
 * spec's `sk-`), or any run of 40 or more letters, digits and underscores (no id, slug or reference of
 * ours is that long, nor a 32-hex trace id or a ULID a caller may send as X-Request-Id; keys are).
 */
export const REDACTED = "[redacted]";

const LONG_TOKEN = "[A-Za-z0-9_]{40,}";
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export type KeyRedactor = (text: string, callerKey?: string) => string;

export function keyRedactor(prefixes: readonly string[] = ["sk-"]): KeyRedactor {
  const prefixed = [...new Set(["sk-", ...prefixes])].filter((p) => p !== "").map((p) => `${escape(p)}[\\w-]{6,}`);
  // One pass, alternatives that start on different characters: linear in the text.
  const pattern = new RegExp(`(?:${[...prefixed, LONG_TOKEN].join("|")})`, "g");
  return (text, callerKey) => {
    const withoutCaller = callerKey && callerKey.length >= 8 ? text.split(callerKey).join(REDACTED) : text;
    return withoutCaller.replace(pattern, REDACTED);
  };
}

/** The bearer token of an Authorization header, if any (only to redact it elsewhere). */
export function bearerToken(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : /^\s*Bearer[ \t]+(\S+)/i.exec(authorization)?.[1];
}
