/**
 * The learned distress reader measured beside the rules (docs/care.md, "A learned reader"): recall and
 * false alarms, rules alone against rules OR model at the shipped threshold and a stricter and a looser
 * one, on the sets' held-out halves and the probes never trained on (and the dev halves, for reference:
 * the model was trained on those); verses pasted as the whole message; the time per message.
 *
 *   npm run eval:care-model
 *   npm run eval:care-model -- --verses    also every verse of WEB, KJV and RV1909 (slower)
 *
 * Figures only: no held-out or untuned message is printed.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadavg } from "node:os";
import { distressModel } from "../../graphs/chat/distress/model.js";
import { distressModelProbability, isDistressByRules, isLastGoodbye } from "../../graphs/chat/distress/rules.js";
import { VERSE_FILES, verses as versesOf } from "./train-data.js";

/** The rules alone; isDistress is the rules OR the reader at the shipped threshold (the middle column). */

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const lines = (path: string) => readFileSync(path, "utf8").split("\n").filter((l) => l.trim() && !l.startsWith("#"));
/** Each case: the user's turns. */
const tsv = (f: string) => lines(join(here, f)).map((l) => (l.split("\t")[1] ?? "").split(" || ").map((t) => t.trim()));
const probe = (f: string) => lines(join(here, "probes", f)).map((l) => [l.trim()]);

const shipped = distressModel().threshold;
const THRESHOLDS = (process.env.THRESHOLDS?.split(",").map(Number) ?? [Math.min(0.99, shipped + 0.08), shipped, Math.max(0.01, shipped - 0.12)]).map((t) => Number(t.toFixed(3)));

/** Conversation-level verdict (needsCare): a first-message goodbye, or any turn read as distress. */
function care(turns: string[], t: number | undefined): boolean {
  if (turns.length === 1 && isLastGoodbye(turns[0]!)) return true;
  return turns.some((m) => isDistressByRules(m) || (t !== undefined && distressModelProbability(m) >= t));
}
function last(turns: string[], t: number | undefined): boolean {
  const m = turns.at(-1)!;
  return isDistressByRules(m) || (t !== undefined && distressModelProbability(m) >= t);
}

const BATCHES: { name: string; distress: string[][]; ordinary: string[][] }[] = [
  { name: "set 1 held-out", distress: tsv("distress-heldout.tsv"), ordinary: tsv("ordinary-heldout.tsv") },
  { name: "set 2 held-out", distress: tsv("distress2-heldout.tsv"), ordinary: tsv("ordinary2-heldout.tsv") },
  { name: "untuned-en probes", distress: probe("untuned-en.txt"), ordinary: probe("untuned-en-ordinary.txt") },
  { name: "untuned-es probes", distress: probe("untuned-es.txt"), ordinary: probe("untuned-es-ordinary.txt") },
  { name: "set 3 (held out entirely; look-alike ordinary messages)", distress: tsv("distress3-heldout.tsv"), ordinary: tsv("ordinary3-style-heldout.tsv") },
  { name: "set 5 (held out entirely; look-alike ordinary messages)", distress: tsv("distress5-heldout.tsv"), ordinary: tsv("ordinary5-heldout.tsv") },
  { name: "set 6 (held out entirely; look-alike ordinary messages)", distress: tsv("distress6-heldout.tsv"), ordinary: tsv("ordinary6-heldout.tsv") },
  { name: "set 3 ordinary statements, held-out", distress: [], ordinary: tsv("ordinary3-heldout.tsv") },
  { name: "set 3 ordinary statements, dev (trained on)", distress: [], ordinary: tsv("ordinary3-dev.tsv") },
  { name: "set 1 dev (trained on)", distress: tsv("distress-dev.tsv"), ordinary: tsv("ordinary-dev.tsv") },
  { name: "set 2 dev (trained on)", distress: tsv("distress2-dev.tsv"), ordinary: tsv("ordinary2-dev.tsv") },
];

const frac = (n: number, d: number) => `${n}/${d} (${Math.round((100 * n) / Math.max(1, d))}%)`;
const count = (cases: string[][], read: (c: string[]) => boolean) => cases.filter(read).length;

