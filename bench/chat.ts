/**
 * npm run bench:chat — the service's own cost per chat request, with the fake provider answering at
 * 0 ms in the same process. Each request is the realistic path: preflight classifier, an agent turn
 * that calls lookup_passage, the answer turn. Figures are printed as a markdown table.
 *   added latency per provider call = (client latency - time inside the provider) / provider calls
 *   first-token delay = client receives the first answer text - provider sent the answer's first token
 * Four paths: the adapter alone (a scripted runner, no provider: its floor), the adapter over one plain
 * streamed provider call (a thin proxy, comparable with LiteLLM), the adapter over a bare LangGraph
 * making the same three calls (the libraries' floor, bench/chat-floor.ts), and over the chat graph.
 * Then, for the plain proxy (the plain openai SDK's floor) and the chat graph in the same run:
 *   CPU per request when the answer streams in 62, 300 and 1,000 chunks, and CPU per streamed chunk
 *   (the slope between 62 and 1,000 chunks), with the graph's slope as a ratio of the SDK's;
 *   first-token delay on a real-looking answer paced like a provider (BENCH_PACE_MS between chunks).
 * Last, service-only CPU per request: the service (bench/lib/chat-service-child.ts) and the fake provider
 * each in a process of their own, so the figure holds neither the client nor the fake (bench/lib/service-cpu.ts),
 * for the adapter alone, one plain provider call, LangGraph's loop on the chat path, and the chat graph.
 * BENCH_N, BENCH_SECONDS, BENCH_CHUNK_N, BENCH_PACE_MS, BENCH_SERVICE_N, BENCH_WARM and
 * BENCH_ONLY=chunks|paths|service-cpu tune the run.
 * BENCH_ONLY=service measures the service in its own process instead, as `npm start` runs it (bench/chat-service.ts).
 */
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { match, reply } from "../test/fakes/index.js";
import { startChatStack, type ChatStack } from "../test/http/chat-stack.js";
import { bareGraph } from "./chat-floor.js";
import { plainProxy, scriptedAnswer } from "./chat-proxy.js";
import { autocannon } from "./lib/service-process.js";
import { serviceCpuRows } from "./lib/service-cpu.js";
import { measureQuoteCost, quoteCostTable } from "./quote-cost.js";

const now = () => performance.timeOrigin + performance.now();
const N = Number(process.env.BENCH_N ?? 400);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const KEY = "sk-bench-0000";
const ANSWER =
  'God\'s love is shown in John 3:16: "For God so loved the world, that he gave his only born Son." It is a gift, ' +
  "not a wage, as Romans 6:23 and Ephesians 2:8-9 say. The love is for the whole world, and it is received by faith. " +
  "See also 1 John 4:9-10, where love is defined by God's sending of his Son.";
const body = (stream: boolean) =>
  JSON.stringify({ model: "gpt-4o-mini", stream, messages: [{ role: "user", content: "What does John 3:16 teach about God's love?" }] });

/** The realistic graph path: preflight, an agent turn calling lookup_passage, the answer turn. */
async function graphStack(runner?: typeof bareGraph): Promise<ChatStack> {
  const stack = await startChatStack({ logLevel: "info", keepLogs: false, maxRecorded: 100, ...(runner ? { runner } : {}) });
  stack.provider.on(match.all(match.agent(), match.not(match.afterToolResult())), reply.toolCall("lookup_passage", { reference: "John 3:16" }));
  stack.provider.on(match.all(match.agent(), match.afterToolResult()), reply.text(ANSWER));
  return stack;
}

const headers = { "content-type": "application/json", authorization: `Bearer ${KEY}` };
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

interface Sample {
  added: number;
  calls: number;
  firstToken?: number;
}

