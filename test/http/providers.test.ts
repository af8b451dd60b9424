import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ChatRequest, type FakeProvider, match, messageText, reply, startFakeProvider } from "../fakes/index.js";
import { startService, type RunningService } from "../helpers/service.js";

/**
 * One deployment, three providers, each a real HTTP fake: `main` behind OPENAI_BASE_URL, `alt` reached
 * with `alt/<model>` (its own key shape and classifier model), `quirky` reached with `quirky/<model>`,
 * which has the quirks real OpenAI-compatible providers have.
 */
let main: FakeProvider;
let alt: FakeProvider;
let quirky: FakeProvider;
let svc: RunningService;

const SK = "sk-main-caller-0001";
const GSK = "gsk_alt-caller-0001";
const QUESTION = "What does the Bible teach about loving your enemies?";

beforeAll(async () => {
  [main, alt, quirky] = await Promise.all([startFakeProvider(), startFakeProvider(), startFakeProvider()]);
  svc = await startService({
    provider: main,
    env: {
      PROVIDER_ALT_BASE_URL: alt.baseURL,
      PROVIDER_ALT_MODELS: "some-model,other-model",
      PROVIDER_ALT_PREFLIGHT_MODEL: "fast-classifier",
      PROVIDER_ALT_KEY_PREFIXES: "gsk_",
      PROVIDER_QUIRKY_BASE_URL: quirky.baseURL,
      PROVIDER_QUIRKY_MODELS: "odd-model",
      PROVIDER_QUIRKY_KEY_PREFIXES: "*",
    },
  });
});
afterAll(async () => {
  await svc.close();
  await Promise.all([main.close(), alt.close(), quirky.close()]);
});
beforeEach(() => {
  main.reset();
  alt.reset();
  quirky.reset();
});

const ask = (key: string, model: string, stream: boolean) =>
  stream
    ? (async () => {
        const s = await svc.client(key).chat.completions.create({ model, messages: [{ role: "user", content: QUESTION }], stream: true, stream_options: { include_usage: true } });
        let content = "";
        let modelSeen = "";
        let finish: string | null = null;
        let usage: { total_tokens: number } | undefined;
        for await (const chunk of s) {
          modelSeen = chunk.model;
          content += chunk.choices[0]?.delta?.content ?? "";
          finish = chunk.choices[0]?.finish_reason ?? finish;
          if (chunk.usage) usage = chunk.usage;
        }
        return { content, model: modelSeen, finish, usage };
      })()
    : svc
        .client(key)
        .chat.completions.create({ model, messages: [{ role: "user", content: QUESTION }] })
        .then((r) => ({ content: r.choices[0]!.message.content ?? "", model: r.model, finish: r.choices[0]!.finish_reason as string | null, usage: r.usage }));

const isPreflight = (r: ChatRequest) => r.body.response_format !== undefined;

/** The result the quirky provider's model got for its own call of `name` (arguments containing `args`), not the prefetched turn's. */
function resultOf(name: string, args: string): string {
  for (const r of quirky.chatRequests) {
    const call = r.body.messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.function.name === name && c.function.arguments.includes(args));
    const result = call && r.body.messages.find((m) => m.role === "tool" && m.tool_call_id === call.id);
    if (result) return messageText(result);
  }
  throw new Error(`no result of ${name}(${args}) reached the provider`);
}

describe.each([false, true])("providers by model name (stream=%s)", (stream) => {
  it("when the model is alt/some-model, then every call (preflight included) reaches only the alt provider, with some-model and the caller's key", async () => {
    const res = await ask(GSK, "alt/some-model", stream);
    expect(res.content).toMatch(/\[John 3:16\]\(\/read\/JHN\/3\?verse=16\)/);
    expect(res.model).toBe("alt/some-model");
    expect(res.finish).toBe("stop");
    expect(main.chatRequests).toHaveLength(0);
    const calls = alt.chatRequests;
    expect(calls.filter(isPreflight).map((c) => c.body.model)).toEqual(["fast-classifier"]);
    const agentCalls = calls.filter((c) => !isPreflight(c));
    // One agent call answers (the prefetched tool turn is already in it); every one goes to alt.
    expect(agentCalls.length).toBeGreaterThanOrEqual(1);
    for (const c of agentCalls) expect(c.body.model).toBe("some-model");
    for (const c of calls) expect(c.headers.authorization).toBe(`Bearer ${GSK}`);
  });

  it("when the model has no configured prefix, then every call reaches only the default provider with the whole name", async () => {
    for (const model of ["gpt-4o-mini", "openai/gpt-4o"]) {
      main.reset();
      const res = await ask(SK, model, stream);
      expect(res.model).toBe(model);
      expect(alt.chatRequests).toHaveLength(0);
      // The classifier and the agent's one call (the prefetched tool turn is already in it).
      expect(main.chatRequests.length).toBeGreaterThanOrEqual(2);
      for (const c of main.chatRequests.filter((r) => !isPreflight(r))) expect(c.body.model).toBe(model);
      for (const c of main.chatRequests) expect(c.headers.authorization).toBe(`Bearer ${SK}`);
    }
  });
});

