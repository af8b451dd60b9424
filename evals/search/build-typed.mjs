// Builds typed-dev.jsonl and typed-heldout.jsonl from typed.src.txt (see its header for the format and the split).
// Run: node evals/search/build-typed.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = import.meta.dirname;
const lines = readFileSync(join(dir, "typed.src.txt"), "utf8").split("\n").filter((l) => /^(en|es)\|/.test(l));
const out = { dev: [], heldout: [] };
const seen = new Set();
lines.forEach((l, i) => {
  const [lang, query, targets] = l.split("|");
  if (seen.has(query)) throw new Error(`duplicate question "${query}"`);
  seen.add(query);
  const chapters = targets.split(",").map((t) => t.trim());
  for (const c of chapters) if (!/^[1-3A-Z]{3} \d+$/.test(c)) throw new Error(`bad chapter "${c}" in "${query}"`);
  const id = i + 1;
  out[id % 2 === 0 ? "heldout" : "dev"].push(JSON.stringify({ id, query, targets: [...new Set(chapters)], lang }));
});
for (const s of ["dev", "heldout"]) writeFileSync(join(dir, `typed-${s}.jsonl`), out[s].join("\n") + "\n");
console.log(`dev ${out.dev.length}, heldout ${out.heldout.length}`);
