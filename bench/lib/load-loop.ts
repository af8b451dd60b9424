/** A closed-loop load generator in one process: `concurrency` workers, each sending its next request when the last one answered. */
export interface LoadResult {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  errors: number;
  rps: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** `call(i)` runs request i (the caller cycles its inputs with i); latencies in ms. */
export async function runLoad(call: (i: number) => Promise<boolean>, options: { requests: number; concurrency: number; warmup?: number }): Promise<LoadResult> {
  let next = 0;
  const warm = options.warmup ?? Math.min(50, options.requests);
  for (let i = 0; i < warm; i++) await call(i + 1_000_000);
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < options.requests) {
      const i = next++;
      const t = performance.now();
      const ok = await call(i).catch(() => false);
      latencies.push(performance.now() - t);
      if (!ok) errors++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    n: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    mean: latencies.reduce((s, x) => s + x, 0) / Math.max(1, latencies.length),
    errors,
    rps: latencies.length / seconds,
  };
}
