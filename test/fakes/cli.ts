/**
 * Runs the fake provider on its own for manual runs and benchmarks:
 *   node --import tsx test/fakes/cli.ts [--port N] [--delay-ms N] [--dimensions N]
 * It answers with the default script and prints its base URL on the first line of stdout.
 */
import { parseArgs } from "node:util";
import { startFakeProvider } from "./fake-provider.js";

function intOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return n;
}

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    "delay-ms": { type: "string" },
    dimensions: { type: "string" },
  },
});

const provider = await startFakeProvider({
  port: intOption(values.port, "port", 0),
  delayMs: intOption(values["delay-ms"], "delay-ms", 0),
  // Standalone runs can be long; keep only recent records so memory stays flat.
  maxRecorded: 1_000,
  embeddingDimensions: intOption(values.dimensions, "dimensions", 64),
});
process.stdout.write(`${provider.baseURL}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await provider.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
