/**
 * Data derived from the corpus, kept in DATA_DIR between starts: whatever a builder returns (plain JSON
 * values and typed arrays, nested in objects and arrays) in one file, under a key that names everything
 * it was derived from (the corpus worker's `signalsKey`). A file is trusted only when its key matches and
 * its payload's checksum holds; anything else (another key, a truncated or corrupt file, an old format)
 * reads as absent, and the caller builds the data again and writes it over.
 *
 * Layout: a magic line, a JSON header line ({ key, bytes, sha256, value }, where each typed array of
 * `value` is { "$view": type, "at": offset, "n": length } into the payload), then the payload's bytes.
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { makeDirs } from "../../make-dirs.js";

const MAGIC = "biblical-chat derived data 1\n";

const VIEWS = { Float32Array, Float64Array, Int8Array, Int16Array, Int32Array, Uint8Array, Uint16Array, Uint32Array } as const;
type ViewName = keyof typeof VIEWS;
type View = InstanceType<(typeof VIEWS)[ViewName]>;

function viewName(v: ArrayBufferView): ViewName {
  for (const name of Object.keys(VIEWS) as ViewName[]) if (v instanceof VIEWS[name]) return name;
  throw new Error(`derived data: cannot store a ${v.constructor.name}`);
}

/** The file's bytes for `value` under `key`. */
export function encodeDerived(key: string, value: unknown): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  const tree = JSON.stringify(value, (_k, v: unknown) => {
    if (!ArrayBuffer.isView(v)) return v;
    const name = viewName(v);
    const bytes = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    parts.push(bytes);
    const ref = { $view: name, at, n: (v as View).length };
    at += bytes.length;
    return ref;
  });
  const payload = Buffer.concat(parts);
  const header = JSON.stringify({ key, bytes: payload.length, sha256: createHash("sha256").update(payload).digest("hex"), value: JSON.parse(tree) as unknown });
  return Buffer.concat([Buffer.from(`${MAGIC}${header}\n`, "utf8"), payload]);
}

/** The value stored under `key` in `file`, each typed array in a buffer of its own; undefined when the file is not that (another key, damaged). */
export function decodeDerived(file: Buffer, key: string): unknown {
  if (file.toString("utf8", 0, MAGIC.length) !== MAGIC) return undefined;
  const end = file.indexOf(0x0a, MAGIC.length);
  if (end < 0) return undefined;
  let header: { key?: unknown; bytes?: unknown; sha256?: unknown; value?: unknown };
  try {
    header = JSON.parse(file.toString("utf8", MAGIC.length, end)) as typeof header;
  } catch {
    return undefined;
  }
  const payload = file.subarray(end + 1);
  if (header.key !== key || header.bytes !== payload.length) return undefined;
  if (createHash("sha256").update(payload).digest("hex") !== header.sha256) return undefined;
  try {
    return revive(header.value, payload);
  } catch {
    return undefined;
  }
}

function revive(value: unknown, payload: Buffer): unknown {
  if (Array.isArray(value)) return value.map((v) => revive(v, payload));
  if (!value || typeof value !== "object") return value;
  const o = value as Record<string, unknown>;
  if (typeof o.$view === "string" && Object.keys(o).length === 3) {
    const ctor = VIEWS[o.$view as ViewName];
    const at = o.at as number;
    const n = o.n as number;
    if (!ctor || !Number.isInteger(at) || !Number.isInteger(n) || at < 0 || at + n * ctor.BYTES_PER_ELEMENT > payload.length) throw new Error("bad view");
    // A copy of its own: the data outlives the file's buffer and may be transferred to another thread.
    const out = new ctor(n);
    Buffer.from(out.buffer).set(payload.subarray(at, at + n * ctor.BYTES_PER_ELEMENT));
    return out;
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, revive(v, payload)]));
}

/** The stored value, or undefined when the file is missing or not valid for `key`. */
export function readDerived(path: string, key: string): unknown {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  return decodeDerived(file, key);
}

/** Writes the value atomically (a temporary file renamed over the old one, so a reader never sees half a file). */
export function writeDerived(path: string, key: string, value: unknown): void {
  makeDirs(dirname(path));
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  writeFileSync(tmp, encodeDerived(key, value));
  renameSync(tmp, path);
}

/** Every distinct ArrayBuffer under `value` (a postMessage transfer list). */
export function buffersOf(value: unknown, out = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) out.add(value.buffer as ArrayBuffer);
  else if (value && typeof value === "object") for (const v of Object.values(value)) buffersOf(v, out);
  return [...out];
}
