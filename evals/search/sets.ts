/**
 * The search eval sets as `npm run eval:search` (run.ts) and `npm run eval:tune` (tune.ts) read them: one
 * JSON object per line in this directory, and Nave's topics built from the shipped study data.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export interface EvalQuery {
  id: number;
  query: string;
  targets: string[];
  split?: "dev" | "heldout";
  lang: string;
  /** Care set only: chapters that wound the person who asks (never wanted in the top 3). */
  harmful?: string[];
}

const here = dirname(fileURLToPath(import.meta.url));

/** A set file of this directory (`queries.jsonl`, `topics-dev.jsonl`, ...). */
export function loadSet(file: string): EvalQuery[] {
  return readFileSync(join(here, file), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as EvalQuery);
}

interface NaveRow {
  name: string;
  refs: [string, number][];
}

/**
 * Nave's topics with at least 20 references (data/study/naves.json.gz; never used by the ranking, so it
 * can judge it): the name (lower case) as the query and the chapters it cites as targets.
 */
export function navesSet(): EvalQuery[] {
  return (JSON.parse(gunzipSync(readFileSync(join(here, "..", "..", "data", "study", "naves.json.gz"))).toString("utf8")) as NaveRow[])
    .filter((r) => r.refs.length >= 20)
    .map((r, i) => ({
      id: i,
      query: r.name.toLowerCase(),
      targets: [...new Set(r.refs.flatMap(([ref]) => /^([1-3A-Z]{3})(\d+)/.exec(ref)?.slice(1, 3).join(" ") ?? []))],
      lang: "en",
    }));
}
