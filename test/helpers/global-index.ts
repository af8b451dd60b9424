import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
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

/** Survives runs: a warm start from a copy takes ~2 s where an ingest costs 30-60 s of CPU. */
const CACHE = join(tmpdir(), "biblical-chat-test-index");

let child: ChildProcess | undefined;
let dataDir: string | undefined;

/**
 * Ingests the production index once per test run (30-60 s on 2 cores) so every end-to-end test starts
 * the real service warm against it, instead of each file paying the ingest. It runs in a child process
 * because the embedded Chroma launcher needs import.meta.resolve, which vitest's module runner lacks.
 */
export async function setup(project: TestProject) {
  dataDir = mkdtempSync(join(tmpdir(), "bc-index-"));
  // A stale cache (the corpus or embedder changed) is harmless: ensureIndex sees it and rebuilds.
  if (existsSync(join(CACHE, "search"))) cpSync(CACHE, dataDir, { recursive: true });
  const script = join(import.meta.dirname, "index-server.ts");
  const proc = spawn(process.execPath, ["--import", "tsx", script, dataDir], { stdio: ["pipe", "pipe", "inherit"] });
  child = proc;
  const { url, mode } = await new Promise<{ url: string; mode: string }>((resolve, reject) => {
    proc.once("exit", (code) => reject(new Error(`the test index server exited (${code}) before it was ready`)));
    createInterface({ input: proc.stdout! }).once("line", (line) => resolve(JSON.parse(line) as { url: string; mode: string }));
  });
  if (mode !== "warm") refreshCache(dataDir);
  project.provide("indexDataDir", dataDir);
  project.provide("indexChromaUrl", url);
}

/** Copy, then rename into place, so a concurrent run never copies a half-written cache. */
function refreshCache(from: string) {
  const tmp = `${CACHE}.tmp-${process.pid}`;
  try {
    cpSync(from, tmp, { recursive: true });
    rmSync(CACHE, { recursive: true, force: true });
    renameSync(tmp, CACHE);
  } catch {
    // Another run refreshed it first; ours is equally good.
    rmSync(tmp, { recursive: true, force: true });
  }
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
