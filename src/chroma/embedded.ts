import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeDirs } from "../make-dirs.js";

export interface EmbeddedLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface EmbeddedChroma {
  readonly url: string;
  /** True while the child process is up (it may still be starting). */
  running(): boolean;
  /** The server's process id while it runs (setpriv execs into it, so this is the server itself). */
  pid(): number | undefined;
  /** SIGINT, then SIGKILL if it lingers; no restart afterwards. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Chroma's persistence directory. */
  path: string;
  logger: EmbeddedLogger;
  port?: number;
  /** Restart the server when it dies unexpectedly (default true). */
  restart?: boolean;
  readyTimeoutMs?: number;
}

/** Where the embedded Chroma keeps its data under DATA_DIR (one owner: main.ts and the search service). */
export function embeddedChromaPath(dataDir: string): string {
  return join(dataDir, "chroma");
}

export function chromaCliPath(): string {
  return join(dirname(fileURLToPath(import.meta.resolve("chromadb"))), "cli.mjs");
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function waitForHeartbeat(url: string, timeoutMs: number, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error("Chroma exited before it was ready");
    try {
      const res = await fetch(`${url}/api/v2/heartbeat`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Chroma did not answer ${url}/api/v2/heartbeat within ${timeoutMs} ms`);
}

/**
 * Starts Chroma from the chromadb package as a child process. The native server blocks its own JS
 * thread and cannot notice its parent dying, so it runs under `setpriv --pdeathsig SIGINT`: the kernel
 * stops it when this process goes, even on SIGKILL. A crash is logged and the server restarted with
 * backoff on the same port, so clients reconnect by retrying.
 */
export async function startEmbeddedChroma(options: EmbeddedOptions): Promise<EmbeddedChroma> {
  makeDirs(options.path);
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const log = options.logger;
  let child: ChildProcess | undefined;
  let stopping = false;
  let failures = 0;
  let restartTimer: NodeJS.Timeout | undefined;

  const launch = () => {
    const args = ["--pdeathsig", "SIGINT", "--", process.execPath, chromaCliPath(), "run", "--path", options.path, "--port", String(port), "--host", "127.0.0.1"];
    const proc = spawn("setpriv", args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderrTail = "";
    proc.stderr?.on("data", (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString()).slice(-2000)));
    proc.on("exit", (code, signal) => {
      if (child === proc) child = undefined;
      if (stopping) return;
      failures += 1;
      const delay = Math.min(10_000, 250 * 2 ** Math.min(failures, 6));
      log.error({ code, signal, stderr: stderrTail.trim().slice(-500), restartInMs: delay }, "embedded Chroma exited");
      if (options.restart === false) return;
      restartTimer = setTimeout(() => {
        if (stopping) return;
        child = launch();
        waitForHeartbeat(url, options.readyTimeoutMs ?? 30_000, () => child !== undefined)
          .then(() => ((failures = 0), log.info({ url }, "embedded Chroma restarted")))
          .catch((err: Error) => log.warn({ err: err.message }, "embedded Chroma restart not ready"));
      }, delay);
      restartTimer.unref();
    });
    return proc;
  };

  child = launch();
  const started = Date.now();
  try {
    await waitForHeartbeat(url, options.readyTimeoutMs ?? 30_000, () => child !== undefined);
  } catch (err) {
    stopping = true;
    child?.kill("SIGKILL");
    throw err;
  }
  log.info({ url, path: options.path, ms: Date.now() - started }, "embedded Chroma ready");

  return {
    url,
    running: () => child !== undefined,
    pid: () => child?.pid,
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const proc = child;
      if (!proc || proc.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => proc.kill("SIGKILL"), 5000);
        proc.once("exit", () => (clearTimeout(force), resolve()));
        proc.kill("SIGINT");
      });
    },
  };
}
