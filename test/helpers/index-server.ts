import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { startSearchService } from "../../src/scripture/search/service.js";

/**
 * Child process of the test globalSetup: ingests the production index into argv[2] with an embedded
 * Chroma, prints {"url", "mode"} once ready, and holds Chroma until SIGINT/SIGTERM or its parent closes stdin.
 */
const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: index-server.ts DATA_DIR");
const quiet = { info() {}, warn() {}, error() {} };
const service = startSearchService({ dataDir, library: loadBibleLibrary(), logger: quiet });
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void service.stop().finally(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
process.stdin.on("end", stop);
process.stdin.resume();
service.indexed.then(
  (index) => process.stdout.write(`${JSON.stringify({ url: service.embedded()!.url, mode: index.mode })}\n`),
  (err: Error) => {
    process.stderr.write(`index failed: ${err.message}\n`);
    process.exit(1);
  },
);
