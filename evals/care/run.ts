/**
 * The care blind set (evals/care/*.tsv, README.md): how many distress messages the rules read and how
 * many ordinary Bible questions they flag, called directly (isDistress on the last message, needsCare
 * over the conversation) and end to end with the model provider down, where only the rules can judge:
 * a distress message should get the canned crisis reply, an ordinary question the provider's error.
 *
 * Three sets: set 1 (`distress-*`, `ordinary-*`) and set 2 (`distress2-*`, `ordinary2-*`, written as an
 * outside reviewer before reading the rules), each with a dev and a held-out split; set 3 (README.md):
 * ordinary statements (`ordinary3-dev`, `ordinary3-heldout`), and a blind distress set held out entirely
 * (`distress3-heldout`) with its look-alike ordinary messages (`ordinary3-style-heldout`); set 5, the same
 * shape, held out entirely (`distress5-heldout`, `ordinary5-heldout`); sets 6 to 9 likewise (`distress6-heldout`,
 * `ordinary6-heldout`, `distress7-heldout`, `ordinary7-heldout`, `distress8-heldout`, `ordinary8-heldout`, `distress9-heldout`,
 * `ordinary9-heldout`, `distress10-heldout`, `ordinary10-heldout`), counts only.
 *
 *   npm run eval:care                 both sets, both splits, figures only
 *   npm run eval:care -- --misses     also the dev splits' misses and false alarms (never the held-out's)
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDistress, needsCare } from "../../graphs/chat/preflight-rules.js";
import type { ChatTurn } from "../../graphs/chat/contract.js";
import { reply } from "../../test/fakes/index.js";
import { startHarness, type Harness } from "../../test/graph/harness.js";

const here = dirname(fileURLToPath(import.meta.url));
const SPLITS = ["dev", "heldout"] as const;
type Split = (typeof SPLITS)[number];
/** The file-name suffix of each set: "" is set 1 (`distress-dev.tsv`), "2" is set 2 (`distress2-dev.tsv`). */
const SETS = ["", "2"] as const;
type SetNo = (typeof SETS)[number];

export interface CareCase {
  lang: string;
  /** The user's messages, oldest first. */
  users: string[];
}

export function loadCases(set: "distress" | "ordinary", split: Split, setNo: SetNo = ""): CareCase[] {
  return loadFile(`${set}${setNo}-${split}.tsv`);
}

export function loadFile(name: string): CareCase[] {
  return readFileSync(join(here, name), "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => {
      const [lang = "", text = ""] = l.split("\t");
      return { lang, users: text.split(" || ").map((t) => t.trim()) };
    });
}

/** The conversation as a chat app sends it: a short assistant turn between the user's messages. */
export function turnsOf(c: CareCase): ChatTurn[] {
  return c.users.flatMap((content, i): ChatTurn[] => (i === 0 ? [{ role: "user", content }] : [{ role: "assistant", content: "I'm listening." }, { role: "user", content }]));
}

/** With the provider failing, only the crisis reply comes back as an answer (canned replies, refusals and errors are not). */
async function crisisReplyDown(h: Harness, c: CareCase): Promise<boolean> {
  const out = await h.run(turnsOf(c), {}, { stream: false }).catch(() => undefined);
  return out?.kind === "answer";
}

interface Row {
  label: string;
  hits: number;
  total: number;
  misses: string[];
}

const pct = (r: Row) => `${r.hits}/${r.total} (${((100 * r.hits) / Math.max(1, r.total)).toFixed(0)}%)`;

