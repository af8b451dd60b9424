/** Retrieval metrics over chapter keys ("LUK 10"), averaged over queries. */
export interface Scores {
  recall5: number;
  hit5: number;
  mrr10: number;
  n: number;
}

export function scoreRun(runs: readonly { ranked: readonly string[]; targets: readonly string[] }[]): Scores {
  let recall = 0;
  let hit = 0;
  let mrr = 0;
  for (const { ranked, targets } of runs) {
    const top5 = new Set(ranked.slice(0, 5));
    const found = targets.filter((t) => top5.has(t)).length;
    // Recall against what five results can hold, so a query with eight target chapters is not capped below 1.
    recall += found / Math.min(targets.length, 5);
    hit += found > 0 ? 1 : 0;
    const rank = ranked.slice(0, 10).findIndex((r) => targets.includes(r));
    mrr += rank >= 0 ? 1 / (rank + 1) : 0;
  }
  const n = Math.max(1, runs.length);
  return { recall5: recall / n, hit5: hit / n, mrr10: mrr / n, n: runs.length };
}

export function formatRow(name: string, s: Scores): string {
  return `${name.padEnd(34)} n=${String(s.n).padStart(3)}  recall@5 ${s.recall5.toFixed(3)}  hit@5 ${s.hit5.toFixed(3)}  MRR@10 ${s.mrr10.toFixed(3)}`;
}

/** The floor: the ten chapters most often named as targets in a set, returned for every query. */
export function floorRanking(targets: readonly (readonly string[])[]): string[] {
  const count = new Map<string, number>();
  for (const ts of targets) for (const t of ts) count.set(t, (count.get(t) ?? 0) + 1);
  return [...count].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10).map(([t]) => t);
}
