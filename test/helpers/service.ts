import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import OpenAI from "openai";
import { inject } from "vitest";
import { createApp } from "../../src/app.js";
import { loadConfig, type Config } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { buildServices, type Services } from "../../src/services.js";
import { startFakeProvider, type FakeProvider } from "../fakes/index.js";
import { listen, type Listening } from "./listen.js";

export interface ServiceOptions {
  /** Extra environment for loadConfig (PROVIDER_TIMEOUT_MS, CORS_ORIGINS, RATE_LIMIT_PER_MINUTE...). */
  env?: Record<string, string>;
  /**
   * "shared": the run-wide Chroma from the globalSetup (read-only use); "embedded": a private embedded
   * Chroma on a copy of the shared index (tests that kill it); or an explicit CHROMA_URL.
   */
  chroma?: "shared" | "embedded" | { url: string };
  logLevel?: string;
  provider?: FakeProvider;
  /** Wait for the index before returning (default true; false when Chroma is meant to be down). */
  waitReady?: boolean;
}

export interface RunningService {
  url: string;
  config: Config;
  services: Services;
  provider: FakeProvider;
  logs: string[];
  client(apiKey: string, opts?: { timeout?: number }): OpenAI;
  close(): Promise<void>;
}

/** The real service (buildServices + createApp, as main.ts wires it) on port 0 with the fake provider. */
export async function startService(opts: ServiceOptions = {}): Promise<RunningService> {
  const provider = opts.provider ?? (await startFakeProvider({ delayMs: 0 }));
  const chroma = opts.chroma ?? "shared";
  let ownDir: string | undefined;
  let dataDir = inject("indexDataDir");
  if (chroma === "embedded") {
    ownDir = mkdtempSync(join(tmpdir(), "bc-svc-"));
    cpSync(inject("indexDataDir"), ownDir, { recursive: true });
    dataDir = ownDir;
  }
  const chromaUrl = chroma === "shared" ? inject("indexChromaUrl") : chroma === "embedded" ? undefined : chroma.url;
  const config = loadConfig({
    OPENAI_BASE_URL: provider.baseURL,
    DATA_DIR: dataDir,
    ...(chromaUrl ? { CHROMA_URL: chromaUrl } : {}),
    ...opts.env,
  });
  const logs: string[] = [];
  const sink = new Writable({ write: (c, _e, cb) => (logs.push(String(c)), cb()) });
  const logger = createLogger(opts.logLevel ?? "debug", sink);
  const services = buildServices(config, logger);
  if (opts.waitReady ?? true) await services.search.indexed;
  else services.search.indexed.catch(() => undefined);
  const srv: Listening = await listen(createApp(services.app));
  return {
    url: srv.url,
    config,
    services,
    provider,
    logs,
    client: (apiKey, o = {}) => new OpenAI({ baseURL: `${srv.url}/v1`, apiKey, maxRetries: 0, timeout: o.timeout ?? 20_000 }),
    async close() {
      await srv.close();
      await services.stop();
      if (!opts.provider) await provider.close();
      if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    },
  };
}