/** One request; the provider's records after `seq` are this request's calls (requests run one at a time). */
async function once(stack: ChatStack, stream: boolean): Promise<Sample> {
  const { provider } = stack;
  const url = `${stack.url}/v1/chat/completions`;
  const seq = provider.requests.at(-1)?.seq ?? 0;
  const t0 = now();
  const res = await fetch(url, { method: "POST", headers, body: body(stream) });
  let firstText: number | undefined;
  if (stream) {
    const decoder = new TextDecoder();
    for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (firstText === undefined && /"delta":\{"content":"[^"]/.test(decoder.decode(part))) firstText = now();
    }
  } else {
    await res.arrayBuffer();
  }
  const t1 = now();
  if (res.status !== 200) throw new Error(`bench request failed: ${res.status}`);
  const calls = provider.chatRequests.filter((r) => r.seq > seq);
  const inside = calls.reduce((sum, r) => sum + ((r.finishedAt ?? t1) - r.receivedAt), 0);
  const answerCall = calls.at(-1);
  const sample: Sample = { added: (t1 - t0 - inside) / Math.max(1, calls.length), calls: calls.length };
  if (firstText !== undefined && answerCall?.firstTokenAt !== undefined) sample.firstToken = firstText - answerCall.firstTokenAt;
  return sample;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function series(stack: ChatStack, stream: boolean): Promise<Sample[]> {
  const out: Sample[] = [];
  for (let i = 0; i < N; i++) out.push(await once(stack, stream));
  return out;
}

async function measure(label: string, stack: ChatStack): Promise<string[][]> {
  try {
    for (let i = 0; i < 50; i++) await once(stack, i % 2 === 0);
    const cpu0 = process.cpuUsage();
    const plain = await series(stack, false);
    const streamed = await series(stack, true);
    const cpu = process.cpuUsage(cpu0);
    const cpuPerRequest = (cpu.user + cpu.system) / 1000 / (2 * N);
    const load = await autocannon(`${stack.url}/v1/chat/completions`, { connections: 32, seconds: SECONDS, body: body(false), headers });
    const added = (xs: Sample[]) => `${ms(pct(xs.map((s) => s.added), 50))} / ${ms(pct(xs.map((s) => s.added), 99))}`;
    const firsts = streamed.flatMap((s) => (s.firstToken === undefined ? [] : [s.firstToken]));
    return [
      [label, "provider calls per request", String(plain[0]!.calls)],
      [label, "added latency per provider call, non-stream p50 / p99", added(plain)],
      [label, "added latency per provider call, stream p50 / p99", added(streamed)],
      [label, "provider's first answer token -> client, p50 / p99", firsts.length ? `${ms(pct(firsts, 50))} / ${ms(pct(firsts, 99))}` : "n/a"],
      [label, "CPU per request, whole process (client + service + fake provider)", ms(cpuPerRequest)],
      [label, `non-stream at concurrency 32 (${SECONDS} s)`, `${load.rps.toFixed(0)} req/s (p50 ${load.p50} ms, p99 ${load.p99} ms, non-2xx ${load.non2xx}, errors ${load.errors})`],
      [label, "peak RSS so far (service + fake provider, one process)", `${(peakRss / 2 ** 20).toFixed(0)} MB`],
    ];
  } finally {
    await stack.close();
  }
}

const CHUNKS = [62, 300, 1000] as const;
const CHUNK_N = Number(process.env.BENCH_CHUNK_N ?? 60);
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 8);
const ONLY = process.env.BENCH_ONLY;

