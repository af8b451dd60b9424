/**
 * `npm run bench:memory` — the service's memory as `npm start` runs it (scripts/start.sh: compiled dist/,
 * its Node flags, its embedded Chroma as a child, not counted here), with the fake provider in its own
 * process. Phases, in order, each reporting the service's RSS (from /proc) and its V8 heap / external
 * memory (from its own /metrics):
 *   rest     MEMORY_REST_MS after /readyz says search is ready (the remembered lines' index is built by then);
 *   search   MEMORY_SEARCHES searches at concurrency 16 in three shapes (unfiltered; KJV, limit 10; an
 *            Old Testament filter), RSS sampled every 20 ms;
 *   chat     autocannon -c 32 for MEMORY_CHAT_S seconds of non-stream chats (the fake's standalone script);
 *   study    each study route once (lexicon, commentary, topics, passage) and every book's word tags in both
 *            tagged translations, so the lazily read data is in (a long-running replica's state);
 *   search   the search load again, with everything loaded: the steady state of a long-running replica.
 * Peak = the highest 20 ms sample and VmHWM (which also covers start-up). BENCH_DATA_DIR keeps the index
 * between runs (default $TMPDIR/bc-bench-service-data; a first start ingests, the measured one is warm).
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ALL_BOOKS } from "../src/scripture/books.js";
import { evalQueries } from "./lib/eval-queries.js";
import { autocannon, commandLine, loadAverage, memoryMb, startFakeProcess, startServiceProcess, type ServiceProcess } from "./lib/service-process.js";

const DATA_DIR = process.env.BENCH_DATA_DIR ?? join(tmpdir(), "bc-bench-service-data");
const PORT = Number(process.env.BENCH_PORT ?? 18_490);
const REST_MS = Number(process.env.MEMORY_REST_MS ?? 10_000);
const SEARCHES = Number(process.env.MEMORY_SEARCHES ?? 3_000);
const CHAT_S = Number(process.env.MEMORY_CHAT_S ?? 10);
const KEY = "sk-bench-0000";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (x: number) => `${x.toFixed(0)} MB`;

const queries: string[] = evalQueries();

/** The service's V8 figures from its own /metrics (prom-client's default metrics), in MB. */
async function heap(url: string): Promise<string> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const val = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN) / 2 ** 20;
  const used = val(/^nodejs_heap_size_used_bytes (\S+)/m);
  const total = val(/^nodejs_heap_size_total_bytes (\S+)/m);
  const ext = val(/^nodejs_external_memory_bytes (\S+)/m);
  const space = (s: string) => val(new RegExp(`^nodejs_heap_space_size_total_bytes\\{space="${s}"\\} (\\S+)`, "m"));
  return `heap used ${mb(used)} of ${mb(total)} (old ${mb(space("old"))}, new ${mb(space("new"))}, code ${mb(space("code"))}, large ${mb(space("large_object"))}), external ${mb(ext)}`;
}

/** Runs `load` while sampling the service's RSS every 20 ms; the highest sample. */
async function sampled(pid: number, load: () => Promise<unknown>): Promise<number> {
  let peak = memoryMb(pid).rss;
  const timer = setInterval(() => (peak = Math.max(peak, memoryMb(pid).rss)), 20);
  try {
    await load();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, memoryMb(pid).rss);
}

