/**
 * Search quality: recall@5, hit@5 and MRR@10 of the hybrid search (through ScriptureSearch, on the
 * real Chroma index) against a plain BM25 baseline over whole chapters computed in the same run.
 * The held-out split was not looked at while tuning; read it as the honest figure.
 *
 * Run: npm run eval:search   (uses DATA_DIR's index, ingesting it first if needed)
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../src/config.js";
import { BOOKS, chapterCount } from "../../src/scripture/books.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { Bm25Index } from "../../src/scripture/search/bm25.js";
import { startSearchService } from "../../src/scripture/search/service.js";
import { tokenize } from "../../src/scripture/search/tokenizer.js";
import { formatRow, scoreRun } from "./metrics.js";

interface EvalQuery {
  id: number;
  query: string;
  targets: string[];
  split: "dev" | "heldout";
  lang: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const queries: EvalQuery[] = readFileSync(join(here, "queries.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as EvalQuery);

async function main() {
  const config = loadConfig();
  const library = loadBibleLibrary({ ids: ["eng-web"] });
  const web = library.get("eng-web")!;
  const quiet = { info() {}, warn: (o: object, m?: string) => console.warn(m, o), error: (o: object, m?: string) => console.error(m, o) };
  const service = startSearchService({ dataDir: config.dataDir, chromaUrl: config.chromaUrl, embeddings: config.embeddings, library, logger: quiet });
  try {
    const index = await service.indexed;
    const keys: string[] = [];
    const docs: string[][] = [];
    for (const b of BOOKS) {
      for (let c = 1; c <= chapterCount(b); c++) {
        const ch = web.chapter(b.id, c);
        if (!ch) continue;
        keys.push(`${b.id} ${c}`);
        docs.push(tokenize(ch.verses.map((v) => v.text).join(" ")));
      }
    }
    const baseline = new Bm25Index(docs);
    const rows: { q: EvalQuery; ours: string[]; base: string[] }[] = [];
    for (const q of queries) {
      const { results } = await service.search.search({ query: q.query, bibleId: "eng-web", limit: 10 });
      const s = baseline.scores(tokenize(q.query));
      const base = [...s.keys()].filter((i) => s[i]! > 0).sort((a, b) => s[b]! - s[a]!).slice(0, 10).map((i) => keys[i]!);
      rows.push({ q, ours: results.map((r) => `${r.book_id} ${r.chapter}`), base });
    }
    console.log(`index: ${index.passages.length} passages, embedder ${index.embedder.id}, collection ${index.manifest.collection}\n`);
    for (const [name, pick] of [
      ["dev", (q: EvalQuery) => q.split === "dev"],
      ["held-out", (q: EvalQuery) => q.split === "heldout"],
      ["all", () => true],
    ] as const) {
      const sel = rows.filter((r) => pick(r.q));
      console.log(formatRow(`${name}: hybrid search`, scoreRun(sel.map((r) => ({ ranked: r.ours, targets: r.q.targets })))));
      console.log(formatRow(`${name}: BM25 chapter baseline`, scoreRun(sel.map((r) => ({ ranked: r.base, targets: r.q.targets })))));
    }
    const misses = rows.filter((r) => !r.ours.slice(0, 5).some((x) => r.q.targets.includes(x)));
    if (misses.length > 0) console.log(`\nmisses at 5 (${misses.length}):`);
    for (const m of misses) console.log(`  [${m.q.split}] ${m.q.query} -> ${m.ours.slice(0, 5).join(", ")} (want ${m.q.targets.join(", ")})`);
  } finally {
    await service.stop();
  }
}

main().catch((err: Error) => {
  console.error(err);
  process.exitCode = 1;
});
