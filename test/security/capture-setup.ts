import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, inject, vi } from "vitest";

/**
 * Runs before every test file (setupFiles): tees everything this worker logs (process stdout/stderr
 * and every pino logger the code creates, at its own level and destination) into a per-worker file,
 * and records every bearer key sent through fetch (the openai SDK, LangChain, raw fetch). The global
 * teardown in capture-global.ts then checks no recorded key appears in any captured line.
 */
const dir = inject("captureDir");
const logFile = join(dir, `log-${process.pid}.txt`);
const keyFile = join(dir, `keys-${process.pid}.txt`);
let pending: string[] = [];
const keys = new Set<string>();

const flush = () => {
  if (pending.length) appendFileSync(logFile, pending.join(""));
  pending = [];
};
export function captureLog(text: string) {
  pending.push(text.endsWith("\n") ? text : `${text}\n`);
  if (pending.length > 2000) flush();
}
export function recordKey(key: string) {
  if (keys.has(key)) return;
  keys.add(key);
  appendFileSync(keyFile, `${key}\n`);
}

const stdoutWrite = process.stdout.write.bind(process.stdout);
for (const stream of [process.stdout, process.stderr]) {
  const original = stream.write.bind(stream) as (...a: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    captureLog(typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString());
    return original(chunk, ...rest);
  }) as typeof stream.write;
}

const KEYS_IN_TEXT = /sk-[\w-]{8,}/g;
const originalFetch = globalThis.fetch;
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  const auth = headers.get("authorization");
  const m = auth && /^Bearer\s+(\S+)/i.exec(auth);
  if (m) recordKey(m[1]!);
  // A key sent anywhere else (the path, the query, any header) is scanned for too.
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const texts = [url];
  headers.forEach((value) => texts.push(value));
  for (const text of texts) for (const key of text.match(KEYS_IN_TEXT) ?? []) recordKey(key);
  return originalFetch(input, init);
}) as typeof fetch;

vi.mock("../../src/logger.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/logger.js")>();
  return {
    ...real,
    createLogger: (level: string, destination?: { write(s: string): unknown }, format?: import("../../src/logger.js").LogFormat) =>
      real.createLogger(
        level,
        {
          write(s: string) {
            captureLog(s);
            if (destination) destination.write(s);
            else stdoutWrite(s);
          },
        },
        format,
      ),
  };
});

afterAll(flush);
process.on("exit", flush);
