/** Retrieval metrics over chapter keys ("LUK 10"), averaged over queries. */
export interface Scores {
  recall5: number;
  hit5: number;
  mrr10: number;
  /** Graded nDCG@10: a query's first target has gain 2, its others 1 (the first is the one that answers best). */
  ndcg10: number;
  n: number;
}

export function scoreRun(runs: readonly { ranked: readonly string[]; targets: readonly string[] }[]): Scores {
  let recall = 0;
  let hit = 0;
  let mrr = 0;
  let ndcg = 0;
  for (const { ranked, targets } of runs) {
    const top5 = new Set(ranked.slice(0, 5));
    const found = targets.filter((t) => top5.has(t)).length;
    // Recall against what five results can hold, so a query with eight target chapters is not capped below 1.
    recall += found / Math.min(targets.length, 5);
    hit += found > 0 ? 1 : 0;
    const rank = ranked.slice(0, 10).findIndex((r) => targets.includes(r));
    mrr += rank >= 0 ? 1 / (rank + 1) : 0;
    ndcg += ndcgAt10(ranked, targets);
  }
  const n = Math.max(1, runs.length);
  return { recall5: recall / n, hit5: hit / n, mrr10: mrr / n, ndcg10: ndcg / n, n: runs.length };
}

export function formatRow(name: string, s: Scores): string {
  return `${name.padEnd(34)} n=${String(s.n).padStart(3)}  recall@5 ${s.recall5.toFixed(3)}  hit@5 ${s.hit5.toFixed(3)}  MRR@10 ${s.mrr10.toFixed(3)}  nDCG@10 ${s.ndcg10.toFixed(3)}`;
}

/** nDCG@10 over distinct chapters; the ideal ranking puts the first target first, then the others. */
export function ndcgAt10(ranked: readonly string[], targets: readonly string[]): number {
  const gain = (c: string) => (c === targets[0] ? 2 : targets.includes(c) ? 1 : 0);
  const seen = new Set<string>();
  let dcg = 0;
  let pos = 0;
  for (const c of ranked) {
    if (pos >= 10) break;
    if (seen.has(c)) continue;
    seen.add(c);
    dcg += gain(c) / Math.log2(pos + 2);
    pos++;
  }
  let ideal = 0;
  for (let i = 0; i < Math.min(10, new Set(targets).size); i++) ideal += (i === 0 ? 2 : 1) / Math.log2(i + 2);
  return ideal > 0 ? dcg / ideal : 0;
}

/** The floor: the ten chapters most often named as targets in a set, returned for every query. */
export function floorRanking(targets: readonly (readonly string[])[]): string[] {
  const count = new Map<string, number>();
  for (const ts of targets) for (const t of ts) count.set(t, (count.get(t) ?? 0) + 1);
  return [...count].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10).map(([t]) => t);
}
