import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Warm start and resting memory of the service, the way it is started in production (compiled, with the
 * flags of scripts/start.sh) against the development way (tsx loader, no flags), alternated in one run
 * so both see the same machine. Each start gets a copy of one prepared DATA_DIR (a warm start: the index
 * exists). Reports, per mode, the median and range of spawn -> /readyz 200, and the RSS of the service
 * process (Chroma's child excluded) once it has rested START_BENCH_REST_MS after ready.
 * Run: npm run bench:start (START_BENCH_RUNS, default 5 per mode).
 */
const RUNS = Number(process.env.START_BENCH_RUNS ?? 5);
const REST_MS = Number(process.env.START_BENCH_REST_MS ?? 5000);
const MODES = {
  "compiled (npm start)": ["sh", ["scripts/start.sh"]],
  "tsx (npm run dev)": [process.execPath, ["--import", "tsx", "src/main.ts"]],
} as const satisfies Record<string, readonly [string, readonly string[]]>;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startOnce(cmd: string, args: readonly string[], dataDir: string, port: number) {
  const started = performance.now();
  const proc = spawn(cmd, args, { env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "warn" }, stdio: "ignore" });
  const exited = new Promise<void>((r) => proc.once("exit", () => r()));
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${cmd} ${args.join(" ")} exited (${proc.exitCode}) before it was ready`);
    // /readyz is 200 as soon as chat answers; a warm start is measured to search ready, as before.
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(async (r) => r.status === 200 && ((await r.json()) as { search?: { ready?: boolean } }).search?.ready === true, () => false);
    if (ok) break;
    if (performance.now() - started > 120_000) throw new Error("never ready");
    await sleep(25);
  }
  const readyMs = performance.now() - started;
  await sleep(REST_MS);
  const rss = rssMb(proc.pid!);
  proc.kill("SIGTERM");
  await exited;
  return { readyMs, rss };
}

async function main() {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { stdio: "inherit" });
  const seed = mkdtempSync(join(tmpdir(), "bc-start-seed-"));
  // A first (cold) start builds the index that every measured start copies.
  await startOnce(MODES["compiled (npm start)"][0], MODES["compiled (npm start)"][1], seed, 18_400);
  const results: Record<string, { readyMs: number; rss: number }[]> = {};
  for (let i = 0; i < RUNS; i++) {
    for (const [name, [cmd, args]] of Object.entries(MODES)) {
      const dir = mkdtempSync(join(tmpdir(), "bc-start-"));
      cpSync(seed, dir, { recursive: true });
      (results[name] ??= []).push(await startOnce(cmd, args, dir, 18_401 + i));
      rmSync(dir, { recursive: true, force: true });
    }
  }
  rmSync(seed, { recursive: true, force: true });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  process.stdout.write(`| mode | warm start to ready, median (min-max) | resting RSS of the service, median (min-max) |\n|---|---|---|\n`);
  for (const [name, rs] of Object.entries(results)) {
    const t = rs.map((r) => r.readyMs / 1000);
    const m = rs.map((r) => r.rss);
    process.stdout.write(
      `| ${name} | ${median(t).toFixed(2)} s (${Math.min(...t).toFixed(2)}-${Math.max(...t).toFixed(2)}) | ` +
        `${median(m).toFixed(0)} MB (${Math.min(...m).toFixed(0)}-${Math.max(...m).toFixed(0)}) |\n`,
    );
  }
  process.stdout.write(`(${RUNS} runs per mode, alternated; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")})\n`);
}

void main();
