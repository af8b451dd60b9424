import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { PREFLIGHT_CATEGORIES as CHAT_PREFLIGHT_CATEGORIES } from "../graphs/chat/contract.js";

/**
 * Prometheus metrics, one Registry per app so tests can build many apps in one process.
 *
 * Every label value comes from a closed set: anything else is folded into "other". That is what keeps
 * a key, a question or a raw URL out of the exposition even if a caller passes one by mistake, and it
 * keeps the series count bounded.
 */

export const PROVIDER_PURPOSES = ["preflight", "agent"] as const;
export const PROVIDER_OUTCOMES = ["ok", "error", "timeout", "rate_limited", "auth_error", "aborted"] as const;
export const PREFLIGHT_CATEGORIES = [...CHAT_PREFLIGHT_CATEGORIES, "skipped"] as const;
export const SEARCH_TYPES = ["semantic_hybrid", "direct_passage", "keyword"] as const;
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export type ProviderPurpose = (typeof PROVIDER_PURPOSES)[number];
export type ProviderOutcome = (typeof PROVIDER_OUTCOMES)[number];
export type PreflightOutcome = (typeof PREFLIGHT_CATEGORIES)[number];
export type SearchType = (typeof SEARCH_TYPES)[number];

/** What the chat graph and the search code record. `noopMetrics` satisfies it for tests that do not care. */
export interface MetricsRecorder {
  /**
   * One upstream chat-completions call (a whole stream counts as one), with its wall time and the
   * configured provider's name (`default` for OPENAI_BASE_URL; names come from configuration only).
   */
  providerCall(purpose: ProviderPurpose, outcome: ProviderOutcome, seconds: number, provider?: string): void;
  /** The preflight decision of one request; "skipped" when skip_preflight was set. */
  preflight(category: PreflightOutcome): void;
  /** Token usage as the provider reported it (add every call's usage, preflight included). */
  tokens(usage: { prompt_tokens?: number; completion_tokens?: number }): void;
  /** One scripture search (the HTTP endpoint or an agent tool), with its wall time. */
  search(type: SearchType, seconds: number): void;
  /** The quotations of scripture in one answer, by what the quotation check did (docs/grounding.md). */
  quotations?(counts: Partial<Record<QuotationStatus, number>>): void;
}

export const QUOTATION_STATUSES = ["verified", "corrected", "unquoted"] as const;
export type QuotationStatus = (typeof QUOTATION_STATUSES)[number];
/** Provider names as configuration allows them (graphs/chat/providers.ts): anything else is not a label. */
const PROVIDER_LABEL = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export const noopMetrics: MetricsRecorder = {
  providerCall() {},
  preflight() {},
  tokens() {},
  search() {},
  quotations() {},
};

const oneOf = <T extends string>(allowed: readonly T[], value: unknown): T | "other" =>
  typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : "other";

const STATUS = /^[1-5]\d\d$/;
// Route patterns are ours (Express paths), never the request URL, but a wrong caller could still hand
// over anything: only path-pattern characters pass.
const ROUTE = /^[\w/:.*{}-]{1,100}$/;

/** Search's own state as the search service reports it (src/scripture/search/service.ts SearchStatus). */
export interface SearchStateSource {
  ready: boolean;
  chroma: "up" | "down" | "unknown";
  index?: string;
  index_version?: number;
  embedder?: string;
}

/** Collection and embedder names are ours (index.ts), but only name characters pass into a label. */
const NAME_LABEL = /^[A-Za-z0-9._-]{1,200}$/;

export interface Metrics extends MetricsRecorder {
  readonly registry: Registry;
  /** Exposes search's state (read at each scrape): ready, Chroma up, the index in use. */
  watchSearch(source: () => SearchStateSource): void;
  /** One finished HTTP request; `route` is the Express route pattern ("/read/:book_id/:chapter"). */
  http(method: string, route: string, status: number, seconds: number): void;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const PROVIDER_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120];
