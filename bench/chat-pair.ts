/**
 * `npm run bench:pair` — this checkout's service against a base checkout's, both under load at the same
 * time, so that both meet the same machine. On the shared 2-core machine runs of one commit a minute
 * apart differ by up to 40 % in req/s and CPU a request (docs/performance.md, sessions 16-21), far more
 * than most changes; two services loaded side by side see the same minute, and their ratio is steady to a
 * few per cent from one round to the next.
 *
 *   BENCH_BASE=<dir> npm run bench:pair     the base: another checkout with its own dist/ and node_modules
 *                                           (say `git worktree add ../base <commit>` and a node_modules link)
 *   BENCH_BASE_NODE_FLAGS="..."             or the same checkout with other Node flags as the base (a flag
 *                                           experiment); BENCH_NODE_FLAGS sets this side's the same way
 *   BENCH_ROUNDS (8), BENCH_SECONDS (10), BENCH_CONNECTIONS (16 a service), BENCH_UNIQUE=1 (every question
 *   unique, as in BENCH_ONLY=service npm run bench:chat)
 *
 * Each service is started as `npm start` starts it (scripts/start.sh of its own checkout: its own flags,
 * its embedded Chroma, a DATA_DIR of its own under $TMPDIR, built on the first run), over one fake provider
 * process at 0 ms (test/fakes/cli.ts). After a warm-up, each round loads both with autocannon at once, and
 * reads, per service: req/s, CPU a request (the process, from /proc), CPU a request of its main thread alone
 * (the thread that runs JavaScript: what bounds req/s; the rest is V8's GC helpers), and peak RSS (20 ms
 * samples). Printed: a row per round and the ratios this/base, with their median and how many rounds
 * this checkout used less main-thread CPU a request. Not a figure of req/s at 32 connections: the two
 * services share the cores.
 */
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { autocannon, commandLine, cpuMs, loadAverage, mainThreadCpuMs, memoryMb, startFakeProcess, startServiceProcess, type ServiceProcess } from "./lib/service-process.js";

const BASE = process.env.BENCH_BASE ? resolve(process.env.BENCH_BASE) : undefined;
const BASE_FLAGS = process.env.BENCH_BASE_NODE_FLAGS;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const UNIQUE = process.env.BENCH_UNIQUE === "1";
const QUESTION = "What does John 3:16 teach about God's love?";
const headers = { "content-type": "application/json", authorization: "Bearer sk-bench-0000" };
const body = JSON.stringify({ model: "gpt-4o-mini", stream: false, messages: [{ role: "user", content: UNIQUE ? `${QUESTION} [<id>]` : QUESTION }] });

if (!BASE && BASE_FLAGS === undefined) {
  console.error("bench:pair needs a base: BENCH_BASE=<another checkout> or BENCH_BASE_NODE_FLAGS=<flags> (see the comment at the top of bench/chat-pair.ts)");
  process.exit(2);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const commit = (dir = ".") => {
  try {
    const sha = execFileSync("git", ["-C", dir, "rev-parse", "--short=12", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["-C", dir, "status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim() !== "";
    return dirty ? `${sha}, with uncommitted changes` : sha;
  } catch {
    return "?";
  }
};

interface Reading {
  rps: number;
  cpu: number;
  main: number;
  peak: number;
  errors: number;
}

async function round(services: ServiceProcess[], seconds: number, connections = CONNECTIONS): Promise<Reading[]> {
  const peaks = services.map(() => 0);
  const sampler = setInterval(() => services.forEach((s, i) => (peaks[i] = Math.max(peaks[i]!, memoryMb(s.pid).rss))), 20);
  const before = services.map((s) => ({ cpu: cpuMs(s.pid), main: mainThreadCpuMs(s.pid) }));
  const loads = await Promise.all(
    services.map((s) => autocannon(`${s.url}/v1/chat/completions`, { connections, seconds, body, headers, idReplacement: UNIQUE })),
  );
  clearInterval(sampler);
  return services.map((s, i) => {
    const n = Math.max(1, loads[i]!.total);
    return {
      rps: loads[i]!.rps,
      cpu: (cpuMs(s.pid) - before[i]!.cpu) / n,
      main: (mainThreadCpuMs(s.pid) - before[i]!.main) / n,
      peak: peaks[i]!,
      errors: loads[i]!.errors + loads[i]!.non2xx,
    };
  });
}

const fake = await startFakeProcess();
const started: ServiceProcess[] = [];
try {
  // A side started with other Node flags gets start.sh's environment defaults too (startServiceProcess).
  const env = (name: string) => ({ DATA_DIR: join(tmpdir(), `bc-bench-pair-${name}`), OPENAI_BASE_URL: fake.baseURL });
  // Started one after the other (a first start builds its index), then loaded together.
  const base = await startServiceProcess(env(BASE ? "base" : "base-flags"), { port: 18_491, ...(BASE ? { root: BASE } : {}), ...(BASE_FLAGS !== undefined ? { nodeFlags: BASE_FLAGS } : {}) });
  started.push(base);
  const tree = await startServiceProcess(env("tree"), { port: 18_492 });
  started.push(tree);
  console.log(
    `bench:pair: this checkout (${commit()}: \`${commandLine(tree.pid)}\`) against the base (${BASE ? `${BASE} at ${commit(BASE)}` : "this checkout"}: \`${commandLine(base.pid)}\`), ` +
      `loaded together: ${ROUNDS} rounds of ${SECONDS} s, autocannon -c ${CONNECTIONS} on each, ${UNIQUE ? "every question unique" : "the same question"}, the fake provider at 0 ms; ` +
      `Node ${process.version}; load average at start ${loadAverage()}\n`,
  );
  await round([base, tree], 15);
  console.log("| round | base req/s | this req/s | base CPU a request (main thread) | this CPU a request (main thread) | this/base main-thread CPU | this/base CPU | base / this peak RSS |");
  console.log("|---|---|---|---|---|---|---|---|");
  const ratios = { main: [] as number[], cpu: [] as number[], rps: [] as number[] };
  let errors = 0;
  for (let i = 1; i <= ROUNDS; i++) {
    const [b, t] = (await round([base, tree], SECONDS)) as [Reading, Reading];
    errors += b.errors + t.errors;
    ratios.main.push(t.main / b.main);
    ratios.cpu.push(t.cpu / b.cpu);
    ratios.rps.push(t.rps / b.rps);
    const ms = (x: number) => x.toFixed(2);
    console.log(
      `| ${i} | ${b.rps.toFixed(0)} | ${t.rps.toFixed(0)} | ${ms(b.cpu)} ms (${ms(b.main)}) | ${ms(t.cpu)} ms (${ms(t.main)}) | ${(t.main / b.main).toFixed(3)} | ${(t.cpu / b.cpu).toFixed(3)} | ${b.peak.toFixed(0)} / ${t.peak.toFixed(0)} MB |`,
    );
  }
  const ahead = ratios.main.filter((r) => r < 1).length;
  console.log(
    `\nmedian this/base: main-thread CPU a request ${median(ratios.main).toFixed(3)}, CPU a request ${median(ratios.cpu).toFixed(3)}, req/s ${median(ratios.rps).toFixed(3)}; ` +
      `this checkout used less main-thread CPU a request in ${ahead} of ${ROUNDS} rounds; failed or non-2xx requests ${errors}; load average at end ${loadAverage()}`,
  );
} finally {
  for (const s of started) await s.stop();
  await fake.stop();
}
