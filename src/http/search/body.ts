/**
 * The search response's bytes, the same as `res.json` would send (JSON.stringify of the same object,
 * UTF-8), built with each result's chapter text taken JSON-encoded from a bounded cache. The chapter texts
 * are ~90% of a response (~20 KB for five chapters) and the same chapters come back across searches;
 * encoding them once saves JSON.stringify's escaping scan and Express's two UTF-8 passes over them
 * (Buffer.byteLength, then the write): ~0.1 ms of a search at concurrency 1 (docs/search.md, "Speed").
 */

/**
 * Cache budget in bytes, counting each entry's key (the chapter text, two bytes a character at worst) and
 * its encoded bytes; the least recently used entries make room. About 300 chapters of ~4,000 characters.
 * At 8 MB of encoded text (keys not counted) the service's peak RSS under 4,000 searches at concurrency
 * 16 rose 21-27 MB (docs/search.md, "Speed").
 */
export const TEXT_CACHE_BYTES = 4 * 1024 * 1024;

/** A chapter costing more than this (key and encoded) is encoded per response, not cached. */
const LARGEST_CACHED = 256 * 1024;

const cache = new Map<string, Buffer>();
let cachedBytes = 0;

/** What the cache holds now (tests). */
export function textCacheSize(): { entries: number; bytes: number } {
  return { entries: cache.size, bytes: cachedBytes };
}

/** What an entry holds: its key string (two bytes a character at worst) and its bytes. */
const entryBytes = (text: string, encoded: Buffer) => 2 * text.length + encoded.length;

function encodedText(text: string): Buffer {
  const hit = cache.get(text);
  if (hit !== undefined) {
    // Most recently used last, so eviction takes the least recently used.
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const encoded = Buffer.from(JSON.stringify(text), "utf8");
  const cost = entryBytes(text, encoded);
  if (cost > LARGEST_CACHED) return encoded;
  while (cache.size > 0 && cachedBytes + cost > TEXT_CACHE_BYTES) {
    const oldest = cache.keys().next().value as string;
    cachedBytes -= entryBytes(oldest, cache.get(oldest)!);
    cache.delete(oldest);
  }
  cache.set(text, encoded);
  cachedBytes += cost;
  return encoded;
}

/**
 * Stands for a result's text while the rest of the result is stringified: a control character no
 * chapter text, reference, book name or url holds (checked: a result where it would appear more than
 * once is stringified whole instead).
 */
const MARK = "\u0001";
const MARK_JSON = JSON.stringify(MARK);

/**
 * `JSON.stringify(body)` as UTF-8 bytes, for a body whose `results` are objects with a string `text`:
 * each result is stringified with its text replaced by MARK (same key order), and the encoded text is
 * put where MARK's JSON stands.
 */
export function searchResponseBody(body: { results: readonly { text: string }[] } & Record<string, unknown>): Buffer {
  const { results } = body;
  const rest = JSON.stringify({ ...body, results: [] });
  // `{"results":[]` opens the object: the results go between its brackets.
  const open = '{"results":[';
  if (!rest.startsWith(`${open}]`)) return Buffer.from(JSON.stringify(body), "utf8");
  const parts: Buffer[] = [Buffer.from(open, "latin1")];
  for (const [i, r] of results.entries()) {
    const json = JSON.stringify({ ...r, text: MARK });
    const at = json.indexOf(MARK_JSON);
    if (at < 0 || json.indexOf(MARK_JSON, at + 1) >= 0) {
      parts.push(Buffer.from((i > 0 ? "," : "") + JSON.stringify(r), "utf8"));
      continue;
    }
    parts.push(Buffer.from((i > 0 ? "," : "") + json.slice(0, at), "utf8"), encodedText(r.text), Buffer.from(json.slice(at + MARK_JSON.length), "utf8"));
  }
  parts.push(Buffer.from(rest.slice(open.length), "utf8"));
  return Buffer.concat(parts);
}
