/**
 * Fusion sweeps on the dev halves only: every variant ranks every dev set in one process (one index load),
 * so a sweep of several weights takes seconds a variant rather than a full `eval:search` run each. The
 * held-out halves are never read here; `npm run eval:search` prints them once a choice is made.
 *
 * Sets: topics dev (and its typed / asked halves), typed dev, stories+passages dev, everyday dev, blind
 * dev, care dev (with harm@3) and Nave's topics at even positions (Nave's never feeds the ranking).
 * Printed per set: hit@5 / nDCG@10 (care: harmful chapters in the top 3; Nave's: recall@5 as well).
 *
 * Run: npm run eval:tune -- '[{}, {"shortPrior": 0.8}, {"keyword": 0.65}]'   (fields of DEFAULT_FUSION, ranker.ts)
 * Only the ranking follows a variant: the low-confidence threshold stays the one computed from the default.
 */
import { loadConfig } from "../../src/config.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { DEFAULT_FUSION } from "../../src/scripture/search/ranker.js";
import { startSearchService } from "../../src/scripture/search/service.js";
import { scoreRun } from "./metrics.js";
import { fusionOf, parseVariants } from "./variants.js";
import { type EvalQuery, loadSet, navesSet } from "./sets.js";

const load = loadSet;
const naves = navesSet();
const topics = load("topics-dev.jsonl");
const asked = (q: EvalQuery) => q.query.startsWith("What does");
const SETS: [string, EvalQuery[]][] = [
  ["topics", topics],
  ["topics typed", topics.filter((q) => !asked(q))],
  ["topics asked", topics.filter(asked)],
  ["typed", load("typed-dev.jsonl")],
  ["stories", load("queries.jsonl").filter((q) => q.split === "dev")],
  ["everyday", load("everyday-dev.jsonl")],
  ["blind", load("everyday-blind-dev.jsonl")],
  ["care", load("care-dev.jsonl")],
  ["Nave's even", naves.filter((_, i) => i % 2 === 0)],
];

async function main() {
  const variants = parseVariants(process.argv[2] ?? "[{}]");
  const config = loadConfig();
  const quiet = { info() {}, warn: (o: object, m?: string) => console.warn(m, o), error: (o: object, m?: string) => console.error(m, o) };
  const service = startSearchService({ dataDir: config.dataDir, chromaUrl: config.chromaUrl, embeddings: config.embeddings, library: loadBibleLibrary(), logger: quiet });
  const base = { ...DEFAULT_FUSION };
  try {
    await service.indexed;
    await service.search.phrasesReady;
    for (const variant of variants) {
      // The search reads DEFAULT_FUSION on every request; the default is put back after the sweep.
      Object.assign(DEFAULT_FUSION, fusionOf(variant, base));
      const cells: string[] = [];
      for (const [name, set] of SETS) {
        const runs: { ranked: string[]; targets: string[] }[] = [];
        let harmed = 0;
        for (const q of set) {
          const { results } = await service.search.search({ query: q.query, bibleId: "eng-web", limit: 10 });
          const ranked = results.map((r) => `${r.book_id} ${r.chapter}`);
          if (q.harmful && ranked.slice(0, 3).some((c) => q.harmful!.includes(c))) harmed++;
          runs.push({ ranked, targets: q.targets });
        }
        const s = scoreRun(runs);
        const extra = set.some((q) => q.harmful) ? ` harm@3 ${harmed}` : name.startsWith("Nave") ? ` recall@5 ${s.recall5.toFixed(3)}` : "";
        cells.push(`${name} ${s.hit5.toFixed(3)}/${s.ndcg10.toFixed(3)}${extra}`);
      }
      console.log(`${JSON.stringify(variant)}\n  ${cells.join("  ")}`);
    }
  } finally {
    Object.assign(DEFAULT_FUSION, base);
    await service.stop();
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exitCode = 1;
});
