import OpenAI, { APIError } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ChatRequest, type FakeProvider, reply, startFakeProvider } from "../fakes/index.js";
import { startService, type RunningService } from "../helpers/service.js";

/**
 * Today's chat parameters on their way to the provider: the token cap under the caller's name for it
 * (with max_tokens for a provider that refuses the newer name), reasoning_effort and service_tier
 * passed on, metadata checked and kept, stream_options refused without a stream, as OpenAI does.
 */
let main: FakeProvider;
let quirky: FakeProvider;
let svc: RunningService;
const KEY = "sk-params-caller-0001";
const QUESTION = "What does the Bible teach about patience?";

beforeAll(async () => {
  [main, quirky] = await Promise.all([startFakeProvider(), startFakeProvider()]);
  svc = await startService({
    provider: main,
    env: { PROVIDER_QUIRKY_BASE_URL: quirky.baseURL, PROVIDER_QUIRKY_MODELS: "old-model", PROVIDER_QUIRKY_KEY_PREFIXES: "*" },
  });
});
afterAll(async () => {
  await svc.close();
  await Promise.all([main.close(), quirky.close()]);
});
beforeEach(() => {
  main.reset();
  quirky.reset();
});

const isAgent = (r: ChatRequest) => r.body.tools !== undefined;
const chat = (body: Record<string, unknown>, model = "gpt-4o-mini") =>
  svc.client(KEY).chat.completions.create({ model, messages: [{ role: "user", content: QUESTION }], ...body } as OpenAI.ChatCompletionCreateParamsNonStreaming);

describe("chat parameters reaching the provider", () => {
  it("when chat sends max_completion_tokens, reasoning_effort and service_tier, then every agent call carries them as sent, and the classifier none of them", async () => {
    const res = await chat({ max_completion_tokens: 900, reasoning_effort: "low", service_tier: "flex", metadata: { app: "study-group" } });
    expect(res.choices[0]!.message.content).toContain("John 3:16");
    const agentCalls = main.chatRequests.filter(isAgent);
    expect(agentCalls.length).toBeGreaterThan(0);
    for (const r of agentCalls) {
      expect(r.body).toMatchObject({ max_completion_tokens: 900, reasoning_effort: "low", service_tier: "flex" });
      expect(r.body).not.toHaveProperty("max_tokens");
      // metadata describes stored completions; this service stores nothing and does not send it on.
      expect(r.body).not.toHaveProperty("metadata");
    }
    for (const r of main.chatRequests.filter((r) => !isAgent(r))) {
      expect(r.body).not.toHaveProperty("max_completion_tokens");
      expect(r.body).not.toHaveProperty("reasoning_effort");
    }
  });

  it("when chat sends max_tokens, then it goes upstream as max_tokens", async () => {
    await chat({ max_tokens: 700 });
    for (const r of main.chatRequests.filter(isAgent)) {
      expect(r.body.max_tokens).toBe(700);
      expect(r.body).not.toHaveProperty("max_completion_tokens");
    }
  });

  it("when a Responses request sets max_output_tokens and reasoning.effort, then the provider gets max_completion_tokens and reasoning_effort", async () => {
    const res = await svc.client(KEY).responses.create({ model: "gpt-4o-mini", input: QUESTION, max_output_tokens: 800, reasoning: { effort: "medium" } });
    expect(res.reasoning?.effort).toBe("medium");
    expect(res.max_output_tokens).toBe(800);
    for (const r of main.chatRequests.filter(isAgent)) expect(r.body).toMatchObject({ max_completion_tokens: 800, reasoning_effort: "medium" });
  });

  it("when the provider refuses max_completion_tokens, then the call is sent again with max_tokens, and later calls send max_tokens from the start", async () => {
    quirky.on(
      (r) => r.body.max_completion_tokens !== undefined,
      reply.error(400, { error: { message: "Unrecognized request argument supplied: max_completion_tokens", type: "invalid_request_error", code: null, param: null } }),
    );
    const first = await chat({ max_completion_tokens: 600 }, "quirky/old-model");
    expect(first.choices[0]!.message.content).toContain("John 3:16");
    const refused = quirky.chatRequests.filter((r) => isAgent(r) && r.body.max_completion_tokens !== undefined);
    expect(refused).toHaveLength(1);
    const plain = quirky.chatRequests.filter((r) => isAgent(r) && r.body.max_tokens === 600);
    expect(plain.length).toBeGreaterThan(0);
    quirky.reset();
    await chat({ max_completion_tokens: 600 }, "quirky/old-model");
    for (const r of quirky.chatRequests.filter(isAgent)) {
      expect(r.body.max_tokens).toBe(600);
      expect(r.body).not.toHaveProperty("max_completion_tokens");
    }
    // The default provider keeps the newer name: quirks are learned per provider.
    await chat({ max_completion_tokens: 600 });
    for (const r of main.chatRequests.filter(isAgent)) expect(r.body.max_completion_tokens).toBe(600);
  });
});

describe("chat parameters refused as OpenAI refuses them", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["stream_options without stream", { stream_options: { include_usage: true } }, "stream_options"],
    ["stream_options with stream false", { stream: false, stream_options: { include_usage: true } }, "stream_options"],
    ["an unknown reasoning_effort", { reasoning_effort: "extreme" }, "reasoning_effort"],
    ["an unknown service_tier", { service_tier: "gold" }, "service_tier"],
    ["metadata with 17 pairs", { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"])) }, "metadata"],
    ["metadata with a value that is not a string", { metadata: { n: 1 } }, "metadata.n"],
  ];
  it.each(cases)("when chat sends %s, then 400 invalid_parameter on %s and the provider is not called", async (_name, body, param) => {
    const err = await chat(body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as APIError).code).toBe("invalid_parameter");
    expect((err as APIError).param).toBe(param);
    expect(main.chatRequests).toHaveLength(0);
  });

  it("when stream_options comes with stream true, then it is honoured", async () => {
    const s = await svc.client(KEY).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: QUESTION }], stream: true, stream_options: { include_usage: true } });
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of s) usage = chunk.usage ?? usage;
    expect(usage!.total_tokens).toBeGreaterThan(0);
  });
});
