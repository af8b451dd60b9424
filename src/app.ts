import express, { type RequestHandler, type Router } from "express";
import helmet from "helmet";
import type { Config } from "./config.js";
import type { Logger } from "./logger.js";
import { errorHandler, notFoundHandler } from "./http/error-handler.js";
import { healthRouter, type Readiness } from "./http/health/route.js";
import { listingsRouter, type ListingSources } from "./http/listings/route.js";
import { httpMetrics, metricsRouter } from "./http/metrics/route.js";
import type { Metrics } from "./metrics.js";
import { cors, requestContext } from "./http/middleware.js";
import { keyRedactor } from "./http/key-redaction.js";
import { keyRefusalLimit, memoryCounter, rateLimit, type RateLimitCounter } from "./http/rate-limit.js";
import { jsonBody } from "./http/routes.js";

export interface AppDeps {
  config: Config;
  logger: Logger;
  readiness: Readiness;
  listings: ListingSources;
  /** Feature routers (search, chat, pages), each built from its own dependencies. */
  routers: Router[];
  /** True once shutdown began: new requests get 503 while in-flight ones finish. */
  isDraining?: () => boolean;
  /** Prometheus metrics (src/metrics.ts); when given, every request is recorded and GET /metrics serves them. */
  metrics?: Metrics;
  /** Answers a browser's request for a page no route serves (the pages' HTML 404); others get the JSON 404. */
  notFoundPage?: RequestHandler;
  /** Where the key-less limit and the key refusals count (shared by replicas with RATE_LIMIT_REDIS_URL); this process's memory by default. */
  rateLimitCounter?: RateLimitCounter;
}

/** Builds the Express app without listening, so tests start it on port 0. */
export function createApp(deps: AppDeps) {
  const app = express();
  const isDraining = deps.isDraining ?? (() => false);
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", deps.config.trustProxy);
  app.set("query parser", "simple");

  const prefixes = [deps.config.apiKeyPrefixes, ...(deps.config.providers ?? []).map((p) => p.keyPrefixes)].flatMap((rule) => (Array.isArray(rule) ? rule : []));
  app.use(requestContext(deps.logger, keyRedactor(prefixes)));
  if (deps.metrics) app.use(httpMetrics(deps.metrics));
  app.use(helmet({ contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: "cross-origin" } }));
  app.use(cors(deps.config.corsOrigins));
  // Each route reads its body (src/http/routes.ts) after the checks that come first by contract;
  // a request no route takes has it read here, so a malformed body is told 400/413 before 404.

  app.use(healthRouter(deps.readiness, isDraining));
  if (deps.metrics) app.use(metricsRouter(deps.metrics));
  app.use((req, res, next) => {
    if (!isDraining()) return next();
    res.setHeader("Connection", "close");
    res.status(503).json({
      error: { message: "The service is shutting down; retry shortly.", type: "server_error", code: "service_unavailable", param: null },
    });
  });
  // Chat (completions and responses) is paid for by each caller's own provider key: outside the key-less
  // limit, but a client whose keys the provider keeps refusing is stopped before any work.
  const paidByCaller = (path: string) => path.startsWith("/v1/chat/") || path === "/v1/responses";
  const { rateLimitPerMinute, keyRefusalsPerMinute } = deps.config;
  const counter = rateLimitPerMinute > 0 || keyRefusalsPerMinute > 0 ? (deps.rateLimitCounter ?? memoryCounter()) : undefined;
  if (counter && keyRefusalsPerMinute > 0) {
    const refusals = keyRefusalLimit({ perMinute: keyRefusalsPerMinute, counter });
    app.use((req, res, next) => (req.method === "POST" && paidByCaller(req.path.toLowerCase()) ? refusals(req, res, next) : next()));
  }
  if (counter && rateLimitPerMinute > 0) {
    app.use(rateLimit({ perMinute: rateLimitPerMinute, skip: (req) => paidByCaller(req.path.toLowerCase()), counter }));
  }
  app.use(listingsRouter(deps.listings));
  for (const router of deps.routers) app.use(router);

  app.use(jsonBody);
  if (deps.notFoundPage) app.use(deps.notFoundPage);
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
