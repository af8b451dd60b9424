import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Every search eval query (evals/search/*.jsonl: stories and passages, the everyday, blind, care, typed and
 * topics sets), in file order: the benches send them so that requests are new texts, as a user's are, and
 * caches keyed by the text cannot stand in for the work.
 */
export function evalQueries(): string[] {
  const dir = join(import.meta.dirname, "..", "..", "evals", "search");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter(Boolean))
    .map((l) => (JSON.parse(l) as { query: string }).query);
}
