const MASK = "[redacted]";

/**
 * Removes the caller's key from an error and its causes before anything logs it. Libraries below us
 * sometimes echo request details into messages; the key must never reach a log line (spec, auth 5).
 */
export function withoutKey<T>(err: T, key: string, depth = 4): T {
  if (depth === 0 || typeof err !== "object" || err === null) return err;
  const e = err as { message?: unknown; stack?: unknown; cause?: unknown };
  for (const field of ["message", "stack"] as const) {
    const value = e[field];
    if (typeof value === "string" && value.includes(key)) {
      try {
        e[field] = value.split(key).join(MASK);
      } catch {
        // A frozen error cannot be cleaned; the logger's redaction remains.
      }
    }
  }
  if (e.cause !== undefined) withoutKey(e.cause, key, depth - 1);
  return err;
}
