import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

export interface Replica {
  name: string;
  url: string;
  /** Its log lines, parsed (pino JSON). */
  logs: Record<string, unknown>[];
  search(query: string): Promise<{ status: number; firstBook?: string }>;
  readyz(): Promise<{ status: number; body: { status: string; search: { ready: boolean; state: string; chroma: string; index?: string } } }>;
  metrics(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts test/helpers/replica-server.ts as its own process on an empty DATA_DIR: a replica wired as
 * `npm start` wires one, on the given Chroma. Resolves once it listens (search may still be starting).
 */
export async function startReplica(name: string, env: Record<string, string>): Promise<Replica> {
  const dataDir = mkdtempSync(join(tmpdir(), `replica-${name}-`));
  const script = join(import.meta.dirname, "..", "helpers", "replica-server.ts");
  const proc: ChildProcess = spawn("setpriv", ["--pdeathsig", "SIGTERM", "--", process.execPath, "--import", "tsx", script], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: Record<string, unknown>[] = [];
  createInterface({ input: proc.stderr! }).on("line", (line) => {
    try {
      logs.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      logs.push({ msg: line });
    }
  });
  const url = await new Promise<string>((resolve, reject) => {
    proc.once("exit", (code) => reject(new Error(`replica ${name} exited (${code}) before listening: ${logs.map((l) => l.msg).join(" | ")}`)));
    createInterface({ input: proc.stdout! }).once("line", (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  return {
    name,
    url,
    logs,
    async search(query) {
      try {
        const res = await fetch(`${url}/v1/scripture/search?q=${encodeURIComponent(query)}&limit=3`, { signal: AbortSignal.timeout(10_000) });
        const body = (await res.json()) as { results?: { book_id: string }[] };
        return { status: res.status, ...(body.results?.[0] ? { firstBook: body.results[0].book_id } : {}) };
      } catch {
        return { status: 0 };
      }
    },
    async readyz() {
      const res = await fetch(`${url}/readyz`);
      return { status: res.status, body: (await res.json()) as Awaited<ReturnType<Replica["readyz"]>>["body"] };
    },
    metrics: async () => (await fetch(`${url}/metrics`)).text(),
    async stop() {
      if (proc.exitCode === null) {
        await new Promise<void>((resolve) => {
          proc.once("exit", () => resolve());
          proc.kill("SIGTERM");
        });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function until(what: string, cond: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await cond()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
