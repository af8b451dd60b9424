import type { Router } from "express";
import type { ScriptureSearcher } from "../../graphs/chat/deps.js";
import { buildChatRuntime } from "../../graphs/chat/runtime.js";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { chatRouter } from "../../src/http/chat/route.js";
import { pageNotFound, pagesRouter } from "../../src/http/pages/route.js";
import { studyRouter } from "../../src/http/study/route.js";
import { createStudyLibrary } from "../../src/study/library.js";
import { createLogger } from "../../src/logger.js";
import { createMetrics, type Metrics } from "../../src/metrics.js";
import { listProfiles, listTheologies, loadPrompts } from "../../src/prompts/loader.js";
import { loadBibleLibrary, type BibleLibrary } from "../../src/scripture/corpus.js";
import { TRANSLATIONS } from "../../src/scripture/translations.js";
import { startFakeProvider, type FakeProvider } from "../fakes/index.js";
import { listen, type Listening } from "../helpers/listen.js";

let bibles: BibleLibrary | undefined;
/** The real shipped corpus, loaded once per test file (it takes a moment to parse). */
export const shippedBibles = () => (bibles ??= loadBibleLibrary());

export type PagesApp = Listening & { metrics: Metrics };

/** The service as main.ts builds it (real corpus, study data, prompts, listings, metrics), plus any extra routers. */
export async function startPagesApp(extra: Router[] = [], env: Record<string, string> = {}): Promise<PagesApp> {
  const prompts = loadPrompts();
  const config = loadConfig(env);
  const metrics = createMetrics({ defaultMetrics: false });
  const study = createStudyLibrary();
  const app = createApp({
    config,
    logger: createLogger("silent"),
    readiness: { ready: () => true, detail: () => ({}) },
    listings: {
      models: config.models,
      modelsCreated: 1700000000,
      translations: () => [...TRANSLATIONS],
      theologies: () => listTheologies(prompts),
      profiles: () => listProfiles(prompts),
    },
    // The study endpoints too: the reader's study tools read them.
    routers: [
      pagesRouter({ bibles: shippedBibles(), lexicon: study.lexicon, providerBaseUrl: config.provider.baseURL, baseUrl: config.publicBaseUrl }),
      studyRouter({ study, bibles: shippedBibles() }),
      ...extra,
    ],
    metrics,
    notFoundPage: pageNotFound(),
  });
  return Object.assign(await listen(app), { metrics });
}

/** The lab's questions are scripted to be answered without searching; a search call is a test failure. */
const noSearch: ScriptureSearcher = {
  search: async () => Promise.reject(new Error("search is not scripted in the browser tests")),
  keyword: async () => Promise.reject(new Error("search is not scripted in the browser tests")),
};

/**
 * Pages plus the real chat endpoint: adapter, graph, prompts, corpus, references and links, with the
 * fake OpenAI-compatible provider (the only fake) over real HTTP.
 */
export async function startFullStack(): Promise<PagesApp & { provider: FakeProvider }> {
  const provider = await startFakeProvider();
  const env = { OPENAI_BASE_URL: provider.baseURL };
  const config = loadConfig(env);
  const prompts = loadPrompts();
  const runtime = buildChatRuntime(config, { prompts, bibles: shippedBibles(), search: noSearch });
  const chat = chatRouter({ run: runtime.run, catalog: runtime.catalog, config });
  const srv = await startPagesApp([chat], env);
  const closeApp = srv.close;
  return Object.assign(srv, {
    provider,
    close: async () => {
      await closeApp();
      await provider.close();
    },
  });
}