const SEARCH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export function createMetrics(opts: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency (until the response is done, whole stream included).",
    labelNames: ["method", "route", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const providerCalls = new Counter({
    name: "provider_requests_total",
    help: "Upstream model provider calls by provider, purpose and outcome.",
    labelNames: ["provider", "purpose", "outcome"] as const,
    registers,
  });
  const providerDuration = new Histogram({
    name: "provider_request_duration_seconds",
    help: "Upstream model provider call latency by provider, purpose and outcome.",
    labelNames: ["provider", "purpose", "outcome"] as const,
    buckets: PROVIDER_BUCKETS,
    registers,
  });
  const preflight = new Counter({
    name: "preflight_outcomes_total",
    help: "Preflight classifications by category (skipped when the caller opted out).",
    labelNames: ["category"] as const,
    registers,
  });
  const tokens = new Counter({
    name: "llm_tokens_total",
    help: "Tokens used across all provider calls, by kind.",
    labelNames: ["kind"] as const,
    registers,
  });
  const searchDuration = new Histogram({
    name: "scripture_search_duration_seconds",
    help: "Scripture search latency by type.",
    labelNames: ["type"] as const,
    buckets: SEARCH_BUCKETS,
    registers,
  });

  const quotations = new Counter({
    name: "scripture_quotations_total",
    help: "Quotations of scripture in answers by status: verified (faithful), corrected (replaced by the exact text), unquoted (no such passage: marks removed).",
    labelNames: ["status"] as const,
    registers,
  });

  // Pre-create the closed-set series so dashboards see zeros instead of gaps.
  for (const status of QUOTATION_STATUSES) quotations.inc({ status }, 0);
  for (const category of PREFLIGHT_CATEGORIES) preflight.inc({ category }, 0);
  for (const kind of ["prompt", "completion"]) tokens.inc({ kind }, 0);

  const seconds = (s: number) => (Number.isFinite(s) && s >= 0 ? s : 0);
  const count = (n: unknown) => (typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

  let searchSource: (() => SearchStateSource) | undefined;
  new Gauge({
    name: "scripture_search_ready",
    help: "1 while this replica's scripture search answers (index loaded, Chroma reachable); chat answers either way.",
    registers,
    collect() {
      this.set(searchSource?.().ready ? 1 : 0);
    },
  });
  new Gauge({
    name: "chroma_up",
    help: "1 while this replica reaches Chroma (heartbeat and queries), 0 when it does not or has not tried yet.",
    registers,
    collect() {
      this.set(searchSource?.().chroma === "up" ? 1 : 0);
    },
  });
  new Gauge({
    name: "scripture_index_info",
    help: "The search index in use by this replica: its Chroma collection, index version and embedder (value 1).",
    labelNames: ["collection", "index_version", "embedder"] as const,
    registers,
    collect() {
      this.reset();
      const s = searchSource?.();
      if (!s?.index) return;
      const name = (v: unknown) => (typeof v === "string" && NAME_LABEL.test(v) ? v : "other");
      this.set({ collection: name(s.index), index_version: String(Number(s.index_version) || 0), embedder: name(s.embedder) }, 1);
    },
  });

  return {
    registry,
    watchSearch(source) {
      searchSource = source;
    },
    http(method, route, status, s) {
      const labels = {
        method: oneOf(HTTP_METHODS, method),
        route: ROUTE.test(route) ? route : "other",
        status: STATUS.test(String(status)) ? String(status) : "other",
      };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds(s));
    },
    providerCall(purpose, outcome, s, provider = "default") {
      const labels = { provider: typeof provider === "string" && PROVIDER_LABEL.test(provider) ? provider : "other", purpose: oneOf(PROVIDER_PURPOSES, purpose), outcome: oneOf(PROVIDER_OUTCOMES, outcome) };
      providerCalls.inc(labels);
      providerDuration.observe(labels, seconds(s));
    },
    preflight(category) {
      preflight.inc({ category: oneOf(PREFLIGHT_CATEGORIES, category) });
    },
    tokens(usage) {
      tokens.inc({ kind: "prompt" }, count(usage.prompt_tokens));
      tokens.inc({ kind: "completion" }, count(usage.completion_tokens));
    },
    search(type, s) {
      searchDuration.observe({ type: oneOf(SEARCH_TYPES, type) }, seconds(s));
    },
    quotations(counts) {
      for (const status of QUOTATION_STATUSES) quotations.inc({ status }, count(counts[status]));
    },
  };
}
