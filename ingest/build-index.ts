/**
 * Builds (or validates) the scripture search index: the same code the service runs on its first
 * start. Idempotent: a valid index is left as it is; --force rebuilds.
 *
 * Run: npm run ingest:index [-- --force]
 */
import { loadConfig } from "../src/config.js";
import { loadBibleLibrary } from "../src/scripture/corpus.js";
import { startSearchService } from "../src/scripture/search/service.js";

const log = {
  info: (obj: object, msg?: string) => console.log(`${msg ?? ""} ${JSON.stringify(obj)}`),
  warn: (obj: object, msg?: string) => console.warn(`${msg ?? ""} ${JSON.stringify(obj)}`),
  error: (obj: object, msg?: string) => console.error(`${msg ?? ""} ${JSON.stringify(obj)}`),
};

async function main() {
  const config = loadConfig();
  const started = Date.now();
  if (process.argv.includes("--force")) {
    const { rmSync } = await import("node:fs");
    const { join } = await import("node:path");
    rmSync(join(config.dataDir, "search", "manifest.json"), { force: true });
  }
  const service = startSearchService({
    dataDir: config.dataDir,
    chromaUrl: config.chromaUrl,
    embeddings: config.embeddings,
    library: loadBibleLibrary({ ids: ["eng-web"] }),
    logger: log,
  });
  try {
    const index = await service.indexed;
    log.info({ mode: index.mode, passages: index.passages.length, embedder: index.embedder.id, ms: Date.now() - started }, "done");
  } finally {
    await service.stop();
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exitCode = 1;
});
