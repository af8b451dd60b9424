import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { buildServices } from "../../src/services.js";
import { subsetBible } from "./chroma.js";
import { listen } from "./listen.js";

/**
 * One replica as `npm start` wires it (buildServices + createApp, configuration from the environment:
 * DATA_DIR, CHROMA_URL, EMBEDDINGS_BASE_URL...), indexing only REPLICA_BOOKS so a test can start
 * several. Logs JSON lines on stderr; prints {"url"} on stdout once listening; stops on SIGTERM/SIGINT.
 */
const config = loadConfig(process.env);
const logger = createLogger("info", process.stderr, "json");
const books = (process.env.REPLICA_BOOKS ?? "RUT,JON,PHM").split(",");
const services = buildServices(config, logger, {
  search: { rankingBible: subsetBible(books), ...(process.env.REPLICA_LEASE_MS ? { buildLeaseMs: Number(process.env.REPLICA_LEASE_MS) } : {}) },
});
services.search.indexed.catch(() => undefined);
const srv = await listen(createApp(services.app));
process.stdout.write(`${JSON.stringify({ url: srv.url })}\n`);
const stop = () => void srv.close().then(() => services.stop()).finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
