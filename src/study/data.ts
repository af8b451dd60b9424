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
