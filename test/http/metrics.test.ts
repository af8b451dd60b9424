import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { createMetrics, type Metrics, type SearchStateSource } from "../../src/metrics.js";
import { listen, type Listening } from "../helpers/listen.js";

function appWith(metrics: Metrics) {
  return createApp({
    config: loadConfig({}),
    logger: createLogger("silent"),
    readiness: { ready: () => true, detail: () => ({}) },
    listings: {
      models: ["gpt-4o-mini", "gpt-4o"],
      modelsCreated: 1700000000,
      translations: () => [],
      theologies: () => [],
      profiles: () => [],
    },
    routers: [],
    metrics,
  });
}

/** The value of one sample line, e.g. sample(text, 'http_requests_total{method="GET",...}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

let metrics: Metrics;
let srv: Listening;

beforeAll(async () => {
  metrics = createMetrics();
  srv = await listen(appWith(metrics));
});
afterAll(() => srv.close());

const scrape = async () => {
  const res = await fetch(`${srv.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.text();
};

describe("GET /metrics", () => {
  it("when requests were served, then they are counted by route pattern and status, never by URL", async () => {
    const secret = "sk-metrics-secret-123";
    await fetch(`${srv.url}/v1/models/gpt-4o`);
    await fetch(`${srv.url}/v1/models/gpt-4o-mini?q=what+about+${secret}`, { headers: { authorization: `Bearer ${secret}` } });
    await fetch(`${srv.url}/v1/models/${secret}`);
    await fetch(`${srv.url}/no/such/${secret}`);
    await fetch(`${srv.url}/v1/models`, { method: "DELETE" });

    const text = await scrape();
    expect(sample(text, 'http_requests_total{method="GET",route="/v1/models/*model",status="200"}')).toBe(2);
    expect(sample(text, 'http_requests_total{method="GET",route="/v1/models/*model",status="404"}')).toBe(1);
    expect(sample(text, 'http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(sample(text, 'http_requests_total{method="DELETE",route="/v1/models",status="405"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/v1/models/*model",status="200"}')).toBe(2);
    expect(text).not.toContain(secret);
    expect(text).not.toContain("what");
  });

  it("when the graph and search record, then provider, preflight, token and search series move", async () => {
    metrics.providerCall("preflight", "ok", 0.2);
    metrics.providerCall("agent", "timeout", 61);
    metrics.preflight("greeting");
    metrics.preflight("skipped");
    metrics.tokens({ prompt_tokens: 120, completion_tokens: 30 });
    metrics.tokens({ prompt_tokens: 5 });
    metrics.search("semantic_hybrid", 0.004);
    metrics.search("direct_passage", 0.0005);

    const text = await scrape();
    expect(sample(text, 'provider_requests_total{provider="default",purpose="preflight",outcome="ok"}')).toBe(1);
    expect(sample(text, 'provider_requests_total{provider="default",purpose="agent",outcome="timeout"}')).toBe(1);
    expect(sample(text, 'provider_request_duration_seconds_bucket{le="60",provider="default",purpose="agent",outcome="timeout"}')).toBe(0);
    expect(sample(text, 'provider_request_duration_seconds_bucket{le="120",provider="default",purpose="agent",outcome="timeout"}')).toBe(1);
    expect(sample(text, 'preflight_outcomes_total{category="greeting"}')).toBe(1);
    expect(sample(text, 'preflight_outcomes_total{category="skipped"}')).toBe(1);
    expect(sample(text, 'preflight_outcomes_total{category="invalid"}')).toBe(0);
    expect(sample(text, 'llm_tokens_total{kind="prompt"}')).toBe(125);
    expect(sample(text, 'llm_tokens_total{kind="completion"}')).toBe(30);
    expect(sample(text, 'scripture_search_duration_seconds_count{type="semantic_hybrid"}')).toBe(1);
    expect(sample(text, 'scripture_search_duration_seconds_bucket{le="0.001",type="direct_passage"}')).toBe(1);
  });

  it("when a caller passes text outside the closed label sets, then it is folded into other", async () => {
    const m = createMetrics({ defaultMetrics: false });
    const leak = "sk-leak what is love";
    m.providerCall(leak as never, leak as never, 1);
    m.providerCall("agent", "ok", 1, leak);
    m.preflight(leak as never);
    m.search(leak as never, 1);
    m.http(leak, `/read/${leak}`, 999, 1);
    const text = await m.registry.metrics();
    expect(text).not.toContain("leak");
    expect(text).toContain('provider_requests_total{provider="default",purpose="other",outcome="other"} 1');
    expect(text).toContain('provider_requests_total{provider="other",purpose="agent",outcome="ok"} 1');
    expect(text).toContain('preflight_outcomes_total{category="other"} 1');
    expect(text).toContain('http_requests_total{method="other",route="other",status="other"} 1');
  });

  it("when search reports its state, then the gauges follow it at each scrape and only name characters reach the index labels", async () => {
    const m = createMetrics({ defaultMetrics: false });
    let status: SearchStateSource = { ready: false, chroma: "unknown" };
    m.watchSearch(() => status);
    let text = await m.registry.metrics();
    expect(text).toMatch(/^scripture_search_ready 0$/m);
    expect(text).toMatch(/^chroma_up 0$/m);
    expect(text).not.toMatch(/^scripture_index_info\{/m);
    status = { ready: true, chroma: "up", index: "scripture-0a1b2c3d-lsa-128-0123456789abcdef", index_version: 2, embedder: "lsa-128-0123456789abcdef" };
    text = await m.registry.metrics();
    expect(text).toMatch(/^scripture_search_ready 1$/m);
    expect(text).toMatch(/^chroma_up 1$/m);
    expect(text).toContain('scripture_index_info{collection="scripture-0a1b2c3d-lsa-128-0123456789abcdef",index_version="2",embedder="lsa-128-0123456789abcdef"} 1');
    status = { ready: false, chroma: "down", index: 'x"} sk-leak', index_version: 3, embedder: "ok" };
    text = await m.registry.metrics();
    expect(text).not.toContain("leak");
    expect(text).toContain('scripture_index_info{collection="other",index_version="3",embedder="ok"} 1');
    expect(text.match(/^scripture_index_info\{/gm)).toHaveLength(1);
  });

  it("when several apps live in one process, then each has its own registry and process metrics", async () => {
    const other = createMetrics();
    const second = await listen(appWith(other));
    try {
      await fetch(`${second.url}/v1/models`);
      const text = await (await fetch(`${second.url}/metrics`)).text();
      expect(sample(text, 'http_requests_total{method="GET",route="/v1/models",status="200"}')).toBe(1);
      expect(sample(text, 'http_requests_total{method="GET",route="/v1/models/*model",status="200"}')).toBeUndefined();
      expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    } finally {
      await second.close();
    }
  });
});