describe("providers: keys", () => {
  it("when a key does not have the shape of the routed provider's keys, then 401 invalid_api_key names that provider and no provider is called", async () => {
    const err = await svc
      .client(SK)
      .chat.completions.create({ model: "alt/some-model", messages: [{ role: "user", content: QUESTION }] })
      .catch((e: unknown) => e as { status: number; code: string; message: string });
    expect(err).toMatchObject({ status: 401, code: "invalid_api_key" });
    expect((err as { message: string }).message).toContain("provider 'alt'");
    expect((err as { message: string }).message).not.toContain(SK);
    const back = await svc
      .client(GSK)
      .chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: QUESTION }] })
      .catch((e: unknown) => e as { status: number; code: string });
    expect(back).toMatchObject({ status: 401, code: "invalid_api_key" });
    expect(main.chatRequests.length + alt.chatRequests.length).toBe(0);
  });

  it("when a key fits no configured provider, then it is refused before the body is read", async () => {
    const res = await fetch(`${svc.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer nope", "content-type": "application/json" },
      body: "{ not json",
    });
    // quirky accepts any non-empty key, so only a missing key fails before the body.
    expect(res.status).toBe(400);
    const missing = await fetch(`${svc.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{ not json" });
    expect(missing.status).toBe(401);
  });

  it("when callers of both providers overlap, then no call carries another caller's key or reaches the other provider", async () => {
    const N = 10;
    const keyOf = (i: number, named: boolean) => (named ? `gsk_iso-${i}-${"y".repeat(i % 4)}` : `sk-iso-${i}-${"x".repeat(i % 3)}`);
    await Promise.all(
      Array.from({ length: 2 * N }, async (_, j) => {
        const i = j >> 1;
        const named = j % 2 === 1;
        const client = svc.client(keyOf(i, named));
        const params = { model: named ? "alt/other-model" : "gpt-4o", messages: [{ role: "user" as const, content: `Request ${named ? "alt" : "main"}-${i}: who wrote Romans?` }] };
        if (i % 2 === 0) await client.chat.completions.create(params);
        else for await (const _c of await client.chat.completions.create({ ...params, stream: true })) void _c;
      }),
    );
    const check = (provider: FakeProvider, named: boolean) => {
      const seen = new Set<number>();
      for (const call of provider.chatRequests) {
        const text = call.body.messages.map((m) => messageText(m)).join("\n");
        const m = /Request (alt|main)-(\d+):/.exec(text);
        expect(m?.[1]).toBe(named ? "alt" : "main");
        const i = Number(m?.[2]);
        expect(call.headers.authorization).toBe(`Bearer ${keyOf(i, named)}`);
        seen.add(i);
      }
      expect(seen.size).toBe(N);
    };
    check(main, false);
    check(alt, true);
  });
});

describe("providers: listings, metrics and logs", () => {
  it("when /v1/models is listed, then every provider's models appear, a named provider's as <name>/<model>, and each can be fetched", async () => {
    const list = await svc.client(SK).models.list();
    const ids = list.data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(["gpt-4o-mini", "alt/some-model", "alt/other-model", "quirky/odd-model"]));
    const one = await fetch(`${svc.url}/v1/models/alt/some-model`);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ id: "alt/some-model", object: "model" });
    expect((await fetch(`${svc.url}/v1/models/alt/nope`)).status).toBe(404);
  });

  it("when calls went to a named provider, then metrics and the log line name it and never the key", async () => {
    await ask(GSK, "alt/some-model", false);
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    expect(metrics).toMatch(/provider_requests_total\{provider="alt",purpose="agent",outcome="ok"\} [1-9]/);
    expect(metrics).toMatch(/provider_requests_total\{provider="alt",purpose="preflight",outcome="ok"\} [1-9]/);
    const line = svc.logs.find((l) => l.includes('"chat completion"') && l.includes('"provider":"alt"'));
    expect(line).toBeDefined();
    expect(svc.logs.join("")).not.toContain(GSK);
  });
});

