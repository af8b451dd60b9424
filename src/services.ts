import type { Router } from "express";
import { buildChatRuntime } from "../graphs/chat/runtime.js";
import { warmChatPatterns } from "../graphs/chat/warm-up.js";
import type { AppDeps } from "./app.js";
import type { EmbeddedChroma } from "./chroma/embedded.js";
import type { Config } from "./config.js";
import { chatRouter } from "./http/chat/route.js";
import { responsesRouter } from "./http/responses/route.js";
import { createInFlight, type InFlight } from "./http/in-flight.js";
import { mcpRouter } from "./http/mcp/route.js";
import { openapiRouter } from "./http/openapi/route.js";
import { pageNotFound, pagesRouter } from "./http/pages/route.js";
import { redisCounter } from "./http/rate-limit-redis.js";
import { searchRouter } from "./http/search/route.js";
import { studyRouter } from "./http/study/route.js";
import type { Logger } from "./logger.js";
import type { McpDeps } from "./mcp/server.js";
import { createMetrics, type Metrics } from "./metrics.js";
import { listProfiles, listTheologies, loadPrompts } from "./prompts/loader.js";
import { loadBibleLibrary } from "./scripture/corpus.js";
import { prepareReferences } from "./scripture/references.js";
import { startSearchService, type SearchService, type SearchServiceOptions } from "./scripture/search/service.js";
import { phraseTranslations } from "./scripture/search/search.js";
import { TRANSLATIONS, translationIds } from "./scripture/translations.js";
import { sharedStudyLibrary } from "./study/library.js";

export interface Services {
  app: AppDeps;
  search: SearchService;
  metrics: Metrics;
  /** What the MCP server reads (the chat runtime's search, corpus and study data): /mcp and the stdio entry. */
  mcp: McpDeps;
  /** The chat requests in flight, each under REQUEST_DEADLINE_MS; the shutdown ends those still open. */
  inFlight: InFlight;
  /** Stops what the services started (the embedded Chroma). */
  stop(): Promise<void>;
}

/**
 * The composition root: loads the corpus and prompts (a bad prompt file fails start-up here), starts
 * scripture search (embedded Chroma unless CHROMA_URL is set; first run ingests in the background),
 * and compiles the chat graph. Shared by main.ts and the end-to-end tests.
 */
export function buildServices(
  config: Config,
  logger: Logger,
  opts: {
    isDraining?: () => boolean;
    embeddedChroma?: Promise<EmbeddedChroma> | undefined;
    /** What search indexes (eng-web by default); tests index a few books, see SearchServiceOptions. */
    search?: Pick<SearchServiceOptions, "rankingBible" | "buildLeaseMs">;
  } = {},
): Services {
  const prompts = loadPrompts(config.promptsDir);
  const bibles = loadBibleLibrary();
  // The phrase index's texts (the KJV beside the default WEB), read before the server listens, not in
  // one piece when search attaches with requests waiting.
  phraseTranslations(bibles);
  // Study data (lexicon, tags, commentaries, topics) is read on first use: start-up pays nothing for it.
  // The process-wide library, so the agent's study tools (which fall back to it) share what is read.
  const study = sharedStudyLibrary();
  // Builds the reference parsers now (a few hundred ms) so the first answer does not pay for it.
  prepareReferences();
  warmChatPatterns();
  const metrics = createMetrics({ defaultMetrics: true });
  const search = startSearchService({
    dataDir: config.dataDir,
    chromaUrl: config.chromaUrl,
    embeddedChroma: opts.embeddedChroma,
    embeddings: config.embeddings,
    baseUrl: config.publicBaseUrl,
    library: bibles,
    logger: logger.child({ component: "search" }),
    metrics,
    ...opts.search,
  });

  metrics.watchSearch(search.readiness.status);

  const chat = buildChatRuntime(config, { prompts, bibles, search: search.search, logger: logger.child({ component: "chat" }), metrics });

  const mcp: McpDeps = {
    search: search.search,
    bibles,
    study,
    references: chat.deps.references,
    logger: logger.child({ component: "mcp" }),
    publicBaseUrl: config.publicBaseUrl,
    indexed: search.indexed,
  };
  const inFlight = createInFlight(config.requestDeadlineMs);
  const routers: Router[] = [
    searchRouter(search.search, translationIds),
    chatRouter({ run: chat.run, catalog: chat.catalog, config, inFlight }),
    responsesRouter({ run: chat.run, catalog: chat.catalog, config, inFlight }),
    pagesRouter({ bibles, lexicon: study.lexicon, providerBaseUrl: config.provider.baseURL, baseUrl: config.publicBaseUrl }),
    studyRouter({ study, bibles, baseUrl: config.publicBaseUrl }),
    mcpRouter(mcp),
    openapiRouter(),
  ];

  const sharedLimit =
    (config.rateLimitPerMinute > 0 || config.keyRefusalsPerMinute > 0) && config.rateLimitRedisUrl
      ? redisCounter({ url: config.rateLimitRedisUrl, perMinute: Math.max(1, config.rateLimitPerMinute), logger: logger.child({ component: "rate-limit" }) })
      : undefined;

  const app: AppDeps = {
    config,
    logger,
    // Chat answers without search (it degrades to the local corpus), so search's state is reported, not gated on.
    readiness: { ready: () => true, detail: search.readiness.detail },
    listings: {
      // Every provider's models, a named provider's as `<name>/<model>` (graphs/chat/providers.ts).
      models: chat.catalog.providers.listedModels(),
      modelsCreated: 1_700_000_000,
      translations: () => [...TRANSLATIONS],
      theologies: (lang) => listTheologies(prompts, lang),
      profiles: (lang) => listProfiles(prompts, lang),
    },
    routers,
    metrics,
    notFoundPage: pageNotFound(),
    ...(sharedLimit ? { rateLimitCounter: sharedLimit } : {}),
    ...(opts.isDraining ? { isDraining: opts.isDraining } : {}),
  };
  return { app, search, metrics, mcp, inFlight, stop: async () => (await sharedLimit?.close(), await search.stop()) };
}
