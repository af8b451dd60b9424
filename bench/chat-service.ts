/**
 * `BENCH_ONLY=service npm run bench:chat` — the service measured as users run it, three processes:
 *   the service, started by scripts/start.sh exactly as `npm start` starts it (compiled dist/, the Node
 *   flags that script owns, default log level, its embedded Chroma as its child);
 *   the fake provider, test/fakes/cli.ts at 0 ms (its standalone script: preflight, an agent turn that
 *   calls lookup_passage for the question's reference, the answer turn built from the passage), with
 *   --timings, so it tells how long each call spent inside it without changing the wire;
 *   autocannon -c 32, non-stream requests for BENCH_SECONDS.
 * Reported: req/s and latency p50/p99 under load; the service process's CPU per request (from
 * /proc/<pid>/stat deltas, its own threads only) sequentially and under load; its RSS at rest after start,
 * its peak RSS under the load (sampled every 20 ms, and VmHWM); the embedded Chroma's RSS and CPU apart (it
 * is a separate process); added latency per provider call from BENCH_N sequential requests of each kind:
 *   (client latency - time the fake spent on this request's calls) / provider calls.
 * BENCH_NODE_FLAGS replaces start.sh's Node flags for an experiment (the command line is printed);
 * BENCH_SERVICE_LOG=<file> keeps the service's log (otherwise /dev/null).
 * BENCH_UNIQUE=1 makes every question unique (a random tag appended: `[<id>]`, autocannon's -I for the load),
 * so no answer comes from the chat's search cache (graphs/chat/search-cache.ts); without it every request
 * asks the same question, as a repeated question would.
 * BENCH_DATA_DIR (default $TMPDIR/bc-bench-service-data) keeps the index between runs: a first start
 * ingests; the measured start is always a warm one (a priming start runs first).
 */
import { randomBytes } from "node:crypto";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { autocannon, commandLine, cpuMs, type FakeTiming, loadAverage, memoryMb, startFakeProcess, startServiceProcess, type ServiceProcess } from "./lib/service-process.js";

