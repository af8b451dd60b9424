import { spawn, type ChildProcess } from "node:child_process";
import { chromaCliPath, waitForHeartbeat } from "../../src/chroma/embedded.js";

export interface ChromaServer {
  url: string;
  port: number;
  /** Starts it again on the same port and data (after stop). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A standalone Chroma server from the chromadb package, as an operator runs one for several replicas
 * (docs/operators.md); setpriv stops it if the test process dies.
 */
export async function startChromaServer(path: string, port: number): Promise<ChromaServer> {
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const server: ChromaServer = {
    url,
    port,
    async start() {
      const proc = spawn("setpriv", ["--pdeathsig", "SIGINT", "--", process.execPath, chromaCliPath(), "run", "--path", path, "--port", String(port), "--host", "127.0.0.1"], { stdio: "ignore" });
      child = proc;
      await waitForHeartbeat(url, 30_000, () => proc.exitCode === null);
    },
    async stop() {
      const proc = child;
      child = undefined;
      if (!proc || proc.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        proc.once("exit", () => resolve());
        proc.kill("SIGINT");
      });
    },
  };
  await server.start();
  return server;
}
