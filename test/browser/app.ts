import type { Router } from "express";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { createMetrics, type Metrics } from "../../src/metrics.js";
import { pagesRouter } from "../../src/http/pages/route.js";
import { listProfiles, listTheologies, loadPrompts } from "../../src/prompts/loader.js";
import { loadBibleLibrary, type BibleLibrary } from "../../src/scripture/corpus.js";
import { TRANSLATIONS } from "../../src/scripture/translations.js";
import { listen, type Listening } from "../helpers/listen.js";

let bibles: BibleLibrary | undefined;
/** The real shipped corpus, loaded once per test file (it takes a moment to gunzip). */
export const shippedBibles = () => (bibles ??= loadBibleLibrary());

/** The service as main.ts builds it, with the real corpus and prompts, plus any extra routers. */
export async function startPagesApp(extra: Router[] = []): Promise<Listening & { metrics: Metrics }> {
  const prompts = loadPrompts();
  const metrics = createMetrics({ defaultMetrics: false });
  const app = createApp({
    config: loadConfig({}),
    logger: createLogger("silent"),
    readiness: { ready: () => true, detail: () => ({}) },
    listings: {
      models: ["gpt-4o-mini"],
      modelsCreated: 1700000000,
      translations: () => [...TRANSLATIONS],
      theologies: () => listTheologies(prompts),
      profiles: () => listProfiles(prompts),
    },
    routers: [pagesRouter({ bibles: shippedBibles() }), ...extra],
    metrics,
  });
  return Object.assign(await listen(app), { metrics });
}
