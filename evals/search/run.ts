/**
 * Search quality: recall@5, hit@5 and MRR@10 per query set, for the hybrid search (through
 * ScriptureSearch, on the real Chroma index), a plain BM25 baseline over whole chapters and a floor
 * (always the same ten chapters: the set's most common targets, so a fixed list is not mistaken for
 * understanding), all computed in the same run.
 *
 * Sets: `queries.jsonl` (stories, passages, doctrines; its own dev/held-out split by the `split` field)
 * and the everyday questions (`everyday-dev.jsonl`, tuned on; `everyday-heldout.jsonl`, a separate
 * file never tuned on; both built from everyday.src.txt). Held-out figures are the honest ones.
 * The blind everyday set (`everyday-blind-dev.jsonl`, `everyday-blind-heldout.jsonl`, built from
 * everyday-blind.src.txt): written by another engineer before reading the concept table, measured whole
 * once before tuning; only its dev half's misses are printed and tuned on.
 * The care set (`care-dev.jsonl`, `care-heldout.jsonl`, built from care.src.txt; issue 19): messages from
 * people in distress, each with fitting chapters (`targets`) and harmful ones (`harmful`); besides the
 * usual figures it prints harm@3, the share of questions with a harmful chapter in the top 3.
 *
 * The typed set (`typed-dev.jsonl`, `typed-heldout.jsonl`, built from typed.src.txt; issue 27): short
 * searches as people type them (topics, remembered verse fragments in KJV and modern wording, names,
 * Spanish), written before issue 27 changed the ranking; only its dev half's misses are printed.
 * The topics set (`topics-dev.jsonl`, `topics-heldout.jsonl`, built from topics.src.txt; session 8): one- to
 * three-word topic searches the concept table did not cover then, half asked as "What does the Bible say
 * about X?"; only its dev half's misses are printed and tuned on. The blind topic set 2 (`topics2-*.jsonl`,
 * from topics2.src.txt; session 17): the same kind, written by a helper who had not read the concept table,
 * the titles or any set; its held-out half judges the table.
 * Nave's topics (data/study/naves.json.gz; never used by the ranking, so it can judge it): every topic
 * with at least 20 references, its name as the query, the chapters it cites as targets (recall@5 is
 * the share of the top 5 that Nave cites, as five results cannot hold more).
 *
 * Run: npm run eval:search [-- --misses] [-- --dump ranks.json]   (uses DATA_DIR's index, ingesting it first if needed)
 */
import { writeFileSync } from "node:fs";
import { loadConfig } from "../../src/config.js";
import { BOOKS, chapterCount } from "../../src/scripture/books.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { Bm25Index } from "../../src/scripture/search/bm25.js";
import { startSearchService } from "../../src/scripture/search/service.js";
import { matchConcepts } from "../../src/scripture/search/concepts.js";
import { tokenize } from "../../src/scripture/search/tokenizer.js";
import { floorRanking, formatRow, scoreRun } from "./metrics.js";
import { type EvalQuery, loadSet, navesSet } from "./sets.js";

const load = loadSet;

const stories = load("queries.jsonl");
const everydayDev = load("everyday-dev.jsonl");
const everydayHeld = load("everyday-heldout.jsonl");
const blindDev = load("everyday-blind-dev.jsonl");
const blindHeld = load("everyday-blind-heldout.jsonl");
const blind = [...blindDev, ...blindHeld];
const careDev = load("care-dev.jsonl");
const careHeld = load("care-heldout.jsonl");
const typedDev = load("typed-dev.jsonl");
const typedHeld = load("typed-heldout.jsonl");
const topicsDev = load("topics-dev.jsonl");
const topicsHeld = load("topics-heldout.jsonl");
const topics2Dev = load("topics2-dev.jsonl");
const topics2Held = load("topics2-heldout.jsonl");

const naves = navesSet();

/** A set, then its English and its Spanish questions as sets of their own. */
const byLanguage = (name: string, qs: EvalQuery[]): [string, EvalQuery[]][] => [
  [name, qs],
  [`${name} en`, qs.filter((q) => q.lang === "en")],
  [`${name} es`, qs.filter((q) => q.lang === "es")],
];

/** A set, then its questions as typed and those asked as "What does the Bible say about ...?". */
const byPhrasing = (name: string, qs: EvalQuery[]): [string, EvalQuery[]][] => [
  [name, qs],
  [`${name} typed`, qs.filter((q) => !q.query.startsWith("What does"))],
  [`${name} asked`, qs.filter((q) => q.query.startsWith("What does"))],
];

/** A topic set's searches today's concept table names, and the rest (the set was written before most of the table). */
const byNaming = (name: string, qs: EvalQuery[]): [string, EvalQuery[]][] => [
  [`${name} named by the table`, qs.filter((q) => matchConcepts(q.query).length > 0)],
  [`${name} not named`, qs.filter((q) => matchConcepts(q.query).length === 0)],
];

