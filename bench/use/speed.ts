/**
 * Speed and memory of the Universal Sentence Encoder lite on this machine, per runtime:
 *   node --import tsx bench/use/speed.ts wasm|purejs|cpu
 * wasm = @tensorflow/tfjs-core + tfjs-converter + tfjs-backend-wasm 4.22 (one thread);
 * purejs = @energetic-ai/core 0.2.0 (RECIPES.md's path; it bundles TF.js with its own wasm backend);
 * cpu = @tensorflow/tfjs-backend-cpu 4.22 (plain JavaScript kernels).
 * Needs the scratch packages (bench/use/README.md). Prints load time, ms per query (p50/p90 of 40 typed
 * queries, one at a time), ms per 6-verse window (64 windows, batches of 1 and of 16), RSS.
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { corpusPassages } from "../../src/scripture/search/search-windows.js";
// @ts-expect-error plain JS scratch module
import { loadUse } from "./use-model.mjs";

const backend = process.argv[2] ?? "wasm";
const mb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const threads = () => /Threads:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];

const web = loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!;
const passages = corpusPassages(web);
const sample = passages.filter((_, i) => i % 150 === 7).slice(0, 64).map((p) => p.text);
const queries = readFileSync("evals/search/typed-dev.jsonl", "utf8").trim().split("\n").slice(0, 40).map((l) => (JSON.parse(l) as { query: string }).query);
const rss0 = mb();
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}; ${backend}; RSS before model ${rss0} MB`);
let t = performance.now();
const use = await loadUse(backend);
console.log(`load ${(performance.now() - t).toFixed(0)} ms; tf backend ${use.backend}; RSS ${mb()} MB; threads ${threads()}`);
await use.embed(["warm up"]);
const qt: number[] = [];
for (const q of queries) {
  t = performance.now();
  await use.embed([q]);
  qt.push(performance.now() - t);
}
console.log(`query: p50 ${pct(qt, 0.5).toFixed(1)} ms, p90 ${pct(qt, 0.9).toFixed(1)} ms, max ${Math.max(...qt).toFixed(1)} ms (${qt.length} queries)`);
const avgChars = sample.reduce((a, s) => a + s.length, 0) / sample.length;
t = performance.now();
for (const s of sample.slice(0, 16)) await use.embed([s]);
const one = (performance.now() - t) / 16;
t = performance.now();
for (let i = 0; i < sample.length; i += 16) await use.embed(sample.slice(i, i + 16));
const batch = (performance.now() - t) / sample.length;
console.log(`window (avg ${avgChars.toFixed(0)} chars): ${one.toFixed(1)} ms one at a time, ${batch.toFixed(1)} ms each in batches of 16; RSS ${mb()} MB; threads ${threads()}`);
console.log(`=> ${passages.length} windows ~ ${((batch * passages.length) / 60000).toFixed(1)} min on one core; load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