function figures() {
  console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}; shipped threshold ${shipped}; columns: rules alone, then rules OR model at ${THRESHOLDS.join(", ")}`);
  for (const b of BATCHES) {
    console.log(`\n== ${b.name} ==`);
    for (const [label, read] of b.distress.length === 0 ? [] : ([["needsCare (conversation)", care], ["isDistress (last message)", last]] as const)) {
      const cells = [undefined, ...THRESHOLDS].map((t) => frac(count(b.distress, (c) => read(c, t)), b.distress.length));
      console.log(`  distress read, ${label.padEnd(26)} ${cells.join("  |  ")}`);
    }
    const fa = [undefined, ...THRESHOLDS].map((t) => frac(count(b.ordinary, (c) => care(c, t)), b.ordinary.length));
    console.log(`  ordinary flagged (needsCare)              ${fa.join("  |  ")}`);
  }
  // The search sets' held-out ordinary questions (everyday questions the rules already call care left out of neither: all counted).
  const searchHeld = ["everyday-heldout.jsonl", "everyday-blind-heldout.jsonl", "topics-heldout.jsonl", "typed-heldout.jsonl"]
    .flatMap((f) => lines(join(root, "evals", "search", f)))
    .concat(lines(join(root, "evals", "search", "queries.jsonl")).filter((l) => (JSON.parse(l) as { split: string }).split === "heldout"))
    .map((l) => [(JSON.parse(l) as { query: string }).query]);
  const cells = [undefined, ...THRESHOLDS].map((t) => frac(count(searchHeld, (c) => care(c, t)), searchHeld.length));
  console.log(`\n== search sets' held-out questions (everyday life questions among them) ==\n  flagged (needsCare)  ${cells.join("  |  ")}`);
}

/** Every verse as the whole message; and the measuring half alone (the books never sampled for training, train-data.ts). */
function verses() {
  for (const file of VERSE_FILES) {
    for (const half of ["all", "measure"] as const) {
      const texts = versesOf(file, half);
      const rules = texts.filter((t) => isDistressByRules(t)).length;
      const cells = THRESHOLDS.map((t) => texts.filter((v) => isDistressByRules(v) || distressModelProbability(v) >= t).length);
      console.log(`${file} (${half === "all" ? "all books" : "measuring half"}): ${texts.length} verses; read as distress: rules ${rules}; rules OR model ${cells.map((c, i) => `${c} (t=${THRESHOLDS[i]})`).join(", ")}`);
    }
  }
}

/**
 * Every string literal of the care unit tests (test/graph/distress-rules.test.ts, preflight-rules.test.ts)
 * the rules leave quiet but the model would read as distress at each threshold: the quiet messages among them
 * are the ones those tests would fail on (they are printed: the tests are no held-out set).
 */
function unitTestStrings() {
  const texts = new Set<string>();
  for (const f of ["test/graph/distress-rules.test.ts", "test/graph/preflight-rules.test.ts"]) {
    for (const m of readFileSync(join(root, f), "utf8").matchAll(/"((?:[^"\\\n]|\\.)*)"/g)) texts.add(JSON.parse(`"${m[1]!}"`) as string);
  }
  const quiet = [...texts].filter((t) => !isDistressByRules(t));
  console.log(`\ncare unit tests: ${texts.size} string literals, ${quiet.length} the rules leave quiet; the model reads as distress:`);
  for (const t of THRESHOLDS) {
    const flagged = quiet.filter((q) => distressModelProbability(q) >= t);
    console.log(`  t=${t}: ${flagged.length}${flagged.length ? `: ${flagged.map((q) => JSON.stringify(q)).join(", ")}` : ""}`);
  }
}

function timing() {
  const short = "What does Romans 8:28 mean when life is hard and I feel lost?";
  const long = "In the beginning God created the heavens and the earth. ".repeat(357).slice(0, 20_000);
  const rulesOnly = (text: string, runs: number) => {
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) isDistressByRules(`${text} ${i} x`); // a fresh text each run: the readings are kept for recent texts
    return (performance.now() - t0) / runs;
  };
  const model = (text: string, runs: number) => {
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) distressModelProbability(`${text} ${i} y`);
    return (performance.now() - t0) / runs;
  };
  console.log(`\ntime per message (load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}):`);
  rulesOnly(short, 200);
  model(short, 200);
  console.log(`  short question: rules ${rulesOnly(short, 2000).toFixed(3)} ms; model ${model(short, 2000).toFixed(3)} ms (its own reading of the text included)`);
  console.log(`  20,000 characters: rules ${rulesOnly(long, 20).toFixed(1)} ms; model ${model(long, 20).toFixed(1)} ms`);
}

figures();
unitTestStrings();
if (process.argv.includes("--verses")) verses();
timing();
