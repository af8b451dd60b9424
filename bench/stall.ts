/**
 * The attack review of issue 30, repeated: the service as `npm start` runs it, a second client polling
 * /healthz every 25 ms, and each small request that used to stall the event loop for everybody. Prints
 * each request's status, wall time, and the longest /healthz answer while it ran (how long the service
 * was blocked for everyone); the figures to hold are wall < 1 s and /healthz < 250 ms.
 *   node --import tsx bench/stall.ts        (BENCH_DATA_DIR keeps the index between runs)
 * The provider is the fake (test/fakes), in this process: it refuses the key "sk-refused" and answers
 * the agent with 40,000 combining marks when the question asks for MARKS.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { reply } from "../test/fakes/replies.js";
import { isStructured, lastUserText } from "../test/fakes/chat-request.js";
import { startFakeProvider } from "../test/fakes/fake-provider.js";
import { loadAverage, startServiceProcess } from "./lib/service-process.js";

const PORT = Number(process.env.BENCH_PORT ?? 18_930);
const DATA_DIR = process.env.BENCH_DATA_DIR ?? join(tmpdir(), "bc-bench-service-data");
const MARKS = "\u0301\u0316\u0334\u0345";
const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Attack {
  name: string;
  path: string;
  body: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

const json = { "Content-Type": "application/json" };
const mcpHeaders = { ...json, Accept: "application/json, text/event-stream" };
const chat = (content: string) =>
  JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content }] });
const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

const ATTACKS: Attack[] = [
  {
    name: "search: book 'J' + 60,000 x 4 marks, gzip",
    path: "/v1/scripture/search",
    body: new Uint8Array(gzipSync(JSON.stringify({ query: "love", book: `J${MARKS.repeat(60_000)}` }))),
    headers: { ...json, "Content-Encoding": "gzip" },
  },
  { name: "MCP search_scripture: query of 60,000 marks", path: "/mcp", body: JSON.stringify(call(1, "search_scripture", { query: fill(MARKS, 60_000) })), headers: mcpHeaders },
  {
    name: "MCP: batch of 20 lookup_passage (the most allowed)",
    path: "/mcp",
    body: JSON.stringify(Array.from({ length: 20 }, (_, i) => call(i + 1, "lookup_passage", { reference: `Genesis ${i + 1}:1-Revelation 22:21` }))),
    headers: mcpHeaders,
  },
  {
    name: "MCP: batch of 100 lookup_passage",
    path: "/mcp",
    body: JSON.stringify(Array.from({ length: 100 }, (_, i) => call(i + 1, "lookup_passage", { reference: "Genesis 1:1-Revelation 22:21" }))),
    headers: mcpHeaders,
  },
  ...["John 3 ", "www.", "{{", "a"].map((unit) => ({
    name: `chat, refused key: 20,000 x ${JSON.stringify(unit)}`,
    path: "/v1/chat/completions",
    body: chat(fill(unit, 20_000)),
    headers: { ...json, Authorization: "Bearer sk-refused" },
  })),
  {
    name: "chat: a model answer of 40,000 marks",
    path: "/v1/chat/completions",
    body: chat("What does the Bible say about MARKS?"),
    headers: { ...json, Authorization: "Bearer sk-bench" },
  },
];

async function main() {
  const fake = await startFakeProvider({
    fallback: (request) => {
      if (request.headers.authorization === "Bearer sk-refused") return reply.error(401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } });
      if (isStructured(request.body)) return { kind: "json", value: { category: "biblical_question" } };
      if (lastUserText(request.body).includes("MARKS")) return { kind: "text", text: fill(MARKS, 40_000) };
      return { kind: "normal" };
    },
  });
  const service = await startServiceProcess({ DATA_DIR, OPENAI_BASE_URL: fake.baseURL }, { port: PORT });
  console.log(`service ready in ${(service.readyMs / 1000).toFixed(1)} s; load ${loadAverage()}`);
  let polling = true;
  let worst = 0;
  const poller = (async () => {
    while (polling) {
      const t0 = performance.now();
      await fetch(`${service.url}/healthz`).then((r) => r.arrayBuffer(), () => undefined);
      worst = Math.max(worst, performance.now() - t0);
      await sleep(25);
    }
  })();
  try {
    // A warm-up request of each kind first, so lazily built parts are not counted against an attack.
    await fetch(`${service.url}/v1/scripture/search?q=love`).then((r) => r.arrayBuffer());
    const ordinary = chat("What does the Bible say about patience? John 3:16");
    await fetch(`${service.url}/v1/chat/completions`, { method: "POST", body: ordinary, headers: { ...json, Authorization: "Bearer sk-bench" } }).then((r) => r.arrayBuffer());
    console.log("request".padEnd(52), "status", "wall ms", "healthz max ms");
    // Each attack twice: the first pays for code the service has not run yet, the second is steady state.
    for (const attack of ATTACKS.flatMap((a) => [a, { ...a, name: `  again` }])) {
      await sleep(200);
      worst = 0;
      const t0 = performance.now();
      const res = await fetch(`${service.url}${attack.path}`, { method: "POST", body: attack.body, headers: attack.headers ?? json });
      await res.arrayBuffer();
      const wall = performance.now() - t0;
      await sleep(60);
      const flag = wall > 1000 || worst > 250 ? "  <-- over" : "";
      console.log(attack.name.padEnd(52), String(res.status).padEnd(6), wall.toFixed(0).padStart(7), worst.toFixed(0).padStart(14), flag);
    }
    // Past KEY_REFUSALS_PER_MINUTE (default 10) refused keys from this address, a chat is refused before any work.
    const johns = ATTACKS.find((a) => a.name.includes("John 3"))!;
    for (let i = 0; i < 12; i++) {
      await sleep(100);
      worst = 0;
      const t0 = performance.now();
      const res = await fetch(`${service.url}${johns.path}`, { method: "POST", body: johns.body, headers: johns.headers ?? json });
      await res.arrayBuffer();
      const wall = performance.now() - t0;
      await sleep(60);
      if (res.status !== 429) continue;
      console.log("chat, refused key, past KEY_REFUSALS_PER_MINUTE".padEnd(52), String(res.status).padEnd(6), wall.toFixed(0).padStart(7), worst.toFixed(0).padStart(14));
      break;
    }
    console.log(`load ${loadAverage()}`);
  } finally {
    polling = false;
    await poller;
    await service.stop();
    await fake.close();
  }
}

await main();