/** An answer of n word chunks, with a sentence end every dozen words, as a provider streams tokens. */
function chunkedAnswer(n: number): string[] {
  const words = ANSWER.replace(/[.!?"]/g, "").split(/\s+/).filter(Boolean);
  return Array.from({ length: n }, (_, i) => `${words[i % words.length]}${i % 12 === 11 || i === n - 1 ? "." : ""} `);
}

/** CPU (whole process) per streamed request whose answer turn streams `n` chunks, max_words out of the way. */
async function cpuAt(stack: ChatStack, graph: boolean, n: number): Promise<number> {
  const { provider } = stack;
  provider.reset();
  const pieces = chunkedAnswer(n);
  const answer = reply.text(pieces.join(""), { chunks: pieces });
  if (graph) {
    provider.on(match.all(match.agent(), match.not(match.afterToolResult())), reply.toolCall("lookup_passage", { reference: "John 3:16" }));
    provider.on(match.all(match.agent(), match.afterToolResult()), answer);
  } else {
    provider.on(match.any(), answer);
  }
  const req = JSON.stringify({ model: "gpt-4o-mini", stream: true, max_words: 2000, messages: [{ role: "user", content: "What does John 3:16 teach about God's love?" }] });
  const go = async () => {
    const res = await fetch(`${stack.url}/v1/chat/completions`, { method: "POST", headers, body: req });
    const text = await res.text();
    if (res.status !== 200 || !text.includes("[DONE]")) throw new Error(`bench request failed: ${res.status}`);
  };
  for (let i = 0; i < 10; i++) await go();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < CHUNK_N; i++) await go();
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / 1000 / CHUNK_N;
}

/** First-token delay when the answer turn streams at a provider's pace (PACE_MS between chunks). */
async function pacedFirstToken(stack: ChatStack, graph: boolean): Promise<number[]> {
  const { provider } = stack;
  provider.reset();
  const answer = reply.text(ANSWER, { chunkDelayMs: PACE_MS });
  if (graph) {
    provider.on(match.all(match.agent(), match.not(match.afterToolResult())), reply.toolCall("lookup_passage", { reference: "John 3:16" }));
    provider.on(match.all(match.agent(), match.afterToolResult()), answer);
  } else {
    provider.on(match.any(), answer);
  }
  const out: number[] = [];
  for (let i = 0; i < 30; i++) {
    const s = await once(stack, true);
    if (s.firstToken !== undefined) out.push(s.firstToken);
  }
  return out;
}

async function chunkRows(): Promise<string[][]> {
  const rows: string[][] = [];
  const slope: Record<string, number> = {};
  for (const [label, graph] of [["plain openai SDK (proxy)", false], ["chat graph", true]] as const) {
    const stack = graph ? await graphStack() : await startChatStack({ logLevel: "info", keepLogs: false, maxRecorded: 100, runner: plainProxy });
    try {
      const at: number[] = [];
      for (const n of CHUNKS) at.push(await cpuAt(stack, graph, n));
      CHUNKS.forEach((n, i) => rows.push([label, `CPU per streamed request, answer in ${n} chunks`, ms(at[i]!)]));
      slope[label] = (at[2]! - at[0]!) / (CHUNKS[2] - CHUNKS[0]);
      rows.push([label, "CPU per streamed chunk (slope 62 -> 1,000 chunks)", `${slope[label]!.toFixed(4)} ms`]);
      const firsts = await pacedFirstToken(stack, graph);
      rows.push([label, `first answer token -> client at ${PACE_MS} ms/chunk, p50 / p99`, firsts.length ? `${ms(pct(firsts, 50))} / ${ms(pct(firsts, 99))}` : "n/a"]);
    } finally {
      await stack.close();
    }
  }
  const ratio = slope["chat graph"]! / slope["plain openai SDK (proxy)"]!;
  rows.push(["chat graph / plain SDK", "CPU per streamed chunk, ratio (goal <= 1.5)", `${ratio.toFixed(2)}x`]);
  return rows;
}

if (ONLY === "service") {
  clearInterval(sampler);
  await (await import("./chat-service.js")).main();
  process.exit(0);
}

const loadAtStart = loadavg().map((l) => l.toFixed(1)).join(" ");
try {
  const rows = [
    ...(ONLY === "chunks" || ONLY === "service-cpu"
      ? []
      : [
          ...(await measure("adapter alone (scripted runner)", await startChatStack({ logLevel: "info", keepLogs: false, maxRecorded: 100, runner: () => scriptedAnswer(ANSWER.split(/(?<=\. )/)) }))),
          ...(await measure("adapter + plain proxy", await startChatStack({ logLevel: "info", keepLogs: false, maxRecorded: 100, runner: plainProxy }))),
          ...(await measure("adapter + bare LangGraph (libraries' floor)", await graphStack(bareGraph))),
          ...(await measure("adapter + chat graph", await graphStack())),
        ]),
    ...(ONLY === "paths" || ONLY === "service-cpu" ? [] : await chunkRows()),
    ...(ONLY === "paths" || ONLY === "chunks"
      ? []
      : await serviceCpuRows({ n: Number(process.env.BENCH_SERVICE_N ?? 300), warm: Number(process.env.BENCH_WARM ?? 300), key: KEY, body })),
  ];
  const flags = process.execArgv.filter((a) => a.startsWith("--max") || a.startsWith("--expose")).join(" ") || "none";
  console.log(
    `chat benchmark: ${N} sequential requests per mode, then autocannon -c 32 for ${SECONDS} s; ${CHUNK_N} requests per chunk count; ` +
      `Node ${process.version} (heap flags: ${flags}), ${availableParallelism()} cores, load average at start ${loadAtStart}, at end ${loadavg().map((l) => l.toFixed(1)).join(" ")}\n`,
  );
  console.log("| path | measure | value |\n|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
  // The quotation check's share of the answer path, measured alone (it runs inside "chat graph" above).
  console.log(`\n${quoteCostTable(measureQuoteCost())}`);
} finally {
  clearInterval(sampler);
}