const QUIRK_KEY = "any-shape-key-42";

describe.each([false, true])("provider quirks (stream=%s)", (stream) => {
  it("when the provider rejects stream_options, then the call is sent again without it, the answer arrives, usage is estimated, and later calls skip it", async () => {
    quirky.on(
      (r) => r.body.stream_options !== undefined,
      reply.error(400, { error: { message: "Unrecognized request argument supplied: stream_options", type: "invalid_request_error", code: null, param: null } }),
    );
    const res = await ask(QUIRK_KEY, "quirky/odd-model", stream);
    expect(res.content).toContain("John 3:16");
    expect(res.finish).toBe("stop");
    expect(res.usage?.total_tokens ?? 0).toBeGreaterThan(0);
    const agentCalls = quirky.chatRequests.filter((r) => !isPreflight(r));
    // After the first refusal no call carries stream_options again.
    const firstPlain = agentCalls.findIndex((r) => r.body.stream_options === undefined);
    expect(firstPlain).toBeGreaterThanOrEqual(0);
    for (const r of agentCalls.slice(firstPlain)) expect(r.body.stream_options).toBeUndefined();
    expect(agentCalls.filter((r) => r.body.stream_options !== undefined).length).toBeLessThanOrEqual(1);
  });

  it("when structured output is unsupported, then the classifier asks for the JSON in words and its answer is used", async () => {
    quirky.on((r) => r.body.response_format !== undefined, reply.error(400, { error: { message: "response_format of type json_schema is not supported by this model", type: "invalid_request_error", code: null, param: "response_format" } }));
    quirky.on(match.contains("Reply with one JSON object"), reply.json({ category: "greeting" }));
    const res = await ask(QUIRK_KEY, "quirky/odd-model", stream);
    // The classifier said greeting: a canned reply; the agent's first call, started beside the classifier
    // (PREFLIGHT_MODE=parallel), is not used and no tool round follows.
    expect(res.content.length).toBeGreaterThan(0);
    expect(res.content).not.toContain("God's love is shown");
    expect(res.finish).toBe("stop");
    expect(quirky.chatRequests.filter((r) => (r.body.tools?.length ?? 0) > 0).length).toBeLessThanOrEqual(1);
    const plain = quirky.chatRequests.filter((r) => r.body.response_format === undefined && (r.body.tools?.length ?? 0) === 0);
    expect(plain).toHaveLength(1);
    expect(messageText(plain[0]!.body.messages[0])).toContain('"category"');
  });

  it("when tool-call arguments arrive in a single chunk and the turn has no content, then the tool runs and its result reaches the next turn", async () => {
    quirky.once(match.agent(), reply.toolCall("search_scripture", { query: "love your enemies" }, { argumentPieceSize: 100_000 }));
    const res = await ask(QUIRK_KEY, "quirky/odd-model", stream);
    expect(res.content).toContain("John 3:16");
    expect(res.finish).toBe("stop");
    const toolText = resultOf("search_scripture", "love your enemies");
    expect(toolText.length).toBeGreaterThan(0);
    expect(toolText).toMatch(/Matthew 5|Luke 6|Romans 12/);
  });

  it.each([null, ""] as const)("when a tool-call turn says finish_reason tool_calls with content %j, then the calls run and nothing of that turn reaches the answer", async (content) => {
    quirky.once(match.agent(), reply.toolCall("lookup_passage", { reference: "Romans 12:19" }, { content }));
    const res = await ask(QUIRK_KEY, "quirky/odd-model", stream);
    expect(res.finish).toBe("stop");
    expect(res.content).toContain("John 3:16");
    expect(res.content).not.toMatch(/^null/);
    expect(resultOf("lookup_passage", "Romans 12:19")).toMatch(/Vengeance belongs to me|avenge/i);
  });
});