const SETS: [string, EvalQuery[]][] = [
  ["stories+passages dev", stories.filter((q) => q.split === "dev")],
  ["stories+passages held-out", stories.filter((q) => q.split === "heldout")],
  ["stories+passages all", stories],
  ...byLanguage("everyday dev", everydayDev),
  ...byLanguage("everyday held-out", everydayHeld),
  ...byLanguage("blind all", blind),
  ...byLanguage("blind dev", blindDev),
  ...byLanguage("blind held-out", blindHeld),
  ...byLanguage("care dev", careDev),
  ...byLanguage("care held-out", careHeld),
  ...byLanguage("typed dev", typedDev),
  ...byLanguage("typed held-out", typedHeld),
  ...byPhrasing("topics dev", topicsDev),
  ...byPhrasing("topics held-out", topicsHeld),
  ...byNaming("topics held-out", topicsHeld),
  ...byPhrasing("topics2 dev", topics2Dev),
  ...byPhrasing("topics2 held-out", topics2Held),
  ...byNaming("topics2 held-out", topics2Held),
  ["Nave's topics (>= 20 refs)", naves],
];

async function main() {
  const config = loadConfig();
  // Every translation the service holds: the phrase match reads the KJV, the name alignment the RV1909.
  const library = loadBibleLibrary();
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
    const ours = new Map<EvalQuery, string[]>();
    const sims = new Map<EvalQuery, number[]>();
    const low = new Map<EvalQuery, boolean>();
    const base = new Map<EvalQuery, string[]>();
    for (const q of [...stories, ...everydayDev, ...everydayHeld, ...blind, ...careDev, ...careHeld, ...typedDev, ...typedHeld, ...topicsDev, ...topicsHeld, ...topics2Dev, ...topics2Held, ...naves]) {
      const { results, lowConfidence } = await service.search.search({ query: q.query, bibleId: "eng-web", limit: 10 });
      low.set(q, lowConfidence);
      ours.set(q, results.map((r) => `${r.book_id} ${r.chapter}`));
      sims.set(q, results.map((r) => r.similarity));
      const s = baseline.scores(tokenize(q.query));
      base.set(q, [...s.keys()].filter((i) => s[i]! > 0).sort((a, b) => s[b]! - s[a]!).slice(0, 10).map((i) => keys[i]!));
    }
    console.log(`index: ${index.passages.length} passages, embedder ${index.embedder.id}, collection ${index.manifest.collection}\n`);
    for (const [name, set] of SETS) {
      const floor = floorRanking(set.map((q) => q.targets));
      console.log(formatRow(`${name}: hybrid search`, scoreRun(set.map((q) => ({ ranked: ours.get(q)!, targets: q.targets })))));
      console.log(formatRow(`${name}: BM25 chapters`, scoreRun(set.map((q) => ({ ranked: base.get(q)!, targets: q.targets })))));
      console.log(formatRow(`${name}: floor (fixed top 10)`, scoreRun(set.map((q) => ({ ranked: floor, targets: q.targets })))));
      if (set.some((q) => q.harmful)) {
        const harmed = set.filter((q) => ours.get(q)!.slice(0, 3).some((x) => q.harmful!.includes(x))).length;
        console.log(`${`${name}: harm@3`.padEnd(34)} n=${String(set.length).padStart(3)}  harmful chapter in the top 3: ${harmed} (${(harmed / Math.max(1, set.length)).toFixed(3)})`);
      }
      const flagged = set.filter((q) => low.get(q));
      const hitShare = (qs: EvalQuery[]) => (qs.filter((q) => ours.get(q)!.slice(0, 5).some((x) => q.targets.includes(x))).length / Math.max(1, qs.length)).toFixed(3);
      console.log(`${`${name}: low confidence`.padEnd(34)} n=${String(flagged.length).padStart(3)}  hit@5 when flagged ${hitShare(flagged)}, when not ${hitShare(set.filter((q) => !low.get(q)))}`);
      console.log(formatRow(`${name}: empty result lists`, { recall5: 0, hit5: 0, mrr10: 0, ndcg10: 0, n: set.filter((q) => ours.get(q)!.length === 0).length }).replace(/ +recall.*/, ""));
    }
    const dump = process.argv.indexOf("--dump");
    if (dump > 0) writeFileSync(process.argv[dump + 1]!, JSON.stringify([...ours].map(([q, r]) => ({ query: q.query, targets: q.targets, ranked: r, similarity: sims.get(q), lowConfidence: low.get(q) }))));
    if (process.argv.includes("--misses")) {
      for (const [label, set] of [["stories+passages", stories.filter((q) => q.split === "dev")], ["everyday dev", everydayDev], ["blind dev", blindDev], ["care dev", careDev], ["typed dev", typedDev], ["topics dev", topicsDev], ["topics2 dev", topics2Dev]] as const) {
        const misses = set.filter((q) => !ours.get(q)!.slice(0, 5).some((x) => q.targets.includes(x)) || ours.get(q)!.slice(0, 3).some((x) => q.harmful?.includes(x)));
        console.log(`\n${label} misses at 5${set === careDev ? " or harmed at 3" : ""} (${misses.length}; held-out misses are not printed):`);
        for (const m of misses) console.log(`  ${m.query} -> ${ours.get(m)!.slice(0, 5).join(", ")} (want ${m.targets.join(", ")})${m.harmful ? `; harmful in top 3: ${ours.get(m)!.slice(0, 3).filter((x) => m.harmful!.includes(x)).join(", ") || "none"}` : ""}`);
      }
    }
  } finally {
    await service.stop();
  }
}

main().catch((err: Error) => {
  console.error(err);
  process.exitCode = 1;
});
