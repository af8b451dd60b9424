/**
 * Search speed beside its floors, measured in one run over the eval queries (varied, so no cache
 * can stand in for the search): GET /healthz (HTTP floor) and a raw Chroma query on the same
 * collection with the same vectors, nResults and include as the service's query (vector-store floor),
 * sent two ways: through the chromadb client's collection.query (the official client; the floor this
 * bench has always used) and as a bare HTTP POST to Chroma's query endpoint over a kept-alive node:http
 * connection (Chroma's own time with the least client work: the transport the service itself uses
 * since it left the chromadb client's fetch). Search ratios are given against both. Also first
 * ingest (fresh temp DATA_DIR) and warm start-to-ready (DATA_DIR's index).
 *
 * Beside latency it prints what load on a shared machine does not distort: CPU per request of this
 * process (client and service together: they share it) and of the embedded Chroma process, and the
 * service's own Chroma call measured inside the search. At concurrency 1 the floor is also measured
 * interleaved with the search (floor query, search, floor query, ... in one loop), so both see the same
 * machine and the same Chroma at the same moments.
 *
 * Run: npm run bench:search [-- --skip-ingest] [-- --requests N]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import express from "express";
import { createApp } from "../src/app.js";
import { connectChroma } from "../src/chroma/connection.js";
import { loadConfig } from "../src/config.js";
import { searchRouter } from "../src/http/search/route.js";
import { createLogger } from "../src/logger.js";
import { loadBibleLibrary } from "../src/scripture/corpus.js";
import { startSearchService } from "../src/scripture/search/service.js";
import { listen } from "../test/helpers/listen.js";
import { evalQueries as readEvalQueries } from "./lib/eval-queries.js";
import { percentile, runLoad, type LoadResult } from "./lib/load-loop.js";

const arg = (name: string) => process.argv.indexOf(name);
const REQUESTS = arg("--requests") > 0 ? Number(process.argv[arg("--requests") + 1]) : 1000;
const quiet = { info() {}, warn() {}, error: (o: object, m?: string) => console.error(m, o) };
const progress = { ...quiet, info: (o: object, m?: string) => console.log(`  ${m} ${JSON.stringify(o)}`) };

// Every eval query (stories and passages, the everyday sets, the blind sets: ~560), so that at concurrency 1
// the requests are new texts, as a user's are, and caches keyed by the text (the reference parser's
// memo) cannot stand in for the work. Passage references ("John 3:16") are left out below: they never
// reach Chroma, and this bench is about the path that does.
const evalQueries: string[] = readEvalQueries();
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

/** A load result with the CPU it cost: this process (client + service) and the Chroma process, ms per request. */
type Measured = LoadResult & { cpu: number; chromaCpu?: number };

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** CPU seconds of a process so far (utime + stime from /proc), or undefined off Linux. */
function processCpu(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks (USER_HZ 100)
  } catch {
    return undefined;
  }
}

async function measured(chromaPid: number | undefined, run: () => Promise<LoadResult>): Promise<Measured> {
  const cpu0 = process.cpuUsage();
  const chroma0 = processCpu(chromaPid);
  const r = await run();
  const cpu = process.cpuUsage(cpu0);
  const chroma1 = processCpu(chromaPid);
  const n = r.n + Math.min(50, r.n); // runLoad's warm-up requests ran inside the window too
  return {
    ...r,
    cpu: (cpu.user + cpu.system) / 1000 / n,
    ...(chroma0 !== undefined && chroma1 !== undefined ? { chromaCpu: ((chroma1 - chroma0) * 1000) / n } : {}),
  };
}

function row(name: string, r: LoadResult & { cpu?: number; chromaCpu?: number }, floor?: LoadResult) {
  const ratio = floor ? `  p50 x${(r.p50 / floor.p50).toFixed(2)}  p99 x${(r.p99 / floor.p99).toFixed(2)}` : "";
  const cpu = r.cpu === undefined ? "      " : r.cpu.toFixed(2).padStart(6);
  const chroma = r.chromaCpu === undefined ? "      " : r.chromaCpu.toFixed(2).padStart(6);
  return `| ${name.padEnd(40)} | ${r.p50.toFixed(2).padStart(6)} | ${r.p99.toFixed(2).padStart(6)} | ${r.rps.toFixed(0).padStart(5)} | ${cpu} | ${chroma} | ${r.errors} |${ratio}`;
}

/**
 * Concurrency 1, floor and search alternating in one loop (a raw query, then a search, ...), each with
 * its own latencies: drift of the machine or of Chroma between two blocks minutes apart cannot favour
 * either. Only at concurrency 1: at 16 the two would queue behind each other's work in this process.
 */
