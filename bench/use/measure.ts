/**
 * Issue 27, "Meaning, offline": the Universal Sentence Encoder lite against (and beside) LSA, on the eval
 * sets of evals/search/run.ts and Nave's topics, through the real ScriptureSearch (real Chroma index).
 *
 *   (a) lsa      the service as it is (LSA-hybrid)
 *   (b) use      USE alone: chapters by their best window's cosine with the query (66 books)
 *   (c) mix      the service's fusion with its dense candidates = LSA's 64 (Chroma) + USE's 64 (exact, in
 *                memory), each scored alpha x LSA cosine + (1 - alpha) x scale x USE cosine
 *
 * Steps (docs/search.md, "Neural sentence embeddings"): install the scratch packages (bench/use/README.md),
 * embed the windows once (bench/use/embed-windows.ts -> /tmp/i27-use), then
 *   DATA_DIR=/tmp/i27-data node --import tsx bench/use/measure.ts sweep     # dev halves only
 *   DATA_DIR=/tmp/i27-data node --import tsx bench/use/measure.ts final 'a=0,s=0.6,kw=0.5;a=0.6,s=0,kw=0.5'
 * Tuning reads the dev halves only (Nave's topics are split by position: even dev, odd held-out);
 * `final` prints held-out too, for (a), (b) and the chosen (c).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { loadavg } from "node:os";
import { loadConfig } from "../../src/config.js";
import { bookById } from "../../src/scripture/books.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { startSearchService } from "../../src/scripture/search/service.js";
import { DEFAULT_FUSION, type DenseHit, type PassageRanker } from "../../src/scripture/search/ranker.js";
import { glossNames, loadNames } from "../../src/scripture/search/names.js";
import { glossSpanish, looksSpanish } from "../../src/scripture/search/spanish.js";
import { scoreRun, type Scores } from "../../evals/search/metrics.js";
// @ts-expect-error plain JS scratch module
import { loadUse } from "./use-model.mjs";

interface Q { query: string; targets: string[]; split?: string; lang?: string; harmful?: string[] }
const load = (f: string): Q[] => readFileSync(`evals/search/${f}`, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Q);
const stories = load("queries.jsonl");
const naves: Q[] = (JSON.parse(gunzipSync(readFileSync("data/study/naves.json.gz")).toString("utf8")) as { name: string; refs: [string, number][] }[])
  .filter((r) => r.refs.length >= 20)
  .map((r) => ({ query: r.name.toLowerCase(), targets: [...new Set(r.refs.flatMap(([ref]) => /^([1-3A-Z]{3})(\d+)/.exec(ref)?.slice(1, 3).join(" ") ?? []))] }));
const DEV: [string, Q[]][] = [
  ["typed dev", load("typed-dev.jsonl")],
  ["Nave's even", naves.filter((_, i) => i % 2 === 0)],
  ["stories dev", stories.filter((q) => q.split === "dev")],
  ["everyday dev", load("everyday-dev.jsonl")],
  ["blind dev", load("everyday-blind-dev.jsonl")],
  ["care dev", load("care-dev.jsonl")],
];
const HELD: [string, Q[]][] = [
  ["typed held-out", load("typed-heldout.jsonl")],
  ["Nave's odd", naves.filter((_, i) => i % 2 === 1)],
  ["stories held-out", stories.filter((q) => q.split === "heldout")],
  ["everyday held-out", load("everyday-heldout.jsonl")],
  ["blind held-out", load("everyday-blind-heldout.jsonl")],
  ["care held-out", load("care-heldout.jsonl")],
];
const EXAMPLES = ["unkind words", "travel", "a tenth", "talking about people", "the battle is the lords", "i can do all things", "be still"];

const mode = process.argv[2] ?? "sweep";
const la = () => loadavg().map((x) => x.toFixed(2)).join(" ");
console.log(`${new Date().toISOString()} load average ${la()}`);

const library = loadBibleLibrary();
const config = loadConfig();
const quiet = { info() {}, warn: (o: object, m?: string) => console.warn(m, o), error: (o: object, m?: string) => console.error(m, o) };
const service = startSearchService({ dataDir: config.dataDir, chromaUrl: config.chromaUrl, embeddings: config.embeddings, library, logger: quiet });
const index = await service.indexed;
await (service.search as unknown as { phrasesReady: Promise<void> }).phrasesReady;
const common = index.passages.findIndex((p) => bookById(p.book)?.canon === "deuterocanon");

// The USE vectors of the windows (bench/use/embed-windows.ts), checked against this index's windows.
const DIR = process.env.USE_DIR ?? "/tmp/i27-use";
const meta = JSON.parse(readFileSync(`${DIR}/windows.json`, "utf8")) as { ids: string[]; dim: number };
const done = (JSON.parse(readFileSync(`${DIR}/done.json`, "utf8")) as { done: number[] }).done;
for (let i = 0; i < common; i++) {
  if (meta.ids[i] !== index.passages[i]!.id) throw new Error(`window ${i}: ${meta.ids[i]} vs ${index.passages[i]!.id}`);
  if (!done[i] && !process.argv.includes("--partial")) throw new Error(`window ${i} not embedded yet (--partial: score it 0, to try the plumbing)`);
}
const buf = readFileSync(`${DIR}/vectors.f32`);
const useVec = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
const D = 512;

// Query vectors: what the person typed (a Spanish question as the service glosses it: names, then words).
const names = loadNames();
const useText = (q: string) => (looksSpanish(q) ? glossSpanish(names ? glossNames(q, names) : q, true) : q);
const allQ = [...new Set([...DEV, ...HELD].flatMap(([, qs]) => qs.map((q) => q.query)).concat(EXAMPLES))];
const cachePath = `${DIR}/queries.json`;
const cache: Record<string, number[]> = existsSync(cachePath) ? JSON.parse(readFileSync(cachePath, "utf8")) : {};
const missing = allQ.filter((q) => !cache[useText(q)]);
if (missing.length > 0) {
  const use = await loadUse("purejs");
  const t = performance.now();
  for (let i = 0; i < missing.length; i += 16) {
    const texts = missing.slice(i, i + 16).map(useText);
    const out = (await use.embed(texts)) as Float32Array[];
    texts.forEach((x, k) => (cache[x] = Array.from(out[k]!)));
  }
  console.log(`embedded ${missing.length} queries in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  writeFileSync(cachePath, JSON.stringify(cache));
}
const qvec = (q: string) => Float32Array.from(cache[useText(q)]!);

// USE_VERSES=<dir of embed-windows.ts --verses>: a window's USE score is its best verse's cosine instead.
const VDIR = process.env.USE_VERSES;
let verseVec: Float32Array | undefined;
let windowVerses: Int32Array[] = [];
if (VDIR) {
  const vmeta = JSON.parse(readFileSync(`${VDIR}/windows.json`, "utf8")) as { ids: string[] };
  const vb = readFileSync(`${VDIR}/vectors.f32`);
  verseVec = new Float32Array(vb.buffer, vb.byteOffset, vb.byteLength / 4);
  const pos = new Map(vmeta.ids.map((id, i) => [id, i]));
  windowVerses = index.passages.slice(0, common).map((p) => {
    const out: number[] = [];
    for (let v = p.verseStart; v <= p.verseEnd; v++) {
      const j = pos.get(`${p.book}.${p.chapter}.${v}`);
      if (j !== undefined) out.push(j);
    }
    if (out.length === 0) throw new Error(`no verse vectors for ${p.id}`);
    return Int32Array.from(out);
  });
  console.log(`USE scores per window = best verse (${vmeta.ids.length} verse vectors)`);
}
const dot = (m: Float32Array, o: number, v: Float32Array) => {
  let d = 0;
  for (let k = 0; k < D; k++) d += m[o + k]! * v[k]!;
  return d;
};
function useScores(v: Float32Array): Float32Array {
  const s = new Float32Array(common);
  if (verseVec) {
    const cache = new Map<number, number>();
    for (let i = 0; i < common; i++) {
      let best = -2;
      for (const j of windowVerses[i]!) {
        let d = cache.get(j);
        if (d === undefined) cache.set(j, (d = dot(verseVec, j * D, v)));
        if (d > best) best = d;
      }
      s[i] = best;
    }
    return s;
  }
  for (let i = 0; i < common; i++) s[i] = dot(useVec, i * D, v);
  return s;
}
const topIdx = (s: Float32Array, k: number) => [...s.keys()].sort((a, b) => s[b]! - s[a]!).slice(0, k);

// (c): the ranker's dense candidates replaced by the blend; the LSA query vector is captured from the embedder.
interface Mix { alpha: number; scale: number; kw: number }
let mix: Mix | undefined;
let current: Float32Array | undefined;
let lsaQuery: Float32Array | undefined;
const embedQuery = index.embedder.embedQuery.bind(index.embedder);
index.embedder.embedQuery = async (text: string) => (lsaQuery = (await embedQuery(text)) ?? undefined) ?? null;
const ranker = index.ranker as PassageRanker;
const rank = ranker.rank.bind(ranker);
const LD = index.embedder.dim;
ranker.rank = (input, limit, fusion) => {
  if (!mix || !current || !input.dense || !lsaQuery) return rank(input, limit, fusion);
  const us = useScores(current);
  const cand = new Set<number>([...input.dense.map((h) => h.index), ...topIdx(us, 64)]);
  const dense: DenseHit[] = [];
  for (const i of cand) {
    let l = 0;
    for (let k = 0; k < LD; k++) l += index.vectors[i * LD + k]! * lsaQuery[k]!;
    const u = i < common ? us[i]! : 0;
    dense.push({ index: i, score: mix.alpha * l + (1 - mix.alpha) * mix.scale * u });
  }
  return rank({ ...input, dense }, limit, { ...(fusion ?? DEFAULT_FUSION), keyword: mix.kw });
};

async function runSet(qs: Q[], m: Mix | "lsa" | "use"): Promise<string[][]> {
  const out: string[][] = [];
  for (const q of qs) {
    current = qvec(q.query);
    if (m === "use") {
      const s = useScores(current);
      const best = new Map<string, number>();
      for (let i = 0; i < common; i++) {
        const key = `${index.passages[i]!.book} ${index.passages[i]!.chapter}`;
        if (s[i]! > (best.get(key) ?? -2)) best.set(key, s[i]!);
      }
      out.push([...best].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k]) => k));
      continue;
    }
    mix = m === "lsa" ? undefined : m;
    const { results } = await service.search.search({ query: q.query, bibleId: "eng-web", limit: 10 });
    out.push(results.map((r) => `${r.book_id} ${r.chapter}`));
  }
  mix = undefined;
  return out;
}

const f3 = (x: number) => x.toFixed(3);
function summary(qs: Q[], ranked: string[][]): { s: Scores; harm: number } {
  const s = scoreRun(qs.map((q, i) => ({ ranked: ranked[i]!, targets: q.targets })));
  const harm = qs.filter((q, i) => q.harmful && ranked[i]!.slice(0, 3).some((x) => q.harmful!.includes(x))).length;
  return { s, harm };
}
const cell = ({ s, harm }: { s: Scores; harm: number }, care: boolean) => `${f3(s.hit5)} / ${f3(s.recall5)} / ${f3(s.ndcg10)}${care ? ` (${harm})` : ""}`;

async function row(label: string, sets: [string, Q[]][], m: Mix | "lsa" | "use") {
  const t = performance.now();
  const cells: string[] = [];
  for (const [name, qs] of sets) cells.push(cell(summary(qs, await runSet(qs, m)), name.startsWith("care")));
  console.log(`| ${label} | ${cells.join(" | ")} |  (${((performance.now() - t) / 1000).toFixed(0)} s, load ${la()})`);
}

const parse = (s: string): Mix => Object.fromEntries(s.split(",").map((kv) => { const [k, v] = kv.split("="); return [k === "a" ? "alpha" : k === "s" ? "scale" : k, Number(v)]; })) as unknown as Mix;
const header = (sets: [string, Q[]][]) => console.log(`| variant | ${sets.map(([n, qs]) => `${n} (${qs.length})`).join(" | ")} |\n|---|${sets.map(() => "---").join("|")}|`);

try {
  console.log(`index ${index.passages.length} windows (${common} of the 66), embedder ${index.embedder.id}; hit@5 / recall@5 / nDCG@10 (harm@3)`);
  if (mode === "sweep") {
    header(DEV);
    await row("(a) LSA hybrid (service)", DEV, "lsa");
    await row("(b) USE alone", DEV, "use");
    const grid = (process.argv[3] ?? "a=1,s=1,kw=0.5;a=0.5,s=1,kw=0.5;a=0.5,s=1.5,kw=0.5;a=0.5,s=2,kw=0.5;a=0,s=1,kw=0.5;a=0,s=1.5,kw=0.5;a=0,s=2,kw=0.5;a=0.5,s=1.5,kw=0.4").split(";");
    for (const g of grid) await row(`(c) ${g}`, DEV, parse(g));
  } else if (mode === "final") {
    // The chosen (c) first, then any controls (e.g. the same dense weight on LSA, or no dense signal).
    const sets = [...DEV, ...HELD];
    header(sets);
    await row("(a) LSA hybrid (service)", sets, "lsa");
    await row("(b) USE alone", sets, "use");
    for (const g of process.argv[3]!.split(";")) await row(`(c) ${g}`, sets, parse(g));
  }
  if (mode === "examples" || mode === "final") {
    const chosen = process.argv[3] ? parse(process.argv[3].split(";")[0]!) : { alpha: 0, scale: 0.6, kw: 0.5 };
    for (const q of EXAMPLES) {
      const qq = [{ query: q, targets: [] }];
      const [a] = await runSet(qq, "lsa");
      const [b] = await runSet(qq, "use");
      const [c] = await runSet(qq, chosen);
      console.log(`"${q}": (a) ${a!.slice(0, 5).join(", ")} | (b) ${b!.slice(0, 5).join(", ")} | (c) ${c!.slice(0, 5).join(", ")}`);
    }
  }
} finally {
  await service.stop();
  console.log(`${new Date().toISOString()} load average ${la()}`);
}
