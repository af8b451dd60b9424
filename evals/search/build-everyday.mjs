// Builds everyday-dev.jsonl and everyday-heldout.jsonl from everyday.src.txt (see its header).
// Run: node evals/search/build-everyday.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = import.meta.dirname;
const rows = readFileSync(join(dir, "everyday.src.txt"), "utf8").split("\n").filter((l) => /^\d+\|/.test(l)).map((l) => {
  const [id, lang, query, targets, pair] = l.split("|");
  return { id: Number(id), lang, query, targets: targets.trim(), pair: pair ? Number(pair) : undefined };
});
const byId = new Map(rows.map((r) => [r.id, r]));
const out = { dev: [], heldout: [] };
for (const r of rows) {
  const same = r.targets.startsWith("=") ? Number(r.targets.slice(1)) : undefined;
  const targets = (same ? byId.get(same).targets : r.targets).split(",").map((t) => t.trim());
  const group = same ?? r.pair ?? r.id;
  const split = group % 3 === 0 ? "heldout" : "dev";
  out[split].push(JSON.stringify({ id: r.id, query: r.query, targets, lang: r.lang, ...(group !== r.id ? { pair: group } : {}) }));
}
for (const s of ["dev", "heldout"]) writeFileSync(join(dir, `everyday-${s}.jsonl`), out[s].join("\n") + "\n");
console.log(`dev ${out.dev.length}, heldout ${out.heldout.length}`);