async function interleaved(requests: number, calls: ((i: number) => Promise<boolean>)[]): Promise<LoadResult[]> {
  for (let i = 0; i < 50; i++) for (const call of calls) await call(i + 1_000_000);
  const lat: number[][] = calls.map(() => []);
  let errors = 0;
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    for (const [k, call] of calls.entries()) {
      const t = performance.now();
      if (!(await call(i).catch(() => false))) errors++;
      lat[k]!.push(performance.now() - t);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return lat.map((l): LoadResult => {
    l.sort((a, b) => a - b);
    return { n: l.length, p50: percentile(l, 50), p99: percentile(l, 99), mean: l.reduce((a, b) => a + b, 0) / l.length, errors, rps: l.length / seconds };
  });
}

// Bench only: answers with a search response recorded earlier in the run, through the same app and
// res.json, so "HTTP + a search-sized JSON body" is measured apart from the search itself.
let recorded: unknown[] = [];
const replayRouter = express.Router().get("/bench/replay", (req, res) => {
  res.json(recorded[Number(req.query.i) % recorded.length]);
});

async function main() {
  const config = loadConfig();
  const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");
  console.log(`load average at start: ${load()}`);
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
    routers: [searchRouter(svc.search, () => library.ids()), replayRouter],
  });
  const srv = await listen(app);
  const http = async (path: string) => {
    const res = await fetch(srv.url + path);
    await res.arrayBuffer();
    return res.ok;
  };
  // The floor queries Chroma with exactly the vectors the service sends for these queries (the question
  // with its Spanish gloss and concept words, as embedded by the service), caught on one pass through the search.
  const queries: string[] = [];
  const vectors: Float32Array[] = [];
  {
    const storeQuery = index.store.query.bind(index.store);
    let sent: Float32Array | undefined;
    index.store.query = (vector, n) => ((sent = Float32Array.from(vector)), storeQuery(vector, n));
    for (const text of evalQueries) {
      sent = undefined;
      await svc.search.search({ query: text, bibleId: "eng-web", limit: 5 });
      if (sent) queries.push(text), vectors.push(sent);
    }
    index.store.query = storeQuery;
  }
  const q = (i: number) => encodeURIComponent(queries[i % queries.length]!);
  for (let i = 0; i < 200; i++) recorded.push(await (await fetch(`${srv.url}/v1/scripture/search?q=${q(i)}`)).json());
  const chromaUrl = new URL(svc.embedded()?.url ?? config.chromaUrl!);
  const { ChromaClient } = await import("chromadb");
  const client = new ChromaClient({ host: chromaUrl.hostname, port: Number(chromaUrl.port), ssl: false });
  const collection = await client.getOrCreateCollection({ name: index.manifest.collection, embeddingFunction: null });
  const raw = (where?: Record<string, string>) => async (i: number) => {
    await collection.query({ queryEmbeddings: [Array.from(vectors[i % vectors.length]!)], nResults: 64, include: ["distances"], ...(where ? { where } : {}) });
    return true;
  };
  // The same query as a bare POST (the body collection.query sends), on a connection of its own.
  const bare = connectChroma(chromaUrl.origin);
  const queryPath = `/api/v2/tenants/${encodeURIComponent(collection.tenant)}/databases/${encodeURIComponent(collection.database)}/collections/${collection.id}/query`;
  const rawHttp = async (i: number) => {
    const res = (await bare.postJson(queryPath, `{"include":["distances"],"n_results":64,"query_embeddings":[${JSON.stringify(Array.from(vectors[i % vectors.length]!))}]}`)) as { ids: string[][] };
    return res.ids[0]!.length === 64;
  };
  // The service's own Chroma call, timed inside the search (same wrapper for every phase; read per phase).
  let inSearch: number[] = [];
  const storeQuery = index.store.query.bind(index.store);
  index.store.query = async (vector, n) => {
    const t = performance.now();
    try {
      return await storeQuery(vector, n);
    } finally {
      inSearch.push(performance.now() - t);
    }
  };
  const chromaPid = svc.embedded()?.pid();
  const restingRss = process.memoryUsage().rss;
  const search = (i: number) => http(`/v1/scripture/search?q=${q(i)}`);

  const lines: string[] = [];
  const header = [
    `| ${"measurement".padEnd(40)} |    p50 |    p99 |   rps | cpu/req | chroma cpu/req | errors |`,
    `|${"-".repeat(42)}|--------|--------|-------|--------|--------|--------|`,
  ];
  const inSearchRow = (name: string, lat: number[]) => {
    const sorted = [...lat].sort((a, b) => a - b);
    return `| ${name.padEnd(40)} | ${percentile(sorted, 50).toFixed(2).padStart(6)} | ${percentile(sorted, 99).toFixed(2).padStart(6)} |       |        |        |   |`;
  };
  for (const concurrency of [1, 16]) {
    const n = concurrency === 1 ? REQUESTS : REQUESTS * 2;
    const opts = { requests: n, concurrency };
    const healthz = await measured(chromaPid, () => runLoad(() => http("/healthz"), opts));
    const replay = await measured(chromaPid, () => runLoad((i) => http(`/bench/replay?i=${i}`), opts));
    // The vector floor drifts by a third between minutes on this shared machine, so it is measured just
    // before and just after the unfiltered search and ratios use the mean of the two; the costly `where`
    // reference runs last so its load does not precede the searches.
    const chromaBefore = await measured(chromaPid, () => runLoad(raw(), opts));
    const httpBefore = await measured(chromaPid, () => runLoad(rawHttp, opts));
    inSearch = [];
    const unfiltered = await measured(chromaPid, () => runLoad(search, opts));
    const unfilteredChroma = inSearch;
    const httpAfter = await measured(chromaPid, () => runLoad(rawHttp, opts));
    const chromaAfter = await measured(chromaPid, () => runLoad(raw(), opts));
    const testament = await measured(chromaPid, () => runLoad((i) => http(`/v1/scripture/search?q=${q(i)}&testament=${i % 2 ? "Old" : "New"}%20Testament`), opts));
    const book = await measured(chromaPid, () => runLoad((i) => http(`/v1/scripture/search?q=${q(i)}&book=${BOOKS[i % BOOKS.length]}`), opts));
    const chromaWhere = await measured(chromaPid, () => runLoad(raw({ testament: "OT" }), { ...opts, requests: Math.min(n, 300) }));
    const mean = (a: number, b: number) => (a + b) / 2;
    const both = (before: Measured, after: Measured): Measured => ({
      ...before,
      p50: mean(before.p50, after.p50),
      p99: mean(before.p99, after.p99),
      cpu: mean(before.cpu, after.cpu),
      ...(before.chromaCpu !== undefined && after.chromaCpu !== undefined ? { chromaCpu: mean(before.chromaCpu, after.chromaCpu) } : {}),
    });
    const chroma = both(chromaBefore, chromaAfter);
    const chromaHttp = both(httpBefore, httpAfter);
    lines.push(
      `\nconcurrency ${concurrency} (${n} requests each; ms; cpu/req = this process, client and service together)`,
      ...header,
      row("GET /healthz (HTTP floor)", healthz),
      row("GET a recorded search response (HTTP+JSON)", replay),
      row("raw Chroma query, 64 nn, before search", chromaBefore),
      row("raw Chroma query, 64 nn, after search", chromaAfter),
      row("vector floor (mean of the two)", chroma),
      row("bare HTTP Chroma query, before search", httpBefore),
      row("bare HTTP Chroma query, after search", httpAfter),
      row("bare HTTP floor (mean of the two)", chromaHttp),
      row("raw Chroma query + where testament", chromaWhere, chroma),
      row("search unfiltered", unfiltered, chroma),
      row("search unfiltered vs bare HTTP floor", unfiltered, chromaHttp),
      inSearchRow("  its own Chroma query, inside the search", unfilteredChroma),
      row("search testament filter", testament, chroma),
      row("search book filter", book, chroma),
    );
    if (concurrency === 1) {
      inSearch = [];
      const [floorI, httpI, searchI] = await interleaved(n, [raw(), rawHttp, search]);
      lines.push(
        `\nconcurrency 1, floors and search interleaved (${n} of each in one loop; ms)`,
        ...header,
        row("vector floor (chromadb client), interl.", floorI!),
        row("bare HTTP floor, interleaved", httpI!),
        row("search unfiltered, interleaved", searchI!, floorI),
        row("search unfiltered vs bare HTTP floor", searchI!, httpI),
        inSearchRow("  its own Chroma query, inside the search", inSearch),
      );
    }
  }
  console.log(lines.join("\n"));
  if (ingestMs !== undefined) console.log(`\nfirst ingest (fresh DATA_DIR, LSA train + embed + Chroma add): ${(ingestMs / 1000).toFixed(1)} s`);
  console.log(`warm start-to-ready (load 3 Bibles, start embedded Chroma, validate index, load vectors): ${(warmMs / 1000).toFixed(2)} s`);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const chromaMem = (field: string) => {
    const m = chromaPid === undefined ? null : /^(?:VmRSS|VmHWM):\s+(\d+) kB/m.exec(readFileSafe(`/proc/${chromaPid}/status`).split("\n").filter((l) => l.startsWith(field)).join("\n"));
    return m ? mb(Number(m[1]) * 1024) : "n/a";
  };
  console.log(
    `RSS of this process (service + bench client; an upper bound of the service's): ${mb(restingRss)} after warm start and the eval pass, ${mb(process.memoryUsage().rss)} at end, peak ${mb(process.resourceUsage().maxRSS * 1024)}; embedded Chroma process: ${chromaMem("VmRSS")} now, peak ${chromaMem("VmHWM")}`,
  );
  console.log(`passages ${index.passages.length}, embedder ${index.embedder.id}, ${queries.length} distinct eval queries cycled (${evalQueries.length - queries.length} passage references left out)`);
  console.log(`load average at end: ${load()}`);
  bare.close();
  await srv.close();
  await svc.stop();
}

main().catch((err: Error) => {
  console.error(err);
  process.exitCode = 1;
});
