import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import OpenAI from "openai";
import { createApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/logger.js";
import { buildServices } from "../src/services.js";
import { match, reply, startFakeProvider } from "../test/fakes/index.js";
import { listen } from "../test/helpers/listen.js";

/**
 * Soak: SOAK_SECONDS (default 300) of mixed traffic from SOAK_CONCURRENCY workers (default 8) against
 * the real service (embedded Chroma, full index) and the fake provider at 0 ms. Reports requests,
 * unexpected errors, p50/p99 per kind, RSS after warm-up and at the end, and the handles left open
 * once everything is closed. Run: npm run soak (node --expose-gc, so RSS is read after a full GC).
 */
const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 8);
const WARMUP_S = Math.min(60, Math.max(10, Math.round(SECONDS * 0.15)));
const DATA_DIR = process.env.SOAK_DATA_DIR ?? join(tmpdir(), "biblical-chat-soak");
const KEY = "sk-test-soak-0123456789abcdef";

type Kind = "search" | "chat" | "chat_stream" | "preflight_intercepted" | "bad_request" | "no_key" | "provider_429" | "disconnect";
const KINDS: Kind[] = ["search", "search", "chat", "chat_stream", "chat_stream", "preflight_intercepted", "bad_request", "no_key", "provider_429", "disconnect"];
const QUERIES = ["the Good Samaritan", "love your enemies", "John 3:16", "faith without works", "creation of the world", "Psalm 23", "forgiveness", "the prodigal son"];

const gc = (globalThis as { gc?: () => void }).gc;
const rssMb = () => {
  gc?.();
  return process.memoryUsage().rss / 2 ** 20;
};
const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;

