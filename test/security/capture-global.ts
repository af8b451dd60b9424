import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where every worker tees its log output and the API keys its tests sent (capture-setup.ts). */
    captureDir: string;
  }
}

/** What a leaked key looks like: any key a test sent that is long enough to be a real secret. */
export const KEY_LIKE = /^sk-[\w-]{8,}$/;

let dir: string | undefined;

export function setup(project: TestProject) {
  dir = mkdtempSync(join(tmpdir(), "bc-capture-"));
  project.provide("captureDir", dir);
}

export interface LeakReport {
  keys: number;
  logBytes: number;
  leaks: { key: string; file: string; line: string }[];
}

/** Scans every captured log line of the run for every key any test sent. */
export function scanCapture(captureDir: string): LeakReport {
  const files = readdirSync(captureDir);
  const keys = new Set<string>();
  for (const f of files.filter((f) => f.startsWith("keys-"))) {
    for (const k of readFileSync(join(captureDir, f), "utf8").split("\n")) if (KEY_LIKE.test(k)) keys.add(k);
  }
  const leaks: LeakReport["leaks"] = [];
  let logBytes = 0;
  for (const f of files.filter((f) => f.startsWith("log-"))) {
    const text = readFileSync(join(captureDir, f), "utf8");
    logBytes += text.length;
    for (const key of keys) {
      const at = text.indexOf(key);
      if (at >= 0) leaks.push({ key, file: f, line: text.slice(text.lastIndexOf("\n", at) + 1, text.indexOf("\n", at) >>> 0).slice(0, 300) });
    }
  }
  return { keys: keys.size, logBytes, leaks };
}

/** The whole-suite check: runs after every test file, so it sees every worker's output. */
export function teardown() {
  if (!dir) return;
  const report = scanCapture(dir);
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`\nKey-leak scan: ${report.keys} test keys, ${report.logBytes} bytes of log output, ${report.leaks.length} leaks\n`);
  if (report.leaks.length > 0) {
    const lines = report.leaks.slice(0, 10).map((l) => `  ${l.file}: ${l.line}`);
    process.stderr.write(`A caller's API key reached the logs:\n${lines.join("\n")}\n`);
    // Vitest only logs an error thrown from a global teardown; the exit code is what CI reads.
    process.exitCode = 1;
  }
}