async function measure(h: Harness, cases: CareCase[], wantCare: boolean) {
  const rows = { isDistress: [] as string[], needsCare: [] as string[], crisisDown: [] as string[] };
  const byLang = new Map<string, { total: number; crisis: number }>();
  for (const c of cases) {
    const show = `${c.lang}: ${c.users.join(" || ")}`;
    const flags = {
      isDistress: isDistress(c.users.at(-1)!),
      needsCare: needsCare(c.users),
      crisisDown: await crisisReplyDown(h, c),
    };
    for (const k of Object.keys(rows) as (keyof typeof rows)[]) if (flags[k] !== wantCare) rows[k].push(show);
    const l = byLang.get(c.lang) ?? { total: 0, crisis: 0 };
    l.total++;
    if (flags.crisisDown) l.crisis++;
    byLang.set(c.lang, l);
  }
  const total = cases.length;
  const row = (label: string, wrong: string[]): Row => ({ label, total, hits: wantCare ? total - wrong.length : wrong.length, misses: wrong });
  return { rows: [row("isDistress(last)", rows.isDistress), row("needsCare(conversation)", rows.needsCare), row("crisis reply, provider down", rows.crisisDown)], byLang };
}

async function main() {
  const showMisses = process.argv.includes("--misses");
  const h = await startHarness();
  h.provider.setFallback(reply.error(500));
  try {
    for (const setNo of SETS) {
      for (const split of SPLITS) {
        const distress = await measure(h, loadCases("distress", split, setNo), true);
        const ordinary = await measure(h, loadCases("ordinary", split, setNo), false);
        console.log(`\n== set ${setNo || "1"}, ${split} ==`);
        console.log("distress read as distress (recall):");
        for (const r of distress.rows) console.log(`  ${r.label.padEnd(30)} ${pct(r)}`);
        console.log(`  crisis reply by language: ${[...distress.byLang].map(([l, v]) => `${l} ${v.crisis}/${v.total}`).join(", ")}`);
        console.log("ordinary questions flagged (false alarms):");
        for (const r of ordinary.rows) console.log(`  ${r.label.padEnd(30)} ${pct(r)}`);
        if (showMisses && split === "dev") {
          console.log("\ndev misses (crisis reply, provider down):");
          for (const m of distress.rows[2]!.misses) console.log(`  - ${m}`);
          console.log("dev false alarms (needsCare):");
          for (const m of ordinary.rows[1]!.misses) console.log(`  - ${m}`);
        }
      }
    }
    // Set 3: no dev half of its distress messages (held out entirely); ordinary statements in both halves.
    const distress3 = await measure(h, loadFile("distress3-heldout.tsv"), true);
    console.log("\n== set 3, held out entirely ==\ndistress read as distress (recall):");
    for (const r of distress3.rows) console.log(`  ${r.label.padEnd(30)} ${pct(r)}`);
    console.log(`  crisis reply by language: ${[...distress3.byLang].map(([l, v]) => `${l} ${v.crisis}/${v.total}`).join(", ")}`);
    for (const [label, file] of [["look-alike ordinary messages", "ordinary3-style-heldout.tsv"], ["ordinary statements, dev", "ordinary3-dev.tsv"], ["ordinary statements, held-out", "ordinary3-heldout.tsv"]] as const) {
      const ordinary = await measure(h, loadFile(file), false);
      console.log(`${label} flagged (false alarms):`);
      for (const r of ordinary.rows) console.log(`  ${r.label.padEnd(30)} ${pct(r)}`);
      if (showMisses && file === "ordinary3-dev.tsv") for (const m of ordinary.rows[1]!.misses) console.log(`  - ${m}`);
    }
    // Sets 5 to 10 (README.md): blind distress and look-alike ordinary messages by six more writers,
    // held out entirely; counts only.
    for (const setNo of [5, 6, 7, 8, 9, 10]) {
      const distress = await measure(h, loadFile(`distress${setNo}-heldout.tsv`), true);
      console.log(`\n== set ${setNo}, held out entirely ==\ndistress read as distress (recall):`);
      for (const r of distress.rows) console.log(`  ${r.label.padEnd(30)} ${pct(r)}`);
      console.log(`  crisis reply by language: ${[...distress.byLang].map(([l, v]) => `${l} ${v.crisis}/${v.total}`).join(", ")}`);
      const ordinary = await measure(h, loadFile(`ordinary${setNo}-heldout.tsv`), false);
      console.log("look-alike ordinary messages flagged (false alarms):");
      for (const r of ordinary.rows) console.log(`  ${r.label.padEnd(30)} ${pct(r)}`);
    }
  } finally {
    await h.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
