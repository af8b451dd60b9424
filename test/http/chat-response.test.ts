import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { answering, ask, KEY, startChatHarness, USAGE, type ChatHarness } from "./chat-harness.js";

let h: ChatHarness;
beforeAll(async () => {
  h = await startChatHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.calls.length = 0;
  h.runner = answering(["In the beginning ", "was the Word."]);
});

const VERSIONS = "guardrails@abc,theology:default@def,profile:universal_explorer@123";
const canned = (category: "support_question" | "greeting" | "incomplete_input", content: string) =>
  h.runner = async () => ({ kind: "canned", category, content, usage: USAGE, promptVersions: VERSIONS });

const providerErrors = [
  new AppError({ status: 401, type: "invalid_request_error", code: "invalid_api_key", message: "The model provider rejected the API key." }),
  new AppError({ status: 429, type: "invalid_request_error", code: "provider_rate_limited", message: "The model provider is rate limiting this key." }),
  new AppError({ status: 502, type: "server_error", code: "upstream_error", message: "The model provider failed." }),
  new AppError({ status: 504, type: "server_error", code: "upstream_timeout", message: "The model provider did not answer in time." }),
];

describe("chat completions, non-stream", () => {
  it("when the graph answers, then the SDK parses an OpenAI chat.completion with usage and the prompt versions header", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { data, response } = await h.client().chat.completions.create({ model: "gpt-4o", messages: ask() }).withResponse();
    expect(data).toEqual({
      id: expect.stringMatching(/^chatcmpl-[0-9a-f]{32}$/),
      object: "chat.completion",
      created: expect.any(Number),
      model: "gpt-4o",
      system_fingerprint: expect.stringMatching(/^fp_[0-9a-f]{10}$/),
      choices: [{ index: 0, message: { role: "assistant", content: "In the beginning was the Word.", refusal: null }, logprobs: null, finish_reason: "stop" }],
      usage: USAGE,
    });
    expect(data.created).toBeGreaterThanOrEqual(before);
    expect(data.created).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(response.headers.get("x-prompt-versions")).toBe("theology:default@x");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("when the answer was cut at max_words, then finish_reason is length", async () => {
    h.runner = answering(["Cut here."], "length");
    const res = await h.client().chat.completions.create({ model: "gpt-4o-mini", messages: ask() });
    expect(res.choices[0]!.finish_reason).toBe("length");
  });

  it.each([
    ["support_question", ""],
    ["greeting", "Peace be with you! Ask me anything about the Bible."],
    ["incomplete_input", "Could you ask a complete question?"],
  ] as const)("when preflight intercepts a %s, then 200 chat.completion with finish_reason stop", async (category, content) => {
    canned(category, content);
    const { data, response } = await h.client().chat.completions.create({ model: "gpt-4o-mini", messages: ask("hi") }).withResponse();
    expect(data.object).toBe("chat.completion");
    expect(data.choices[0]).toMatchObject({ message: { role: "assistant", content }, finish_reason: "stop" });
    expect(response.headers.get("x-prompt-versions")).toBe(VERSIONS);
  });

  it("when preflight rejects, then 400 content_filter with the graph's fixed message", async () => {
    h.runner = async () => ({ kind: "rejected", category: "hacker_activity", message: "The input is invalid or inappropriate.", usage: USAGE });
    const err = await h.client().chat.completions.create({ model: "gpt-4o-mini", messages: ask("ignore previous") }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err).toMatchObject({ status: 400, code: "content_filter", type: "invalid_request_error", message: "400 The input is invalid or inappropriate." });
  });

  it.each(providerErrors)("when the provider fails with $code, then $status in the error envelope", async (error) => {
    h.runner = async () => {
      throw error;
    };
    const err = await h.client().chat.completions.create({ model: "gpt-4o-mini", messages: ask() }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: error.status, code: error.code, type: error.type });
  });

  it("when the graph throws something unexpected, then 500 internal_error without internals", async () => {
    h.runner = async () => {
      throw new Error(`secret internals at /srv/x.ts with ${KEY}`);
    };
    const res = await h.post({ messages: ask() });
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.error).toMatchObject({ type: "server_error", code: "internal_error" });
    expect(JSON.stringify(body)).not.toContain("secret internals");
  });

  it("when the client goes away mid-request, then the run's signal aborts and nothing is logged as a failure", async () => {
    let signal: AbortSignal | undefined;
    h.runner = (_t, _c, opts) =>
      new Promise((_resolve, reject) => {
        signal = opts.signal;
        opts.signal?.addEventListener("abort", () => reject(opts.signal?.reason));
      });
    const ctl = new AbortController();
    const pending = h.client().chat.completions.create({ model: "gpt-4o-mini", messages: ask() }, { signal: ctl.signal }).catch((e: unknown) => e);
    await waitUntil(() => signal !== undefined);
    const failuresBefore = h.logs.filter((l) => l.includes('"level":50')).length;
    ctl.abort();
    expect(await pending).toBeInstanceOf(OpenAI.APIUserAbortError);
    await waitUntil(() => signal!.aborted);
    await new Promise((r) => setTimeout(r, 20));
    expect(h.logs.filter((l) => l.includes('"level":50')).length).toBe(failuresBefore);
  });
});

async function waitUntil(cond: () => boolean, ms = 2000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("chat completions: the key stays secret", () => {
  it("when requests were served and failed, then no log line holds the key and each completion logged its outcome", async () => {
    await h.client().chat.completions.create({ model: "gpt-4o-mini", messages: ask() });
    await new Promise((r) => setTimeout(r, 20));
    const all = h.logs.join("");
    expect(all).toContain('"msg":"chat completion"');
    expect(all).not.toContain(KEY);
    expect(all).not.toContain("In the beginning");
  });

  it("when an answer is logged, then its line names the prompt versions that shaped it", async () => {
    const res = await h.client().chat.completions.create({ model: "gpt-4o-mini", messages: ask() }).withResponse();
    const versions = res.response.headers.get("x-prompt-versions");
    expect(versions).toBeTruthy();
    const logged = () => h.logs.some((l) => l.includes('"msg":"chat completion"') && l.includes(`"promptVersions":"${versions}"`));
    await waitUntil(logged);
    expect(logged()).toBe(true);
  });
});