async function main() {
  const baseline = process.getActiveResourcesInfo();
  mkdirSync(DATA_DIR, { recursive: true });
  // The fake records requests for tests; here that record would read as a leak of the service.
  const provider = await startFakeProvider({ delayMs: 0, maxRecorded: 1 });
  provider.on(match.lastUser("RATE-ME"), reply.error(429, { headers: { "retry-after": "1" } }));
  // Long enough to pass the turn gate's held text, slow enough that the client leaves mid-stream.
  const slow = "Hope in the Bible is confident expectation, not wishful thinking. Romans 5:5 says hope does not disappoint. ".repeat(6);
  provider.on(match.all(match.agent(), match.lastUser("SLOW-STREAM"), match.afterToolResult()), reply.text(slow, { chunkDelayMs: 20 }));
  const config = loadConfig({ OPENAI_BASE_URL: provider.baseURL, DATA_DIR, LOG_LEVEL: "info" });
  // Logs go through pino as in production but are dropped: a growing array would read as a leak.
  const logger = createLogger("info", new Writable({ write: (_c, _e, cb) => cb() }));
  const services = buildServices(config, logger);
  const t0 = Date.now();
  await services.search.indexed;
  process.stdout.write(`index ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (${DATA_DIR})\n`);
  const srv = await listen(createApp(services.app));
  const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: KEY, maxRetries: 0, timeout: 30_000 });
  const noKey = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: "not-a-key", maxRetries: 0 });

  const latencies = new Map<Kind, number[]>();
  const unexpected: string[] = [];
  let requests = 0;
  const q = () => QUERIES[Math.floor(Math.random() * QUERIES.length)]!;
  const user = (content: string) => [{ role: "user" as const, content }];

  async function one(kind: Kind): Promise<void> {
    switch (kind) {
      case "search": {
        const res = await fetch(`${srv.url}/v1/scripture/search?q=${encodeURIComponent(q())}`);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`search ${res.status}`);
        return;
      }
      case "chat": {
        const r = await client.chat.completions.create({ model: "gpt-4o-mini", messages: user(`What does the Bible say about ${q()}?`) });
        if (!r.choices[0]?.message.content?.includes("John 3:16")) throw new Error("chat: unexpected answer");
        return;
      }
      case "chat_stream": {
        const s = await client.chat.completions.create({ model: "gpt-4o-mini", stream: true, messages: user(`Explain ${q()}.`) });
        let text = "";
        for await (const c of s) text += c.choices[0]?.delta.content ?? "";
        if (!text.includes("John 3:16")) throw new Error("stream: unexpected answer");
        return;
      }
      case "preflight_intercepted": {
        const r = await client.chat.completions.create({ model: "gpt-4o-mini", messages: user("Hello!") });
        if (r.choices[0]?.finish_reason !== "stop") throw new Error("greeting: not answered");
        return;
      }
      case "bad_request":
        return expectStatus(() => client.chat.completions.create({ model: "gpt-4o-mini", messages: [] }), 400);
      case "no_key":
        return expectStatus(() => noKey.chat.completions.create({ model: "gpt-4o-mini", messages: user("Hi") }), 401);
      case "provider_429":
        return expectStatus(() => client.chat.completions.create({ model: "gpt-4o-mini", messages: user("RATE-ME please") }), 429);
      case "disconnect": {
        const ac = new AbortController();
        try {
          const s = await client.chat.completions.create(
            { model: "gpt-4o-mini", stream: true, messages: user("SLOW-STREAM: what is hope?") },
            { signal: ac.signal },
          );
          for await (const c of s) if (c.choices[0]?.delta.content) ac.abort();
        } catch (err) {
          if (!ac.signal.aborted) throw err;
        }
        return;
      }
    }
  }

  async function expectStatus(call: () => Promise<unknown>, status: number) {
    try {
      await call();
    } catch (err) {
      if (err instanceof OpenAI.APIError && err.status === status) return;
      throw err;
    }
    throw new Error(`expected ${status}`);
  }

  const end = Date.now() + SECONDS * 1000;
  const warmEnd = Date.now() + WARMUP_S * 1000;
  let rssStart: number | undefined;
  let heapStart = 0;
  // RSS every 30 s after warm-up: a plateau and a slope read differently from two end points.
  const trend: string[] = [];
  let nextSample = warmEnd + 30_000;
  const sampler = setInterval(() => {
    if (rssStart !== undefined && Date.now() >= nextSample) {
      nextSample += 30_000;
      trend.push(`${rssMb().toFixed(0)}/${heapMb().toFixed(0)}`);
    }
    if (rssStart === undefined && Date.now() >= warmEnd) {
      rssStart = rssMb();
      heapStart = heapMb();
      latencies.clear();
      requests = 0;
      unexpected.length = 0;
      process.stdout.write(`warm-up done (${WARMUP_S} s): RSS ${rssStart.toFixed(1)} MB\n`);
    }
  }, 500);

  const worker = async () => {
    while (Date.now() < end) {
      const kind = KINDS[Math.floor(Math.random() * KINDS.length)]!;
      const started = performance.now();
      try {
        await one(kind);
      } catch (err) {
        unexpected.push(`${kind}: ${err instanceof Error ? err.message : String(err)}`);
      }
      requests += 1;
      const list = latencies.get(kind) ?? [];
      list.push(performance.now() - started);
      latencies.set(kind, list);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 500)); // let aborted upstream calls settle
  const rssEnd = rssMb();
  const heapEnd = heapMb();
  const openConnections = await new Promise<number>((r) => srv.server.getConnections((_e, n) => r(n)));
  const providerSockets = provider.stats.openSockets;

  const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
  const all = [...latencies.values()].flat().sort((a, b) => a - b);
  const measured = SECONDS - WARMUP_S;
  const lines = [
    `soak: ${SECONDS} s (${WARMUP_S} s warm-up not counted), ${CONCURRENCY} workers`,
    `requests: ${requests} (${(requests / measured).toFixed(1)}/s), unexpected errors: ${unexpected.length}`,
    `latency all: p50 ${pct(all, 50).toFixed(1)} ms, p99 ${pct(all, 99).toFixed(1)} ms`,
    ...[...latencies.entries()].map(([k, xs]) => {
      xs.sort((a, b) => a - b);
      return `  ${k.padEnd(22)} n=${String(xs.length).padStart(6)}  p50 ${pct(xs, 50).toFixed(1).padStart(7)} ms  p99 ${pct(xs, 99).toFixed(1).padStart(7)} ms`;
    }),
    `RSS after warm-up ${rssStart?.toFixed(1)} MB, at end ${rssEnd.toFixed(1)} MB, growth ${rssStart ? (((rssEnd - rssStart) / rssStart) * 100).toFixed(2) : "?"}%`,
    `V8 heap used after warm-up ${heapStart.toFixed(1)} MB, at end ${heapEnd.toFixed(1)} MB; RSS/heap MB every 30 s: ${trend.join(" ")}`,
    `at end: ${openConnections} server connections (keep-alive), provider open sockets ${providerSockets}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  if (unexpected.length) process.stdout.write(`first unexpected: ${[...new Set(unexpected)].slice(0, 5).join(" | ")}\n`);

  await srv.close();
  await services.stop();
  await provider.close();
  await new Promise((r) => setTimeout(r, 200));
  // Only what this run opened: the baseline holds stdout/stderr and the like.
  const handles = process.getActiveResourcesInfo();
  for (const h of baseline) {
    const i = handles.indexOf(h);
    if (i >= 0) handles.splice(i, 1);
  }
  process.stdout.write(`open handles after close: ${handles.length ? handles.join(", ") : "none"}\n`);
  const ok = unexpected.length === 0 && handles.length === 0 && rssStart !== undefined && (rssEnd - rssStart) / rssStart <= 0.05;
  process.exit(ok ? 0 : 1);
}

void main();
