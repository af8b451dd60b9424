/**
 * Processes for benchmarks that measure the service as users run it: the service started by
 * scripts/start.sh (the compiled dist/ and the Node flags that script owns), the fake provider from
 * test/fakes/cli.ts, and readings of a process from /proc (CPU ticks, RSS, peak RSS, children).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { childProcesses } from "../../test/helpers/processes.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Clock ticks per second for /proc/<pid>/stat (USER_HZ; 100 on Linux unless getconf says otherwise). */
const CLK_TCK = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU of one process so far, in ms (its own threads; children not included). */
export function cpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** User + system CPU of a process's main thread alone (the one running JavaScript; not V8's GC helpers), in ms. */
export function mainThreadCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuMs(path: string): number {
  const stat = readFileSync(path, "utf8");
  // Fields after the command name (which may hold spaces) start at field 3: utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/** VmRSS and VmHWM (peak RSS since the process started) in MB. */
export function memoryMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

/** What a process runs, read back from the kernel: its glibc settings (MALLOC_*), then its command line. */
export function commandLine(pid: number): string {
  const malloc = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter((v) => v.startsWith("MALLOC_"));
  return [...malloc, ...readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean)].join(" ");
}

export function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}

/** One answered request as the fake saw it (`--timings`), epoch ms. */
export interface FakeTiming {
  seq: number;
  path: string;
  receivedAt: number;
  firstTokenAt?: number;
  finishedAt: number;
}

export interface FakeProcess {
  baseURL: string;
  pid: number;
  /** Every timing line so far, oldest first. */
  timings: FakeTiming[];
  stop(): Promise<void>;
}

/** test/fakes/cli.ts in its own process (its standalone script), with --timings. */
export async function startFakeProcess(): Promise<FakeProcess> {
  const proc = spawn(process.execPath, ["--import", "tsx", "test/fakes/cli.ts", "--timings"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const timings: FakeTiming[] = [];
  const lines = createInterface({ input: proc.stdout! });
  const baseURL = await new Promise<string>((resolve, reject) => {
    proc.once("exit", (code) => reject(new Error(`fake provider exited (${code}) before printing its URL`)));
    lines.once("line", resolve);
  });
  lines.on("line", (line) => timings.push(JSON.parse(line) as FakeTiming));
  return { baseURL, pid: proc.pid!, timings, stop: () => stopChild(proc) };
}

async function stopChild(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => proc.once("exit", () => r()));
  proc.kill("SIGTERM");
  await Promise.race([exited, sleep(15_000).then(() => proc.kill("SIGKILL"))]);
  await exited;
}

export interface ServiceProcess {
  url: string;
  /** The Node process of the service (scripts/start.sh execs into it). */
  pid: number;
  /** Spawn -> /readyz 200. */
  readyMs: number;
  /** The embedded Chroma, a child of the service. */
  chromaPid(): number | undefined;
  stop(): Promise<void>;
}

/**
 * The defaults scripts/start.sh exports (`export NAME="${NAME:-value}"`), read from the script itself so
 * that a run with other Node flags, which does not go through it, still gets them.
 */
function startScriptDefaults(root: string = ROOT): Record<string, string> {
  const script = readFileSync(`${root}/scripts/start.sh`, "utf8");
  const defaults: Record<string, string> = {};
  for (const m of script.matchAll(/^export (\w+)="\$\{\1:-([^}"]*)\}"$/gm)) defaults[m[1]!] = m[2]!;
  return defaults;
}

/**
 * The service as `npm start` runs it: `sh scripts/start.sh`, which builds dist/ when stale and execs
 * node with its own flags (so the flags are read from their one owner). LOG_LEVEL stays the default
 * unless the caller's environment sets it; stdout (the JSON log) goes to /dev/null. BENCH_NODE_FLAGS, for
 * experiments with heap flags, runs `node $BENCH_NODE_FLAGS dist/src/main.js` instead (after the same build),
 * with the environment defaults start.sh exports (its C library settings; the caller's values win).
 */
export async function startServiceProcess(env: Record<string, string>, options: { port: number; readyTimeoutMs?: number; /** Another checkout to run (bench:pair's base); this one by default. */ root?: string; /** Node flags instead of start.sh's (as BENCH_NODE_FLAGS). */ nodeFlags?: string }): Promise<ServiceProcess> {
  const root = options.root ?? ROOT;
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: root, stdio: "inherit" });
  const url = `http://127.0.0.1:${options.port}`;
  const started = performance.now();
  // BENCH_NODE_FLAGS (experiments only): node with these flags instead of scripts/start.sh's, printed as such.
  const flags = options.nodeFlags ?? process.env.BENCH_NODE_FLAGS;
  const [cmd, args] = flags === undefined ? ["sh", ["scripts/start.sh"]] : [process.execPath, [...flags.split(/\s+/).filter(Boolean), "dist/src/main.js"]];
  // BENCH_SERVICE_LOG=<file> keeps the service's JSON log there (appended) to read what went wrong.
  const logFile = process.env.BENCH_SERVICE_LOG;
  const stdout = logFile ? openSync(logFile, "a") : "ignore";
  const defaults = flags === undefined ? {} : startScriptDefaults(root);
  const proc = spawn(cmd, args, { cwd: root, env: { ...defaults, ...process.env, ...env, PORT: String(options.port), HOST: "127.0.0.1" }, stdio: ["ignore", stdout, "pipe"] });
  if (typeof stdout === "number") closeSync(stdout);
  let stderr = "";
  proc.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the service exited (${proc.exitCode}) before it was ready:\n${stderr}`);
    // /readyz is 200 as soon as chat answers; "ready" here also means search is up.
    if (await fetch(`${url}/readyz`).then(async (r) => r.status === 200 && ((await r.json()) as { search?: { ready?: boolean } }).search?.ready === true, () => false)) break;
    if (performance.now() - started > (options.readyTimeoutMs ?? 300_000)) throw new Error(`the service was not ready in time:\n${stderr}`);
    await sleep(25);
  }
  const readyMs = performance.now() - started;
  const pid = proc.pid!;
  return {
    url,
    pid,
    readyMs,
    chromaPid: () => childProcesses(pid)[0]?.pid,
    stop: () => stopChild(proc),
  };
}

export interface AutocannonResult {
  rps: number;
  total: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** autocannon in its own process; `body` is POSTed as JSON with the given headers. */
export function autocannon(
  url: string,
  options: { connections: number; seconds: number; body: string; headers: Record<string, string>; /** -I: each "[<id>]" in the body becomes a new id per request. */ idReplacement?: boolean },
): Promise<AutocannonResult> {
  const bin = new URL("../../node_modules/.bin/autocannon", import.meta.url).pathname;
  const headerArgs = Object.entries(options.headers).flatMap(([k, v]) => ["-H", `${k}=${v}`]);
  const args = ["-c", String(options.connections), "-d", String(options.seconds), "-m", "POST", ...headerArgs, "-b", options.body, "-j", url];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", () => {
      try {
        const r = JSON.parse(out);
        resolve({ rps: r.requests.average, total: r.requests.total, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
      } catch (err) {
        reject(err);
      }
    });
  });
}
