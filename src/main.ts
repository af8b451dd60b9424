import type { Server } from "node:http";
import { embeddedChromaPath, startEmbeddedChroma } from "./chroma/embedded.js";
import { loadConfigOrExit } from "./config.js";
import { createLogger, type Logger } from "./logger.js";
import { createHttpServer } from "./http/server-timeouts.js";
import { watchParent } from "./lifecycle/parent-watch.js";
import type { Services } from "./services.js";

/**
 * Starts the service: configuration (fails fast), the embedded Chroma's process (unless CHROMA_URL is
 * set; spawned first so it boots while the rest loads), corpus, prompts, search, the chat graph, then
 * the HTTP server. On SIGTERM/SIGINT it stops accepting, lets in-flight requests
 * finish within SHUTDOWN_TIMEOUT_MS, stops the embedded Chroma and exits 0; likewise when the process
 * that started it dies without passing a signal on.
 */
async function main() {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  const started = performance.now();
  // The embedded Chroma boots in its own process for about a second: spawn it before loading the rest of
  // the service (the app, the chat graph, the corpus), so its boot and our module loading overlap.
  const embeddedChroma = config.chromaUrl
    ? undefined
    : startEmbeddedChroma({ path: embeddedChromaPath(config.dataDir), logger: logger.child({ component: "search" }) });
  // Its failure is the search service's to report (search unavailable, chat keeps serving).
  embeddedChroma?.catch(() => undefined);
  const [{ createApp }, { buildServices }] = await Promise.all([import("./app.js"), import("./services.js")]);
  let draining = false;
  let services: Services;
  try {
    services = buildServices(config, logger, { isDraining: () => draining, embeddedChroma });
  } catch (err) {
    logger.fatal({ err: err instanceof Error ? err.message : String(err) }, "start-up failed");
    process.exit(1);
  }

  const app = createApp(services.app);
  const server = createHttpServer(app);
  server.listen(config.port, config.host);
  server.on("listening", () => {
    const addr = server.address();
    const port = typeof addr === "object" && addr ? addr.port : config.port;
    logger.info({ host: config.host, port, provider: config.provider.baseURL }, `listening on http://${config.host}:${port}`);
  });
  server.on("error", (err) => {
    logger.fatal({ err: err.message }, "HTTP server failed");
    void services.stop().finally(() => process.exit(1));
  });
  services.search.indexed.then(
    () => logger.info({ ms: Math.round(performance.now() - started) }, "ready: scripture search is up"),
    () => logger.warn("scripture search is unavailable; chat and listings keep serving"),
  );

  const shutdown = (signal: string) => {
    if (draining) return;
    draining = true;
    logger.info({ signal }, "shutting down: draining in-flight requests");
    void drain(server, config.shutdownTimeoutMs, logger, () => services.inFlight.endAll())
      .then(() => services.stop())
      .then(
        () => {
          logger.info("stopped");
          process.exit(0);
        },
        (err: unknown) => {
          logger.error({ err: err instanceof Error ? err.message : String(err) }, "shutdown failed");
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  watchParent(() => shutdown("parent exited"));
  process.on("unhandledRejection", (err) => {
    logger.error({ err: err instanceof Error ? err.message : String(err) }, "unhandled rejection");
  });
}

/** How long streams ended at the drain deadline get to write their error event and [DONE]. */
const END_GRACE_MS = 250;

/**
 * Stops accepting, closes idle keep-alive sockets, waits for in-flight responses up to the deadline.
 * At the deadline, chats still running are ended first (an open stream gets an error event and [DONE],
 * a request still waiting gets a 503), and the connections are closed a moment later.
 * A connection whose response ends during the drain turns idle but stays open (Node sets it the
 * keep-alive timeout, 65 s), which would hold the process to the deadline: it is closed as it idles.
 */
function drain(server: Server, timeoutMs: number, logger: Logger, endOpen: () => number): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    sweep.unref();
    const timer = setTimeout(() => {
      const ended = endOpen();
      logger.warn({ timeoutMs, ended }, "drain deadline passed: ending open chats, then closing remaining connections");
      setTimeout(() => server.closeAllConnections(), ended > 0 ? END_GRACE_MS : 0).unref();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}

void main();
