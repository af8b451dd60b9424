/**
 * Where the study data lives (data/study, written by ingest/export-study.ts) and how it is read:
 * gzip JSON, one file per module or per book, read on first use and kept.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

/** Resolved from this file, not the working directory, so scripts and tests run from anywhere. */
export const DEFAULT_STUDY_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "data", "study");

/** The parsed file, or undefined when it does not exist (a book a module does not cover). */
export function readGzipJson<T>(dir: string, relative: string): T | undefined {
  const path = join(dir, relative);
  if (!existsSync(path)) return undefined;
  return JSON.parse(gunzipSync(readFileSync(path)).toString("utf8")) as T;
}

/** The file gunzipped, or undefined when it does not exist. */
export function readGzip(dir: string, relative: string): Buffer | undefined {
  const path = join(dir, relative);
  if (!existsSync(path)) return undefined;
  return gunzipSync(readFileSync(path));
}

/**
 * The JSON texts of the top-level elements of the JSON array in `json` (UTF-8), one at a time: a large
 * file's rows read without a string of the whole file or a parse of all of it at once (the Treasury of
 * David's 12 MB of Psalms parsed whole raised the process's RSS by about 80 MB). Not a validator: the
 * caller's JSON.parse of each element is.
 */
export function* jsonArrayItems(json: Buffer): Generator<string> {
  const n = json.length;
  let i = json.indexOf(0x5b); // [
  if (i < 0) throw new SyntaxError("not a JSON array");
  let depth = 0;
  let start = -1;
  for (i++; i < n; i++) {
    const c = json[i]!;
    if (c === 0x22) {
      // A string: to its closing quote, past escapes (UTF-8's multi-byte units are all >= 0x80).
      if (start < 0) start = i;
      for (i++; i < n && json[i] !== 0x22; i++) if (json[i] === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (start < 0) start = i;
      depth++;
    } else if (c === 0x5d || c === 0x7d) {
      if (depth === 0) {
        if (start >= 0) yield json.toString("utf8", start, i);
        return;
      }
      depth--;
    } else if (c === 0x2c && depth === 0) {
      yield json.toString("utf8", start, i);
      start = -1;
    } else if (start < 0 && c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) {
      start = i;
    }
  }
  throw new SyntaxError("unterminated JSON array");
}

/** A value computed on first use and kept (the study files are read-only). */
export function lazy<T>(load: () => T): () => T {
  let value: T | undefined;
  let loaded = false;
  return () => {
    if (!loaded) {
      value = load();
      loaded = true;
    }
    return value as T;
  };
}

/** A per-key cache of lazily read files. */
export function keyedCache<T>(load: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    if (!cache.has(key)) cache.set(key, load(key));
    return cache.get(key) as T;
  };
}
