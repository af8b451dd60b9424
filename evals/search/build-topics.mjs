// Builds <set>-dev.jsonl and <set>-heldout.jsonl from <set>.src.txt (see its header for the format, the split
// and the phrasing), for the topic sets: `topics` (session 8, chosen then as topics the concept table did not
// cover; the table has grown since) and `topics2` (session 17, written blind to the table). It prints how
// many today's table names (eval:search reports the two groups apart).
// Run: node --import tsx evals/search/build-topics.mjs [topics|topics2]   (default: both)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { matchConcepts } from "../../src/scripture/search/concepts.ts";

const dir = import.meta.dirname;
for (const set of process.argv[2] ? [process.argv[2]] : ["topics", "topics2"]) build(set);

function build(set) {
  const lines = readFileSync(join(dir, `${set}.src.txt`), "utf8").split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#"));
  const out = { dev: [], heldout: [] };
  const seen = new Set();
  const covered = [];
  lines.forEach((l, i) => {
    const [topic, targets] = l.split("|");
    if (!topic || !targets) throw new Error(`bad line "${l}"`);
    if (seen.has(topic)) throw new Error(`duplicate topic "${topic}"`);
    seen.add(topic);
    const chapters = targets.split(",").map((t) => t.trim());
    for (const c of chapters) if (!/^[1-3A-Z]{3} \d+$/.test(c)) throw new Error(`bad chapter "${c}" in "${topic}"`);
    const n = i + 1;
    const query = Math.floor((n - 1) / 2) % 2 === 1 ? `What does the Bible say about ${topic}?` : topic;
    const hit = [...matchConcepts(topic, undefined, "en"), ...matchConcepts(query, undefined, "en")];
    if (hit.length > 0) covered.push(`${topic} (${[...new Set(hit.map((m) => m.concept.id))].join(", ")})`);
    out[n % 2 === 0 ? "heldout" : "dev"].push(JSON.stringify({ id: n, query, targets: [...new Set(chapters)], lang: "en" }));
  });
  for (const s of ["dev", "heldout"]) writeFileSync(join(dir, `${set}-${s}.jsonl`), out[s].join("\n") + "\n");
  console.log(`${set}: dev ${out.dev.length}, heldout ${out.heldout.length}; named by today's concept table: ${covered.length} of ${lines.length}`);
}
