/**
 * Search speed beside its two floors, measured in one run over the eval queries (varied, so no cache
 * can stand in for the search): GET /healthz (HTTP floor) and a raw Chroma query on the same
 * collection from the same client (vector-store floor). Also first ingest (fresh temp DATA_DIR) and
 * warm start-to-ready (DATA_DIR's index).
 *
 * Run: npm run bench:search [-- --skip-ingest] [-- --requests N]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { createApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { searchRouter } from "../src/http/search/route.js";
import { createLogger } from "../src/logger.js";
import { loadBibleLibrary } from "../src/scripture/corpus.js";
import { startSearchService } from "../src/scripture/search/service.js";
import { listen } from "../test/helpers/listen.js";
import { runLoad, type LoadResult } from "./lib/load-loop.js";

const arg = (name: string) => process.argv.indexOf(name);
const REQUESTS = arg("--requests") > 0 ? Number(process.argv[arg("--requests") + 1]) : 1000;
const quiet = { info() {}, warn() {}, error: (o: object, m?: string) => console.error(m, o) };
const progress = { ...quiet, info: (o: object, m?: string) => console.log(`  ${m} ${JSON.stringify(o)}`) };

const queries: string[] = readFileSync(join(import.meta.dirname, "..", "evals", "search", "queries.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => (JSON.parse(l) as { query: string }).query);
const BOOKS = ["GEN", "PSA", "ISA", "MAT", "JHN", "ROM", "PRO", "LUK", "ACT", "REV"];

async function firstIngest(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "bench-ingest-"));
  const started = performance.now();
  const svc = startSearchService({ dataDir: dir, library: loadBibleLibrary({ ids: ["eng-web"] }), logger: progress });
  await svc.indexed;
  const ms = performance.now() - started;
  await svc.stop();
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

function row(name: string, r: LoadResult, floor?: LoadResult) {
  const ratio = floor ? `  p50 x${(r.p50 / floor.p50).toFixed(2)}  p99 x${(r.p99 / floor.p99).toFixed(2)}` : "";
  return `| ${name.padEnd(40)} | ${r.p50.toFixed(2).padStart(6)} | ${r.p99.toFixed(2).padStart(6)} | ${r.rps.toFixed(0).padStart(5)} | ${r.errors} |${ratio}`;
}

async function main() {
  const config = loadConfig();
  let ingestMs: number | undefined;
  if (arg("--skip-ingest") < 0) {
    console.log("first ingest into a fresh DATA_DIR:");
    ingestMs = await firstIngest();
  }
  // Make sure DATA_DIR holds an index, then time a warm start against it.
  const prep = startSearchService({ dataDir: config.dataDir, chromaUrl: config.chromaUrl, library: loadBibleLibrary({ ids: ["eng-web"] }), logger: progress });
  await prep.indexed;
  await prep.stop();
  const warmStarted = performance.now();
  const library = loadBibleLibrary();
  const svc = startSearchService({ dataDir: config.dataDir, chromaUrl: config.chromaUrl, embeddings: config.embeddings, library, logger: quiet });
  const index = await svc.indexed;
  const warmMs = performance.now() - warmStarted;
  if (index.mode !== "warm") throw new Error(`expected a warm start, got ${index.mode}`);

  const app = createApp({
    config,
    logger: createLogger("silent", new Writable({ write: (_c, _e, cb) => cb() })),
    readiness: svc.readiness,
    listings: { models: [], modelsCreated: 0, translations: () => [], theologies: () => [], profiles: () => [] },
    routers: [searchRouter(svc.search, () => library.ids())],
  });
  const srv = await listen(app);
  const http = async (path: string) => {
    const res = await fetch(srv.url + path);
    await res.arrayBuffer();
    return res.ok;
  };
  const q = (i: number) => encodeURIComponent(queries[i % queries.length]!);
  const vectors = await Promise.all(queries.map(async (text) => (await index.embedder.embedQuery(text)) ?? new Float32Array(index.embedder.dim)));
  const chromaUrl = new URL(svc.embedded()?.url ?? config.chromaUrl!);
  const { ChromaClient } = await import("chromadb");
  const client = new ChromaClient({ host: chromaUrl.hostname, port: Number(chromaUrl.port), ssl: false });
  const collection = await client.getOrCreateCollection({ name: index.manifest.collection, embeddingFunction: null });
  const raw = (where?: Record<string, string>) => async (i: number) => {
    await collection.query({ queryEmbeddings: [Array.from(vectors[i % vectors.length]!)], nResults: 64, include: ["distances"], ...(where ? { where } : {}) });
    return true;
  };

  const lines: string[] = [];
  for (const concurrency of [1, 16]) {
    const n = concurrency === 1 ? REQUESTS : REQUESTS * 2;
    const opts = { requests: n, concurrency };
    const healthz = await runLoad(() => http("/healthz"), opts);
    // The vector floor drifts by a third between minutes on this shared machine, so it is measured just
    // before and just after the unfiltered search and ratios use the mean of the two; the costly `where`
    // reference runs last so its load does not precede the searches.
    const chromaBefore = await runLoad(raw(), opts);
    const unfiltered = await runLoad((i) => http(`/v1/scripture/search?q=${q(i)}`), opts);
    const chromaAfter = await runLoad(raw(), opts);
    const testament = await runLoad((i) => http(`/v1/scripture/search?q=${q(i)}&testament=${i % 2 ? "Old" : "New"}%20Testament`), opts);
    const book = await runLoad((i) => http(`/v1/scripture/search?q=${q(i)}&book=${BOOKS[i % BOOKS.length]}`), opts);
    const chromaWhere = await runLoad(raw({ testament: "OT" }), { ...opts, requests: Math.min(n, 300) });
    const mean = (a: number, b: number) => (a + b) / 2;
    const chroma: LoadResult = { ...chromaBefore, p50: mean(chromaBefore.p50, chromaAfter.p50), p99: mean(chromaBefore.p99, chromaAfter.p99) };
    lines.push(
      `\nconcurrency ${concurrency} (${n} requests each; ms)`,
      `| ${"measurement".padEnd(40)} |    p50 |    p99 |   rps | errors |`,
      `|${"-".repeat(42)}|--------|--------|-------|--------|`,
      row("GET /healthz (HTTP floor)", healthz),
      row("raw Chroma query, 64 nn, before search", chromaBefore),
      row("raw Chroma query, 64 nn, after search", chromaAfter),
      row("vector floor (mean of the two)", chroma),
      row("raw Chroma query + where testament", chromaWhere, chroma),
      row("search unfiltered", unfiltered, chroma),
      row("search testament filter", testament, chroma),
      row("search book filter", book, chroma),
    );
  }
  console.log(lines.join("\n"));
  if (ingestMs !== undefined) console.log(`\nfirst ingest (fresh DATA_DIR, LSA train + embed + Chroma add): ${(ingestMs / 1000).toFixed(1)} s`);
  console.log(`warm start-to-ready (load 3 Bibles, start embedded Chroma, validate index, load vectors): ${(warmMs / 1000).toFixed(2)} s`);
  console.log(`passages ${index.passages.length}, embedder ${index.embedder.id}`);
  await srv.close();
  await svc.stop();
}

main().catch((err: Error) => {
  console.error(err);
  process.exitCode = 1;
});
