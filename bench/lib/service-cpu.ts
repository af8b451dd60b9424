/**
 * Service-only CPU per chat request: the fake provider (test/fakes/cli.ts) and the service
 * (chat-service-child.ts) each in a child process, the requests sent from this one, one at a time.
 * The service's process.cpuUsage() before and after N requests, divided by N, is what the service
 * alone spends on a request: no client, no fake provider in the figure.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { createInterface, type Interface } from "node:readline";

const TSX = ["--import", "tsx"];

interface Child {
  proc: ChildProcess;
  lines: Interface;
  next(): Promise<string>;
}

function child(args: string[], env: Record<string, string> = {}): Child {
  const proc = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, ...env } });
  const lines = createInterface({ input: proc.stdout! });
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  lines.on("line", (line) => (waiting.length ? waiting.shift()!(line) : queue.push(line)));
  return {
    proc,
    lines,
    next: () =>
      queue.length
        ? Promise.resolve(queue.shift()!)
        : new Promise((resolve, reject) => {
            waiting.push(resolve);
            proc.once("exit", (code) => reject(new Error(`child ${args.join(" ")} exited with ${code}`)));
          }),
  };
}

export type ServiceRunner = "graph" | "langgraph-loop" | "proxy" | "scripted";

export interface ServiceUnderTest {
  url: string;
  /** The service process's CPU time so far (user + system), in ms. */
  cpuMs(): Promise<number>;
  /** One chat request; resolves with the response text, rejects unless it was a 200. */
  chat(body: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts the fake provider and the service, each in its own process; `serviceFlags` go to the service's node (e.g. --cpu-prof). */
export async function startServiceChild(opts: { serviceFlags?: string[]; key: string; runner?: ServiceRunner }): Promise<ServiceUnderTest> {
  const fake = child([...TSX, new URL("../../test/fakes/cli.ts", import.meta.url).pathname, "--port", "0"]);
  const fakeUrl = await fake.next();
  const service = child([...(opts.serviceFlags ?? []), ...TSX, new URL("./chat-service-child.ts", import.meta.url).pathname], { FAKE_BASE_URL: fakeUrl, BENCH_RUNNER: opts.runner ?? "graph" });
  const { url } = JSON.parse(await service.next()) as { url: string };
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL("/v1/chat/completions", url);
  return {
    url,
    async cpuMs() {
      service.proc.stdin!.write("cpu\n");
      const u = JSON.parse(await service.next()) as { user: number; system: number };
      return (u.user + u.system) / 1000;
    },
    chat: (body) =>
      new Promise((resolve, reject) => {
        const req = request(
          target,
          { method: "POST", agent, headers: { "content-type": "application/json", authorization: `Bearer ${opts.key}`, "content-length": Buffer.byteLength(body) } },
          (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (d: string) => (text += d));
            res.on("end", () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`chat request failed: ${res.statusCode} ${text.slice(0, 200)}`))));
          },
        );
        req.on("error", reject);
        req.end(body);
      }),
    async close() {
      agent.destroy();
      const exited = (p: ChildProcess) => new Promise((resolve) => (p.exitCode !== null ? resolve(null) : p.once("exit", resolve)));
      service.proc.kill("SIGTERM");
      await exited(service.proc);
      fake.proc.kill("SIGTERM");
      await exited(fake.proc);
    },
  };
}

const RUNNERS: [ServiceRunner, string][] = [
  ["scripted", "adapter alone (scripted runner, no provider call)"],
  ["proxy", "adapter + plain proxy (1 provider call)"],
  ["langgraph-loop", "adapter + LangGraph's loop on the chat path, no-op nodes (no provider call)"],
  ["graph", "adapter + chat graph (3 provider calls)"],
];

/**
 * Service-only CPU per request for each runner: `warm` requests first (the JIT settles), then
 * `n` non-stream and `n` streamed requests twice over, alternating; the figure per mode is the
 * lower of its two series (the one least disturbed by other load on the machine).
 */
export async function serviceCpuRows(opts: { n: number; warm: number; key: string; body: (stream: boolean) => string }): Promise<string[][]> {
  const rows: string[][] = [];
  for (const [runner, label] of RUNNERS) {
    const service = await startServiceChild({ key: opts.key, runner });
    try {
      for (let i = 0; i < opts.warm; i++) await service.chat(opts.body(i % 2 === 0));
      const best: Record<"json" | "stream", number> = { json: Infinity, stream: Infinity };
      for (let round = 0; round < 2; round++) {
        for (const stream of [false, true]) {
          const c0 = await service.cpuMs();
          for (let i = 0; i < opts.n; i++) await service.chat(opts.body(stream));
          const perRequest = ((await service.cpuMs()) - c0) / opts.n;
          const mode = stream ? "stream" : "json";
          best[mode] = Math.min(best[mode], perRequest);
        }
      }
      rows.push([label, "service-only CPU per request, non-stream / stream (fake provider in its own process)", `${best.json.toFixed(2)} / ${best.stream.toFixed(2)} ms`]);
    } finally {
      await service.close();
    }
  }
  return rows;
}
