/**
 * The MCP server over stdio, for assistants that launch a local process (`npm run mcp`,
 * `npx biblical-chat mcp`): no HTTP service needed. It opens the corpus and the search index itself
 * through the same services builder as `npm start` (embedded Chroma unless CHROMA_URL; the index is built
 * on first use), and stops the embedded Chroma when the client closes stdin or a signal arrives.
 * stdout carries the protocol alone: every log line goes to stderr.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { embeddedChromaPath, startEmbeddedChroma } from "../chroma/embedded.js";
import { loadConfigOrExit } from "../config.js";
import { watchParent } from "../lifecycle/parent-watch.js";
import { createLogger } from "../logger.js";
import { buildServices, type Services } from "../services.js";
import { createMcpServer } from "./server.js";
import { withBareErrorMessages } from "./wire-errors.js";

// A stray console.log anywhere would corrupt the protocol: the console's stdout methods write to stderr.
for (const method of ["log", "info", "debug"] as const) console[method] = console.error;

async function main() {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, process.stderr, config.logFormat);
  const embeddedChroma = config.chromaUrl
    ? undefined
    : startEmbeddedChroma({ path: embeddedChromaPath(config.dataDir), logger: logger.child({ component: "search" }) });
  embeddedChroma?.catch(() => undefined);
  let services: Services;
  try {
    services = buildServices(config, logger, { embeddedChroma });
  } catch (err) {
    logger.fatal({ err: err instanceof Error ? err.message : String(err) }, "start-up failed");
    await (await embeddedChroma?.catch(() => undefined))?.stop();
    process.exit(1);
  }
  services.search.indexed.then(
    () => logger.info("ready: scripture search is up"),
    () => logger.warn("scripture search is unavailable; passages, word study, commentary and topics still answer"),
  );

  const server = createMcpServer(services.mcp);
  const log = logger.child({ component: "mcp-stdio" });
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ why }, "stopping");
    void server
      .close()
      .catch(() => undefined)
      .then(() => services.stop())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.stdin.on("end", () => stop("stdin closed"));
  process.stdin.on("close", () => stop("stdin closed"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  watchParent(() => stop("parent exited"));
  await server.connect(withBareErrorMessages(new StdioServerTransport()));
  log.info({ dataDir: config.dataDir, chroma: config.chromaUrl ?? "embedded" }, "MCP server on stdio");
}

void main();
