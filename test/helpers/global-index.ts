import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A DATA_DIR holding the full production index (manifest + vectors), warm for buildServices. */
    indexDataDir: string;
    /** The embedded Chroma serving that index for the whole run; tests that kill Chroma copy the dir instead. */
    indexChromaUrl: string;
  }
}

let child: ChildProcess | undefined;
let dataDir: string | undefined;

/**
 * Ingests the production index once per test run (30-60 s on 2 cores) so every end-to-end test starts
 * the real service warm against it, instead of each file paying the ingest. It runs in a child process
 * because the embedded Chroma launcher needs import.meta.resolve, which vitest's module runner lacks.
 */
export async function setup(project: TestProject) {
  dataDir = mkdtempSync(join(tmpdir(), "bc-index-"));
  const script = join(import.meta.dirname, "index-server.ts");
  const proc = spawn(process.execPath, ["--import", "tsx", script, dataDir], { stdio: ["pipe", "pipe", "inherit"] });
  child = proc;
  const url = await new Promise<string>((resolve, reject) => {
    proc.once("exit", (code) => reject(new Error(`the test index server exited (${code}) before it was ready`)));
    createInterface({ input: proc.stdout! }).once("line", (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  project.provide("indexDataDir", dataDir);
  project.provide("indexChromaUrl", url);
}

export async function teardown() {
  const proc = child;
  if (proc && proc.exitCode === null) {
    await new Promise<void>((resolve) => {
      proc.once("exit", () => resolve());
      proc.kill("SIGINT");
    });
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
