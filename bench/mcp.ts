/**
 * What the MCP layer costs per call: the same searches sent as GET /v1/scripture/search and as an MCP
 * tools/call of search_scripture (POST /mcp, stateless: a server and transport per request), to one
 * app in this process, interleaved at concurrency 1 (http, mcp, mcp through the SDK client, http, ...)
 * so the machine's drift cannot favour either. Both plain calls go through fetch, so the difference of
 * their p50s is the server-side MCP layer (JSON-RPC, the per-request server, argument validation, the
 * text result) against the endpoint's JSON; the SDK client column adds what a real MCP client spends.
 * Goal (issue 21): MCP adds at most 1 ms p50 over the HTTP endpoint for the same search.
 *
 * Needs an index in DATA_DIR (built on first use, as npm start does). Run: npm run bench:mcp [-- --requests N]
 */
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { mcpRouter } from "../src/http/mcp/route.js";
import { searchRouter } from "../src/http/search/route.js";
import { createLogger } from "../src/logger.js";
import { loadBibleLibrary } from "../src/scripture/corpus.js";
import { formatReference, parsePassageQuery, prepareReferences } from "../src/scripture/references.js";
import { startSearchService } from "../src/scripture/search/service.js";
import { listen } from "../test/helpers/listen.js";
import { percentile } from "./lib/load-loop.js";

const arg = process.argv.indexOf("--requests");
const REQUESTS = arg > 0 ? Number(process.argv[arg + 1]) : 600;
const LIMIT = 4; // search_scripture's default; the endpoint is asked for the same number
const quiet = { info() {}, warn() {}, error: (o: object, m?: string) => console.error(m, o) };

// The eval queries (varied texts, as users send), without passage references (those skip the search).
const EVALS = join(import.meta.dirname, "..", "evals", "search");
const queries: string[] = readdirSync(EVALS)
  .filter((f) => f.endsWith(".jsonl"))
  .sort()
  .flatMap((f) => readFileSync(join(EVALS, f), "utf8").split("\n").filter(Boolean))
  .map((l) => (JSON.parse(l) as { query: string }).query)
  .filter((q) => parsePassageQuery(q) === null);

const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");

async function main() {
  const config = loadConfig();
  console.log(`load average at start: ${load()}`);
  prepareReferences();
  const library = loadBibleLibrary();
  const svc = startSearchService({ dataDir: config.dataDir, chromaUrl: config.chromaUrl, embeddings: config.embeddings, library, logger: quiet });
  await svc.indexed;
  const app = createApp({
    config,
    logger: createLogger("silent", new Writable({ write: (_c, _e, cb) => cb() })),
    readiness: svc.readiness,
    listings: { models: [], modelsCreated: 0, translations: () => [], theologies: () => [], profiles: () => [] },
    routers: [
      searchRouter(svc.search, () => library.ids()),
      mcpRouter({ search: svc.search, bibles: library, references: { parsePassageQuery, formatReference }, publicBaseUrl: undefined }),
    ],
  });
  const srv = await listen(app);
  const query = (i: number) => queries[i % queries.length]!;

  const http = async (i: number) => {
    const res = await fetch(`${srv.url}/v1/scripture/search?q=${encodeURIComponent(query(i))}&limit=${LIMIT}`);
    const body = (await res.json()) as { results?: unknown[] };
    return res.ok && (body.results?.length ?? 0) > 0;
  };
  const mcp = async (i: number) => {
    const res = await fetch(`${srv.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "search_scripture", arguments: { query: query(i), limit: LIMIT } } }),
    });
    const body = (await res.json()) as { result?: { isError?: boolean; content: { text: string }[] } };
    return res.ok && body.result?.isError !== true && (body.result?.content[0]?.text.startsWith("## ") ?? false);
  };
  const client = new Client({ name: "bench-mcp", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)));
  const sdk = async (i: number) => {
    const r = await client.callTool({ name: "search_scripture", arguments: { query: query(i), limit: LIMIT } });
    return r.isError !== true;
  };

  const calls = { http, mcp, sdk } as const;
  const lat: Record<keyof typeof calls, number[]> = { http: [], mcp: [], sdk: [] };
  let errors = 0;
  for (let i = 0; i < 60; i++) for (const call of Object.values(calls)) await call(i + 1_000_000);
  for (let i = 0; i < REQUESTS; i++) {
    for (const [name, call] of Object.entries(calls) as [keyof typeof calls, (i: number) => Promise<boolean>][]) {
      const t = performance.now();
      if (!(await call(i).catch(() => false))) errors++;
      lat[name].push(performance.now() - t);
    }
  }
  const p = (name: keyof typeof calls, q: number) => percentile([...lat[name]].sort((a, b) => a - b), q);
  console.log(`\n${REQUESTS} searches each (${queries.length} distinct eval queries, limit ${LIMIT}), concurrency 1, interleaved; errors: ${errors}`);
  console.log("| call                                         |  p50 ms |  p99 ms |");
  console.log("|----------------------------------------------|--------:|--------:|");
  const row = (label: string, name: keyof typeof calls) => console.log(`| ${label.padEnd(44)} | ${p(name, 50).toFixed(2).padStart(7)} | ${p(name, 99).toFixed(2).padStart(7)} |`);
  row("GET /v1/scripture/search (fetch)", "http");
  row("POST /mcp tools/call search_scripture (fetch)", "mcp");
  row("same through the SDK Client", "sdk");
  const diff = p("mcp", 50) - p("http", 50);
  console.log(`\nMCP layer, p50 difference: ${diff >= 0 ? "+" : ""}${diff.toFixed(2)} ms (goal: at most +1 ms): ${diff <= 1 ? "met" : "NOT met"}`);
  console.log(`SDK client over the endpoint, p50 difference: +${(p("sdk", 50) - p("http", 50)).toFixed(2)} ms`);
  console.log(`load average at end: ${load()}`);
  await client.close();
  await srv.close();
  await svc.stop();
  if (errors > 0) process.exitCode = 1;
}

void main();
