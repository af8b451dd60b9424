import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface DevServer {
  url: string;
  /**
   * POSTs (or GETs without body) JSON. The dev server runs under tsx watch and restarts when any file it
   * imports changes (another engineer saving in a shared tree): a request cut by a restart is retried
   * once the server answers /ok again, after `beforeRetry` (e.g. resetting the fake provider).
   */
  call(path: string, body?: unknown, beforeRetry?: () => void): Promise<Response>;
  output(): string;
  /** Kills the whole process group: the CLI, its tsx watcher and the API worker. */
  stop(): Promise<void>;
}

/** A port the kernel just handed out: the CLI takes a number, not 0. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function cliPath(): string {
  const pkg = createRequire(import.meta.url).resolve("@langchain/langgraph-cli/package.json");
  return join(dirname(pkg), "dist/cli/cli.mjs");
}

/**
 * `langgraphjs dev --no-browser` (what `npm run studio` runs) on a free loopback port, in its own
 * process group so that stop() reaches the grandchildren the CLI spawns.
 */
export async function startDevServer(env: Record<string, string>, readyTimeoutMs = 90_000): Promise<DevServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  const child: ChildProcess = spawn(process.execPath, [cliPath(), "dev", "--no-browser", "--host", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, BROWSER: "none", LANGSMITH_TRACING: "false", LANGCHAIN_TRACING_V2: "false", ...env },
  });
  child.stdout!.on("data", (d) => (log += String(d)));
  child.stderr!.on("data", (d) => (log += String(d)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        return;
      }
      const t = setTimeout(() => child.pid && process.kill(-child.pid, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(t);
    }
  };
  const waitOk = async (timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`langgraphjs dev exited early:\n${log}`);
      if (await fetch(`${url}/ok`).then((r) => r.ok, () => false)) return true;
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  };
  const call = async (path: string, body?: unknown, beforeRetry?: () => void): Promise<Response> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetch(`${url}${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: { "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      } catch (err) {
        // Only a transport failure (restart) is retried; any HTTP answer goes back to the test as it is.
        if (attempt >= 3 || !(err instanceof TypeError)) throw err;
        await new Promise((r) => setTimeout(r, 500));
        if (!(await waitOk(readyTimeoutMs))) throw err;
        beforeRetry?.();
      }
    }
  };
  if (await waitOk(readyTimeoutMs)) return { url, call, output: () => log, stop };
  await stop();
  throw new Error(`langgraphjs dev did not answer /ok within ${readyTimeoutMs} ms:\n${log}`);
}
