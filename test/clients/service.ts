import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { inject } from "vitest";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { buildServices, type Services } from "../../src/services.js";
import { startFakeProvider, type FakeProvider } from "../fakes/index.js";
import { listen } from "../helpers/listen.js";

export interface RealService {
  /** Base URL of our API, e.g. http://127.0.0.1:PORT (clients add /v1). */
  url: string;
  provider: FakeProvider;
  services: Services;
  app: ReturnType<typeof createApp>;
  close(): Promise<void>;
}

/** The shared index from the vitest globalSetup, when the run has one (see test/helpers/global-index.ts). */
function sharedIndex(): { dataDir: string; chromaUrl: string } | undefined {
  const get = inject as unknown as (key: string) => string | undefined;
  const dataDir = get("indexDataDir");
  const chromaUrl = get("indexChromaUrl");
  return dataDir && chromaUrl ? { dataDir, chromaUrl } : undefined;
}

/**
 * The service as `npm start` builds it (buildServices + createApp), on port 0, with the fake provider as
 * OPENAI_BASE_URL. Search runs on the run's shared Chroma index when there is one, else on an embedded
 * Chroma ingested here; either way it is ready before the first request, so the agent's search tool works.
 */
export async function startRealService(): Promise<RealService> {
  const provider = await startFakeProvider({ delayMs: 0 });
  const shared = sharedIndex();
  const ownDir = shared ? undefined : mkdtempSync(join(tmpdir(), "bc-clients-"));
  const config = loadConfig({
    OPENAI_BASE_URL: provider.baseURL,
    DATA_DIR: shared?.dataDir ?? ownDir,
    CHROMA_URL: shared?.chromaUrl,
    LOG_LEVEL: "silent",
  });
  const logger = createLogger("silent", new Writable({ write: (_c, _e, cb) => cb() }));
  const services = buildServices(config, logger);
  await services.search.indexed;
  const app = createApp(services.app);
  const srv = await listen(app);
  return {
    url: srv.url,
    provider,
    services,
    app,
    async close() {
      await srv.close();
      await services.stop();
      await provider.close();
      if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    },
  };
}