const N = Number(process.env.BENCH_N ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const REST_MS = 3_000;
const DATA_DIR = process.env.BENCH_DATA_DIR ?? join(tmpdir(), "bc-bench-service-data");
const PORT = Number(process.env.BENCH_PORT ?? 18_470);
const KEY = "sk-bench-0000";
const QUESTION = "What does John 3:16 teach about God's love?";
const headers = { "content-type": "application/json", authorization: `Bearer ${KEY}` };
const UNIQUE = process.env.BENCH_UNIQUE === "1";
/** The question, with a tag of its own per request when BENCH_UNIQUE=1 (`tag` "[<id>]" is autocannon's placeholder). */
const body = (stream: boolean, tag = UNIQUE ? `[${randomBytes(12).toString("base64url")}]` : "") =>
  JSON.stringify({ model: "gpt-4o-mini", stream, messages: [{ role: "user", content: tag ? `${QUESTION} ${tag}` : QUESTION }] });

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => `${x.toFixed(2)} ms`;
const mb = (x: number) => `${x.toFixed(0)} MB`;

interface Window {
  t0: number;
  t1: number;
}

async function request(url: string, stream: boolean): Promise<Window> {
  const t0 = now();
  const res = await fetch(`${url}/v1/chat/completions`, { method: "POST", headers, body: body(stream) });
  const text = await res.text();
  const t1 = now();
  if (res.status !== 200 || (stream && !text.includes("[DONE]"))) throw new Error(`bench request failed: ${res.status} ${text.slice(0, 300)}`);
  return { t0, t1 };
}

/** Added latency per provider call for each sequential request, from the fake's own timings. */
async function addedPerCall(windows: Window[], timings: FakeTiming[]): Promise<{ added: number[]; calls: number[] }> {
  // The fake writes a timing line when a response is handed to the socket; let the last lines arrive.
  const last = windows.at(-1)!.t1;
  for (let i = 0; i < 100 && !timings.some((t) => t.receivedAt > last - 1); i++) await sleep(10);
  await sleep(50);
  const chat = timings.filter((t) => t.path.startsWith("/v1/chat/completions"));
  const added: number[] = [];
  const calls: number[] = [];
  let j = 0;
  for (const w of windows) {
    while (j < chat.length && chat[j]!.receivedAt < w.t0) j++;
    let inside = 0;
    let n = 0;
    for (; j < chat.length && chat[j]!.receivedAt <= w.t1; j++, n++) inside += chat[j]!.finishedAt - chat[j]!.receivedAt;
    added.push((w.t1 - w.t0 - inside) / Math.max(1, n));
    calls.push(n);
  }
  return { added, calls };
}

async function sequential(service: ServiceProcess, timings: FakeTiming[], stream: boolean) {
  const cpu0 = cpuMs(service.pid);
  const windows: Window[] = [];
  for (let i = 0; i < N; i++) windows.push(await request(service.url, stream));
  const cpu = (cpuMs(service.pid) - cpu0) / N;
  return { cpu, ...(await addedPerCall(windows, timings)) };
}

export async function main(): Promise<void> {
  const loadAtStart = loadavg().map((l) => l.toFixed(2)).join(" ");
  const fake = await startFakeProcess();
  const env = { DATA_DIR: DATA_DIR, OPENAI_BASE_URL: fake.baseURL };
  const rows: [string, string][] = [];
  let command = "?";
  try {
    // A priming start: builds dist/ and the index when missing, so the measured start below is warm.
    const priming = await startServiceProcess(env, { port: PORT });
    await priming.stop();

    const service = await startServiceProcess(env, { port: PORT });
    try {
      // What actually runs, read back from the kernel: node with scripts/start.sh's flags and glibc settings.
      command = commandLine(service.pid);
      rows.push(["warm start, spawn of scripts/start.sh -> /readyz 200", `${(service.readyMs / 1000).toFixed(2)} s`]);
      await sleep(REST_MS);
      const rest = memoryMb(service.pid);
      const chromaPid = service.chromaPid();
      rows.push([`service RSS at rest (${REST_MS / 1000} s after ready)`, `${mb(rest.rss)} (peak during start-up, VmHWM: ${mb(rest.hwm)})`]);
      if (chromaPid) rows.push(["embedded Chroma RSS at rest (its own process, not counted above)", mb(memoryMb(chromaPid).rss)]);

      for (let i = 0; i < 50; i++) await request(service.url, i % 2 === 0);
      const plain = await sequential(service, fake.timings, false);
      const streamed = await sequential(service, fake.timings, true);
      const calls = [...new Set([...plain.calls, ...streamed.calls])].join(", ");
      rows.push(["provider calls per request (seen by the fake)", calls]);
      rows.push([`added latency per provider call, non-stream, ${N} sequential, p50 / p99`, `${ms(pct(plain.added, 50))} / ${ms(pct(plain.added, 99))}`]);
      rows.push([`added latency per provider call, stream, ${N} sequential, p50 / p99`, `${ms(pct(streamed.added, 50))} / ${ms(pct(streamed.added, 99))}`]);
      rows.push(["service CPU per request, sequential, non-stream / stream", `${ms(plain.cpu)} / ${ms(streamed.cpu)}`]);

      let peakRss = 0;
      let chromaPeak = 0;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, memoryMb(service.pid).rss);
        if (chromaPid) chromaPeak = Math.max(chromaPeak, memoryMb(chromaPid).rss);
      }, 20);
      const cpu0 = cpuMs(service.pid);
      const chromaCpu0 = chromaPid ? cpuMs(chromaPid) : 0;
      const fakeCpu0 = cpuMs(fake.pid);
      const load = await autocannon(`${service.url}/v1/chat/completions`, { connections: CONNECTIONS, seconds: SECONDS, body: body(false, UNIQUE ? "[<id>]" : ""), headers, idReplacement: UNIQUE });
      clearInterval(sampler);
      const cpuLoad = cpuMs(service.pid) - cpu0;
      const after = memoryMb(service.pid);
      rows.push([
        `non-stream at concurrency ${CONNECTIONS} (${SECONDS} s, autocannon)`,
        `**${load.rps.toFixed(0)} req/s** (p50 ${load.p50} ms, p99 ${load.p99} ms, ${load.total} requests, non-2xx ${load.non2xx}, errors ${load.errors})`,
      ]);
      rows.push(["service CPU per request under that load", `${ms(cpuLoad / Math.max(1, load.total))} (service used ${(cpuLoad / 1000 / SECONDS).toFixed(2)} cores)`]);
      const fakeLoad = cpuMs(fake.pid) - fakeCpu0;
      rows.push(["fake provider CPU per request under that load (its own process)", ms(fakeLoad / Math.max(1, load.total))]);
      // The fake's work a request is the same from run to run (while the requests the service sends keep
      // their size), so its CPU a request follows the machine's speed of the minute; the service's CPU over
      // it is steadier than req/s across runs made apart, though it still spread 5.7-6.9 over one evening's
      // runs of the same code (docs/performance.md, session 24): `npm run bench:pair` measures a change.
      rows.push(["service CPU / fake provider CPU, per request under that load", `${(cpuLoad / Math.max(1, fakeLoad)).toFixed(2)}`]);
      rows.push(["service peak RSS under that load, sampled every 20 ms", `**${mb(peakRss)}**`]);
      rows.push(["service VmHWM after the load (peak since its start)", mb(after.hwm)]);
      rows.push(["service RSS right after the load", mb(after.rss)]);
      if (chromaPid) rows.push(["embedded Chroma peak RSS / CPU under that load (apart)", `${mb(chromaPeak)} / ${ms(cpuMs(chromaPid) - chromaCpu0)} in all`]);
    } finally {
      await service.stop();
    }
  } finally {
    await fake.stop();
  }
  console.log(
    `chat benchmark, service in its own process (npm start's way: \`${command}\`), the fake provider (0 ms) and autocannon in two others; ` +
      `${UNIQUE ? "every question unique (BENCH_UNIQUE=1)" : "the same question every time"}; ${N} sequential requests per kind, then autocannon -c ${CONNECTIONS} for ${SECONDS} s; Node ${process.version}; ` +
      `load average at start ${loadAtStart}, at end ${loadAverage()}\n`,
  );
  console.log("| measure | value |\n|---|---|");
  for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
}
