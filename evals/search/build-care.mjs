// Builds care-dev.jsonl and care-heldout.jsonl from care.src.txt (see its header: each question gets its
// categories' fitting chapters as `targets` and their harmful chapters plus "doom" as `harmful`; a question
// is held out when its group is even). Run: node evals/search/build-care.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = import.meta.dirname;
const lines = readFileSync(join(dir, "care.src.txt"), "utf8").split("\n");
const chapter = (a) => {
  const m = a.trim().match(/^([1-3A-Z]{3}) (\d+)(?::\d+)?$/);
  if (!m) throw new Error(`bad reference "${a}"`);
  return `${m[1]} ${m[2]}`;
};
const list = (s) => [...new Set((s ?? "").split(",").filter((a) => a.trim() !== "").map(chapter))];
const fitting = new Map();
const harmful = new Map();
for (const l of lines) {
  const m = l.match(/^([@!])(\w+)\|(.*)$/);
  if (m) (m[1] === "@" ? fitting : harmful).set(m[2], list(m[3]));
}
const out = { dev: [], heldout: [] };
for (const l of lines.filter((x) => /^\d+\|/.test(x))) {
  const [id, lang, cats, query, extra, same] = l.split("|");
  const targets = new Set(list(extra));
  const harm = new Set(harmful.get("doom"));
  for (const c of cats.split("+")) {
    if (!fitting.has(c) || !harmful.has(c)) throw new Error(`question ${id}: unknown category ${c}`);
    for (const t of fitting.get(c)) targets.add(t);
    for (const t of harmful.get(c)) harm.add(t);
  }
  for (const t of targets) if (harm.has(t)) throw new Error(`question ${id}: ${t} is both fitting and harmful`);
  const group = same ? Number(same.slice(1)) : Number(id);
  const split = group % 2 === 0 ? "heldout" : "dev";
  out[split].push(JSON.stringify({ id: Number(id), query, targets: [...targets], harmful: [...harm], lang, category: cats, ...(group !== Number(id) ? { pair: group } : {}) }));
}
for (const s of ["dev", "heldout"]) writeFileSync(join(dir, `care-${s}.jsonl`), out[s].join("\n") + "\n");
console.log(`dev ${out.dev.length}, heldout ${out.heldout.length}`);
