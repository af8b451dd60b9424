/**
 * Runs the fake provider on its own for manual runs and benchmarks:
 *   node --import tsx test/fakes/cli.ts [--port N] [--delay-ms N] [--dimensions N] [--log-requests] [--timings]
 * It answers with the standalone script (tool calls drawn from the question, an answer built from the
 * passages the tools returned) and prints its base URL on the first line of stdout. With
 * --log-requests (or FAKE_PROVIDER_LOG_REQUESTS=1) it writes every chat request it receives, system
 * prompt included, to stderr. With --timings it writes, after the base URL, one JSON line per answered
 * request to stdout: {"seq","path","receivedAt","firstTokenAt","finishedAt"} (epoch ms, sub-ms precision),
 * so a benchmark in another process can subtract the time spent inside the fake; the wire is unchanged.
 */
import { parseArgs } from "node:util";
import type { RecordedRequest } from "./chat-request.js";
import { startFakeProvider } from "./fake-provider.js";
import { formatChatRequest } from "./request-log.js";
import { standaloneReply } from "./standalone-script.js";

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
    "log-requests": { type: "boolean" },
    timings: { type: "boolean" },
  },
});
const logRequests = values["log-requests"] === true || /^(1|true|yes)$/i.test(process.env.FAKE_PROVIDER_LOG_REQUESTS ?? "");

const provider = await startFakeProvider({
  port: intOption(values.port, "port", 0),
  delayMs: intOption(values["delay-ms"], "delay-ms", 0),
  // Standalone runs can be long; keep only recent records so memory stays flat.
  maxRecorded: 1_000,
  embeddingDimensions: intOption(values.dimensions, "dimensions", 64),
  ...(values.timings === true
    ? {
        onFinished: (r: RecordedRequest) =>
          process.stdout.write(`${JSON.stringify({ seq: r.seq, path: r.path, receivedAt: r.receivedAt, firstTokenAt: r.firstTokenAt, finishedAt: r.finishedAt })}\n`),
      }
    : {}),
  fallback: (request) => {
    if (logRequests) process.stderr.write(formatChatRequest(request));
    return standaloneReply(request);
  },
});
process.stdout.write(`${provider.baseURL}\n`);
if (logRequests) process.stderr.write("logging every chat request received (--log-requests)\n");

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await provider.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
