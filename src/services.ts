import type { Router } from "express";
import { buildChatGraph } from "../graphs/chat/graph.js";
import { createModelFactory } from "../graphs/chat/models.js";
import { runChat } from "../graphs/chat/run.js";
import type { AppDeps } from "./app.js";
import type { Config } from "./config.js";
import { chatAuthFirst, chatCatalog, chatRouter } from "./http/chat/route.js";
import { openapiRouter } from "./http/openapi/route.js";
import { pagesRouter } from "./http/pages/route.js";
import { searchRouter } from "./http/search/route.js";
import type { Logger } from "./logger.js";
import { createMetrics, type Metrics } from "./metrics.js";
import { listProfiles, listTheologies, loadPrompts } from "./prompts/loader.js";
import { loadBibleLibrary } from "./scripture/corpus.js";
import { convertLinks, createLinkStream } from "./scripture/links.js";
import { formatReference, parsePassageQuery, prepareReferences } from "./scripture/references.js";
import { startSearchService, type SearchService } from "./scripture/search/service.js";
import { TRANSLATIONS, translationIds } from "./scripture/translations.js";

export interface Services {
  app: AppDeps;
  search: SearchService;
  metrics: Metrics;
  /** Stops what the services started (the embedded Chroma). */
  stop(): Promise<void>;
}

/**
 * The composition root: loads the corpus and prompts (a bad prompt file fails start-up here), starts
 * scripture search (embedded Chroma unless CHROMA_URL is set; first run ingests in the background),
 * and compiles the chat graph. Shared by main.ts and the end-to-end tests.
 */
export function buildServices(config: Config, logger: Logger, opts: { isDraining?: () => boolean } = {}): Services {
  const prompts = loadPrompts(config.promptsDir);
  const bibles = loadBibleLibrary();
  // Builds the reference parsers now (a few hundred ms) so the first answer does not pay for it.
  prepareReferences();
  const metrics = createMetrics({ defaultMetrics: true });
  const search = startSearchService({
    dataDir: config.dataDir,
    chromaUrl: config.chromaUrl,
    embeddings: config.embeddings,
    library: bibles,
    logger: logger.child({ component: "search" }),
    metrics,
  });

  const graph = buildChatGraph({
    models: createModelFactory({ baseURL: config.provider.baseURL, timeoutMs: config.provider.timeoutMs }),
    prompts,
    bibles,
    search: search.search,
    references: { parsePassageQuery, formatReference },
    links: { convertLinks, createLinkStream },
    defaultModel: config.defaultModel,
    preflightModel: config.preflightModel,
    maxSteps: config.agentMaxSteps,
    providerTimeoutMs: config.provider.timeoutMs,
    providerName: new URL(config.provider.baseURL).host,
    logger: logger.child({ component: "chat" }),
    metrics,
  });

  const routers: Router[] = [
    searchRouter(search.search, translationIds),
    chatRouter({
      run: (turns, ctx, runOpts) => runChat(graph, turns, ctx, { ...runOpts, maxSteps: config.agentMaxSteps }),
      catalog: chatCatalog(prompts),
      config,
    }),
    pagesRouter({ bibles }),
    openapiRouter(),
  ];

  const app: AppDeps = {
    config,
    logger,
    readiness: search.readiness,
    listings: {
      models: config.models,
      modelsCreated: 1_700_000_000,
      translations: () => [...TRANSLATIONS],
      theologies: () => listTheologies(prompts),
      profiles: () => listProfiles(prompts),
    },
    routers,
    errorHooks: [chatAuthFirst],
    metrics,
    ...(opts.isDraining ? { isDraining: opts.isDraining } : {}),
  };
  return { app, search, metrics, stop: () => search.stop() };
}
