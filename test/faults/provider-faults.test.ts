import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "../../src/chroma/embedded.js";
import { match, reply, startFakeProvider, type FakeReply, type Matcher } from "../fakes/index.js";
import { startService, type RunningService } from "../helpers/service.js";
import { ask, expectRecovered } from "./fault-kit.js";

const KEY = "sk-test-faults-7c1e90d2a4";
const TIMEOUT_MS = 600;
/** A faulted request must end well within this: twice the provider timeout plus slack on a loaded box. */
const BOUND_MS = 8_000;

let s: RunningService;
const rejections: unknown[] = [];
const onRejection = (err: unknown) => void rejections.push(err);

beforeAll(async () => {
  process.on("unhandledRejection", onRejection);
  s = await startService({ env: { PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) } });
});
afterAll(async () => {
  process.off("unhandledRejection", onRejection);
  await s?.close();
});
beforeEach(() => s.provider.reset());

type Expect = { status: number; code: string; retryAfter?: string | null };

/** Faults before the provider sends any content: the caller gets the contract's HTTP error in both modes. */
const beforeContent: [string, () => FakeReply, Expect][] = [
  ["401", () => reply.error(401, { error: { message: `Incorrect API key provided: ${KEY}` } }), { status: 401, code: "invalid_api_key" }],
  ["403", () => reply.error(403), { status: 401, code: "invalid_api_key" }],
  ["404 unknown model", () => reply.error(404, { error: { message: "The model does not exist", code: "model_not_found" } }), { status: 400, code: "model_not_found" }],
  ["429 without Retry-After", () => reply.error(429), { status: 429, code: "provider_rate_limited", retryAfter: null }],
  ["429 with Retry-After", () => reply.error(429, { headers: { "retry-after": "7" } }), { status: 429, code: "provider_rate_limited", retryAfter: "7" }],
  ["500", () => reply.error(500), { status: 502, code: "upstream_error" }],
  ["503", () => reply.error(503), { status: 502, code: "upstream_error" }],
  ["reset before any byte", () => reply.reset(0), { status: 502, code: "upstream_error" }],
  ["no response (timeout)", () => reply.hang(), { status: 504, code: "upstream_timeout" }],
  ["malformed JSON", () => reply.malformed(0), { status: 502, code: "upstream_error" }],
  ["stalled after headers", () => reply.stall(0), { status: 504, code: "upstream_timeout" }],
];

const calls: [string, Matcher][] = [
  ["preflight", match.structured()],
  ["agent", match.agent()],
];

describe.each(calls)("when the provider fails in the %s call", (_call, where) => {
  describe.each([false, true])("stream=%s", (stream) => {
    it.each(beforeContent)("%s -> the contract's status and code, bounded, and the next request succeeds", async (_name, fault, want) => {
      s.provider.once(where, fault());
      const out = await ask(s.client(KEY), stream);
      expect(out).toMatchObject({ status: want.status, code: want.code, inStream: false });
      if ("retryAfter" in want) expect(out.retryAfter).toBe(want.retryAfter);
      expect(out.message).not.toContain(KEY);
      expect(out.ms).toBeLessThan(BOUND_MS);
      await expectRecovered(s.client(KEY), stream);
    });
  });
});

/**
 * The answer turn (after the tool result) fails after text went out: past the turn gate's 200 held
 * characters, so the caller has already received part of the answer and SSE headers are sent.
 */
const answerTurn = match.all(match.agent(), match.afterToolResult());
const LONG =
  "Patience in the Bible is a fruit of the Spirit, as Galatians 5:22 says, and it grows through trials. " +
  "James 1:3 teaches that the testing of faith produces endurance, and endurance makes a person complete. " +
  "Love is patient and kind, Paul writes in 1 Corinthians 13:4, so patience is love waiting on others.";
const AFTER = 45;
const midStream: [string, () => FakeReply, string][] = [
  ["reset mid-response", () => reply.reset(AFTER, { text: LONG }), "upstream_error"],
  ["SSE cut before [DONE]", () => reply.cut(AFTER, { text: LONG }), "upstream_error"],
  ["malformed event", () => reply.malformed(AFTER, { text: LONG }), "upstream_error"],
  ["stalled stream", () => reply.stall(AFTER, { text: LONG }), "upstream_timeout"],
];

