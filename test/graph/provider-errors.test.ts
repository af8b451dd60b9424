import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { type Matcher, match, reply } from "../fakes/index.js";
import { KEY, startHarness, type Harness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  // Long enough that a loaded machine does not turn a scripted error into a timeout.
  h = await startHarness({ providerTimeoutMs: 1_500 });
});
afterAll(() => h.close());
beforeEach(() => h.provider.reset());

const QUESTION = "What does the Bible teach about patience?";

async function failure(run: Promise<unknown>): Promise<AppError> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  const app = err as AppError;
  expect(app.message).not.toContain(KEY);
  expect(app.message).not.toContain("sk-");
  return app;
}

const sites: [string, Matcher, boolean][] = [
  ["preflight", match.structured(), false],
  ["agent", match.agent(), true],
];

describe.each(sites)("provider failures in the %s call", (_site, where, skipPreflight) => {
  const run = () => h.run(QUESTION, { skipPreflight });

  it.each([401, 403])("when the provider answers %i, then 401 invalid_api_key names the provider", async (status) => {
    h.provider.on(where, reply.error(status, { error: { message: `Incorrect API key provided: ${KEY}` } }));
    const err = await failure(run());
    expect(err).toMatchObject({ status: 401, type: "invalid_request_error", code: "invalid_api_key" });
    expect(err.message).toContain("The default model provider rejected the API key");
    // The provider's address is the deployment's business: the caller sees the configured name only.
    expect(err.message).not.toContain(new URL(h.provider.baseURL).host);
    expect(err.message).not.toMatch(/127\.0\.0\.1|localhost|:\d{2,5}\b/);
  });

  it("when the provider does not know the model, then 400 model_not_found names the model", async () => {
    h.provider.on(where, reply.error(404));
    const err = await failure(run());
    expect(err).toMatchObject({ status: 400, type: "invalid_request_error", code: "model_not_found", param: "model" });
  });

  it("when the provider rate limits, then 429 provider_rate_limited passes Retry-After through", async () => {
    h.provider.on(where, reply.error(429, { headers: { "retry-after": "7" } }));
    const err = await failure(run());
    expect(err).toMatchObject({ status: 429, code: "provider_rate_limited", headers: { "Retry-After": "7" } });
  });

  it("when the provider rate limits without Retry-After, then no header is invented", async () => {
    h.provider.on(where, reply.error(429));
    const err = await failure(run());
    expect(err.headers).toEqual({});
  });

  it.each([500, 503])("when the provider fails with %i, then 502 upstream_error", async (status) => {
    h.provider.on(where, reply.error(status));
    const err = await failure(run());
    expect(err).toMatchObject({ status: 502, type: "server_error", code: "upstream_error" });
  });

  it("when the connection is reset, then 502 upstream_error", async () => {
    h.provider.on(where, reply.reset(0));
    const err = await failure(run());
    expect(err).toMatchObject({ status: 502, code: "upstream_error" });
  });

  it("when the response is not JSON, then 502 upstream_error", async () => {
    h.provider.on(where, reply.malformed(1));
    const err = await failure(run());
    expect(err).toMatchObject({ status: 502, code: "upstream_error" });
  });

  it("when the provider never answers, then 504 upstream_timeout after PROVIDER_TIMEOUT_MS", async () => {
    h.provider.on(where, reply.hang());
    const started = Date.now();
    const err = await failure(run());
    expect(err).toMatchObject({ status: 504, type: "server_error", code: "upstream_timeout" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(Date.now() - started).toBeLessThan(10_000);
    await h.provider.waitFor((p) => p.stats.abortedRequests >= 1, 2_000);
  });

  it("when the provider stalls after the headers, then 504 upstream_timeout", async () => {
    h.provider.on(where, reply.stall(1));
    const err = await failure(run());
    expect(err).toMatchObject({ status: 504, code: "upstream_timeout" });
  });
});

describe("agent stream faults", () => {
  it("when the stream ends without a finish, then 502 upstream_error rather than a silently partial answer", async () => {
    h.provider.on(match.agent(), reply.cut(3));
    const err = await failure(h.run(QUESTION, { skipPreflight: true }));
    expect(err).toMatchObject({ status: 502, code: "upstream_error" });
  });

  it("when the connection is reset in the middle of the stream, then 502 upstream_error", async () => {
    h.provider.on(match.agent(), reply.reset(2, { text: "alpha beta gamma delta" }));
    const err = await failure(h.run(QUESTION, { skipPreflight: true }));
    expect(err).toMatchObject({ status: 502, code: "upstream_error" });
  });

  it("when the stream carries an error event, then 502 upstream_error", async () => {
    h.provider.on(match.agent(), reply.streamError(2));
    const err = await failure(h.run(QUESTION, { skipPreflight: true }));
    expect(err).toMatchObject({ status: 502, code: "upstream_error" });
  });
});

describe("abort", () => {
  it("when the caller aborts mid-answer, then the run rejects with the abort reason and the provider sees the socket close", async () => {
    h.provider.on(match.agent(), reply.text("word ".repeat(400), { chunkDelayMs: 5 }));
    const controller = new AbortController();
    const running = h.run(QUESTION, { skipPreflight: true }, { signal: controller.signal });
    await h.provider.waitFor((p) => p.chatRequests.length === 1 && p.chatRequests[0]!.firstTokenAt !== undefined, 2_000);
    const reason = new Error("client went away");
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    await h.provider.waitFor((p) => p.stats.abortedRequests === 1, 2_000);
    expect(h.provider.chatRequests[0]!.aborted).toBe(true);
  });

  it("when the caller aborts during preflight, then the classifier request is closed too", async () => {
    h.provider.on(match.structured(), reply.hang());
    // The agent's first call, started beside the classifier, is still open when the caller leaves.
    h.provider.on(match.agent(), reply.hang());
    const controller = new AbortController();
    const running = h.run(QUESTION, {}, { signal: controller.signal });
    await h.provider.waitFor((p) => p.chatRequests.length === 2, 2_000);
    controller.abort(new Error("gone"));
    await expect(running).rejects.toThrow("gone");
    await h.provider.waitFor((p) => p.stats.abortedRequests === 2, 2_000);
    expect(h.provider.chatRequests.every((r) => r.aborted)).toBe(true);
  });
});