async function searches(url: string): Promise<number> {
  const shapes = [
    (q: string) => `q=${q}`,
    (q: string) => `q=${q}&bible_id=eng-kjv&limit=10`,
    (q: string) => `q=${q}&testament=Old%20Testament`,
  ];
  let next = 0;
  let failed = 0;
  const worker = async () => {
    for (let i = next++; i < SEARCHES; i = next++) {
      const q = encodeURIComponent(queries[i % queries.length]!);
      const res = await fetch(`${url}/v1/scripture/search?${shapes[i % shapes.length]!(q)}`);
      await res.arrayBuffer();
      if (!res.ok) failed++;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return failed;
}

async function study(url: string): Promise<void> {
  const paths = [
    "/v1/lexicon/G26",
    "/v1/lexicon/H430",
    "/v1/commentaries",
    "/v1/topics?q=love",
    "/v1/passage?ref=John%203:16-18&words=true&related=true",
    "/v1/topics?ref=John%203:16",
    "/v1/passage?ref=Genesis%201:1&bible_id=spa-rv1909",
  ];
  const listed = (await (await fetch(`${url}/v1/commentaries`)).json()) as { commentaries?: { id: string }[] };
  for (const c of listed.commentaries ?? []) paths.push(`/v1/commentary/${c.id}/JHN/3`, `/v1/commentary/${c.id}/PSA/23`);
  // Every book's word tags in both tagged translations (what a long-running replica's reader and
  // word-study tool read over time).
  for (const book of ALL_BOOKS.filter((b) => b.canon === "common")) for (const bible of ["eng-web", "eng-kjv"]) paths.push(`/v1/passage?ref=${book.id}%201:1&bible_id=${bible}&words=true`);
  for (const p of paths) {
    const res = await fetch(url + p, { headers: { authorization: `Bearer ${KEY}` } });
    await res.arrayBuffer();
    if (res.status >= 500) throw new Error(`${p}: ${res.status}`);
  }
}

async function main(): Promise<void> {
  console.log(`load average at start: ${loadAverage()}`);
  const fake = await startFakeProcess();
  const env = { DATA_DIR, OPENAI_BASE_URL: fake.baseURL };
  let service: ServiceProcess | undefined;
  try {
    const priming = await startServiceProcess(env, { port: PORT });
    await priming.stop();
    service = await startServiceProcess(env, { port: PORT });
    const { pid, url } = service;
    console.log(`service pid ${pid}: ${commandLine(pid)}; ready in ${(service.readyMs / 1000).toFixed(2)} s`);
    await sleep(REST_MS);
    const rest = memoryMb(pid);
    console.log(`rest (${REST_MS / 1000} s after ready): RSS ${mb(rest.rss)}, VmHWM so far ${mb(rest.hwm)}; ${await heap(url)}`);

    let failed = 0;
    const s1 = await sampled(pid, async () => (failed = await searches(url)));
    console.log(`search x${SEARCHES} c=16: peak RSS ${mb(s1)} (failed ${failed}); after: RSS ${mb(memoryMb(pid).rss)}; ${await heap(url)}`);

    const body = JSON.stringify({ model: "gpt-4o-mini", stream: false, messages: [{ role: "user", content: "What does John 3:16 teach about God's love?" }] });
    let chat = { rps: 0, non2xx: 0 };
    const c1 = await sampled(pid, async () => (chat = await autocannon(`${url}/v1/chat/completions`, { connections: 32, seconds: CHAT_S, body, headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` } })));
    console.log(`chat -c 32 ${CHAT_S} s: peak RSS ${mb(c1)} (${chat.rps.toFixed(0)} req/s, non-2xx ${chat.non2xx}); after: RSS ${mb(memoryMb(pid).rss)}; ${await heap(url)}`);

    await study(url);
    await sleep(2_000);
    console.log(`study routes read: RSS ${mb(memoryMb(pid).rss)}; ${await heap(url)}`);
    const s2 = await sampled(pid, async () => (failed = await searches(url)));
    const end = memoryMb(pid);
    console.log(`search again x${SEARCHES}: peak RSS ${mb(s2)} (failed ${failed}); after: RSS ${mb(end.rss)}; ${await heap(url)}`);
    console.log(`SUMMARY resting ${mb(rest.rss)}; peak sampled ${mb(Math.max(s1, c1, s2))}; VmHWM ${mb(end.hwm)}; load average at end: ${loadAverage()}`);
  } finally {
    await service?.stop();
    await fake.stop();
  }
}

await main();