describe("when the answer stream breaks after text was sent", () => {
  it.each(midStream)("%s -> the in-stream error event, then [DONE]; the next request succeeds", async (_name, fault, code) => {
    s.provider.once(answerTurn, fault());
    const out = await ask(s.client(KEY), true);
    expect(out).toMatchObject({ status: 200, inStream: true, code });
    expect(out.text).toContain("Patience in the Bible");
    expect(out.ms).toBeLessThan(BOUND_MS);
    await expectRecovered(s.client(KEY), true);
  });

  it.each(midStream)("%s in a non-stream request -> the contract's HTTP error", async (_name, fault, code) => {
    s.provider.once(answerTurn, fault());
    const out = await ask(s.client(KEY), false);
    expect(out).toMatchObject({ code, inStream: false });
    expect(out.status).toBe(code === "upstream_timeout" ? 504 : 502);
    expect(out.ms).toBeLessThan(BOUND_MS);
    await expectRecovered(s.client(KEY), false);
  });
});

describe("when the provider is not listening at all", () => {
  it.each([false, true])("stream=%s -> 502 upstream_error, and once the provider is up the next request succeeds", async (stream) => {
    const port = await freePort();
    const down = await startService({ env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) } });
    try {
      const out = await ask(down.client(KEY), stream);
      expect(out).toMatchObject({ status: 502, code: "upstream_error", inStream: false });
      expect(out.ms).toBeLessThan(BOUND_MS);
      const provider = await startFakeProvider({ port });
      try {
        await expectRecovered(down.client(KEY), stream);
      } finally {
        await provider.close();
      }
    } finally {
      await down.close();
    }
  });
});

describe("the in-stream error on the wire", () => {
  it("when the answer stream resets, then the raw SSE ends with a data error event and data: [DONE]", async () => {
    s.provider.once(answerTurn, reply.reset(AFTER, { text: LONG }));
    const res = await fetch(`${s.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "What about patience?" }] }),
    });
    expect(res.status).toBe(200);
    const events = (await res.text()).split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    const error = JSON.parse(events.at(-2)!.replace(/^data: /, "")) as { error: { code: string; type: string } };
    expect(error.error).toMatchObject({ code: "upstream_error", type: "server_error" });
  });
});

describe("when the model calls a tool with invalid JSON arguments", () => {
  it.each([false, true])("stream=%s -> the agent is told and still answers", async (stream) => {
    s.provider.once(match.all(match.agent(), match.not(match.afterToolResult())), reply.toolCall("search_scripture", '{"query": "patie'));
    const out = await ask(s.client(KEY), stream);
    expect(out).toMatchObject({ status: 200 });
    expect(out.text).toContain("John 3:16");
    const toolTurn = s.provider.chatRequests.find((r) => r.body.messages.some((m) => m.role === "tool"));
    expect(toolTurn).toBeDefined();
  });
});

describe("when the provider sends one enormous event", () => {
  // 3 MB in one server-sent event: past the transport's 1 MiB event limit (PROVIDER_LIMITS), which keeps
  // the SDK's line reader (it rescans a line for every chunk) from spending seconds of CPU on it.
  const huge = "x".repeat(3_000_000);
  it.each([false, true])("in the agent's answer, stream=%s -> 502 upstream_error, and the next request succeeds", async (stream) => {
    s.provider.once(match.agent(), reply.text(huge, { chunks: [huge] }));
    const out = await ask(s.client(KEY), stream);
    expect(out).toMatchObject({ status: 502, code: "upstream_error", inStream: false });
    expect(out.text).toBe("");
    await expectRecovered(s.client(KEY), stream);
  });
});

describe("after the whole matrix", () => {
  it("no unhandled rejection happened and the app still serves", async () => {
    expect(rejections).toEqual([]);
    const health = await fetch(`${s.url}/healthz`);
    expect(health.status).toBe(200);
    await expectRecovered(s.client(KEY), false);
  });
});
