// Builds everyday-blind-dev.jsonl and everyday-blind-heldout.jsonl from everyday-blind.src.txt (see its
// header: targets are "BOOK C:V" anchors, scored as chapters; a question is held out when its group is even).
// Run: node evals/search/build-blind.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = import.meta.dirname;
const rows = readFileSync(join(dir, "everyday-blind.src.txt"), "utf8").split("\n").filter((l) => /^\d+\|/.test(l)).map((l) => {
  const [id, lang, query, targets, pair] = l.split("|");
  return { id: Number(id), lang, query, targets: targets.trim(), pair: pair ? Number(pair) : undefined };
});
const byId = new Map(rows.map((r) => [r.id, r]));
const chapters = (anchors) => [...new Set(anchors.split(",").map((a) => {
  const m = a.trim().match(/^([1-3A-Z]{3}) (\d+):\d+$/);
  if (!m) throw new Error(`bad anchor "${a}"`);
  return `${m[1]} ${m[2]}`;
}))];
const out = { dev: [], heldout: [] };
for (const r of rows) {
  const same = r.targets.startsWith("=") ? Number(r.targets.slice(1)) : undefined;
  if (same !== undefined && !byId.has(same)) throw new Error(`question ${r.id}: no question ${same}`);
  const targets = chapters(same ? byId.get(same).targets : r.targets);
  const group = same ?? r.pair ?? r.id;
  const split = group % 2 === 0 ? "heldout" : "dev";
  out[split].push(JSON.stringify({ id: r.id, query: r.query, targets, lang: r.lang, ...(group !== r.id ? { pair: group } : {}) }));
}
for (const s of ["dev", "heldout"]) writeFileSync(join(dir, `everyday-blind-${s}.jsonl`), out[s].join("\n") + "\n");
console.log(`dev ${out.dev.length}, heldout ${out.heldout.length}`);
