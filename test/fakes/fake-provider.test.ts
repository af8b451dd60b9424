import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_ANSWER, type FakeProvider, match, reply, startFakeProvider } from "./index.js";

let provider: FakeProvider;
let client: OpenAI;

beforeAll(async () => {
  provider = await startFakeProvider();
  client = new OpenAI({ baseURL: provider.baseURL, apiKey: "sk-test-fake-key", maxRetries: 0 });
});
afterAll(() => provider.close());
beforeEach(() => provider.reset());

const user = (content: string) => [{ role: "user" as const, content }];
const searchTool = {
  type: "function" as const,
  function: {
    name: "search_scripture",
    description: "Semantic search",
    parameters: {
      type: "object",
      properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1, maximum: 20 } },
      required: ["query", "limit"],
    },
  },
};

describe("chat completions, non-stream", () => {
  it("when asked plainly, then answers in OpenAI's chat.completion shape with usage", async () => {
    provider.enqueue(reply.text("In the beginning God created the heavens and the earth."));
    const completion = await client.chat.completions.create({ model: "gpt-4o-mini", messages: user("Genesis 1?") });
    expect(completion.object).toBe("chat.completion");
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe("gpt-4o-mini");
    expect(completion.system_fingerprint).toBeTruthy();
    expect(completion.created).toBeGreaterThan(1_600_000_000);
    expect(completion.choices[0]?.message).toMatchObject({ role: "assistant", content: "In the beginning God created the heavens and the earth." });
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    const usage = completion.usage!;
    expect(usage.completion_tokens).toBe(Math.ceil(55 / 4));
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
  });

  it("when the same prompt comes twice, then usage is identical and grows with the prompt", async () => {
    const a = await client.chat.completions.create({ model: "m", messages: user("short") });
    const b = await client.chat.completions.create({ model: "m", messages: user("short") });
    const c = await client.chat.completions.create({ model: "m", messages: user("x".repeat(4000)) });
    expect(a.usage).toEqual(b.usage);
    expect(c.usage!.prompt_tokens - a.usage!.prompt_tokens).toBeGreaterThanOrEqual(990);
  });

  it("when scripted with several tool calls, then returns them with finish_reason tool_calls", async () => {
    provider.enqueue(reply.toolCalls([{ name: "search_scripture", args: { query: "love", limit: 3 } }, { name: "get_passage", args: { reference: "1 Cor 13" } }]));
    const completion = await client.chat.completions.create({ model: "m", messages: user("love"), tools: [searchTool] });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBeNull();
    const calls = choice.message.tool_calls!.map((c) => (c.type === "function" ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : []));
    expect(calls).toEqual([
      [expect.stringMatching(/^call_/), "search_scripture", { query: "love", limit: 3 }],
      [expect.stringMatching(/^call_/), "get_passage", { reference: "1 Cor 13" }],
    ]);
    expect(calls[0]![0]).not.toBe(calls[1]![0]);
  });

  it("when response_format is json_schema, then the content is the scripted JSON and parse() accepts it", async () => {
    provider.on(match.schemaName("preflight"), reply.json({ category: "greeting", reason: "hello" }));
    const completion = await client.chat.completions.parse({
      model: "gpt-4o-mini",
      messages: user("hello"),
      response_format: {
        type: "json_schema",
        json_schema: { name: "preflight", strict: true, schema: { type: "object", properties: { category: { type: "string" } } } },
      },
    });
    expect(completion.choices[0]?.message.parsed).toEqual({ category: "greeting", reason: "hello" });
  });
});

describe("chat completions, stream", () => {
  it("when include_usage is set, then chunks follow OpenAI's framing and end with a usage chunk", async () => {
    provider.enqueue(reply.text("For God so loved the world", { chunks: ["For God ", "so loved ", "the world"] }));
    const stream = await client.chat.completions.create({ model: "gpt-4o", messages: user("John 3:16"), stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "gpt-4o")).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toMatchObject({ role: "assistant", content: "" });
    expect(chunks.slice(1, 4).map((c) => c.choices[0]?.delta.content)).toEqual(["For God ", "so loved ", "the world"]);
    expect(chunks[4]?.choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" });
    const last = chunks[5]!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.completion_tokens).toBe(Math.ceil("For God so loved the world".length / 4));
    expect(chunks).toHaveLength(6);
  });

  it("when include_usage is not set, then no usage chunk is sent", async () => {
    const stream = await client.chat.completions.create({ model: "m", messages: user("q"), stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.choices.length === 1 && !c.usage)).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe(DEFAULT_ANSWER);
  });

  it("when tool calls stream, then arguments arrive in pieces that reassemble to the scripted JSON", async () => {
    provider.enqueue(reply.toolCalls([{ name: "a", args: { query: "faith and works" } }, { name: "b", args: { reference: "James 2:14-26" } }], { argumentPieceSize: 5 }));
    const stream = await client.chat.completions.create({ model: "m", messages: user("q"), tools: [searchTool], stream: true });
    const args: string[] = ["", ""];
    const names: string[] = [];
    let finish: string | null | undefined;
    let argumentChunks = 0;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      for (const delta of choice?.delta.tool_calls ?? []) {
        if (delta.function?.name) names[delta.index] = delta.function.name;
        if (delta.function?.arguments) argumentChunks += 1;
        args[delta.index] += delta.function?.arguments ?? "";
      }
      finish = choice?.finish_reason ?? finish;
    }
    expect(names).toEqual(["a", "b"]);
    expect(args.map((a) => JSON.parse(a))).toEqual([{ query: "faith and works" }, { reference: "James 2:14-26" }]);
    expect(argumentChunks).toBeGreaterThan(6);
    expect(finish).toBe("tool_calls");
  });

  it("when the reply is cut by the token limit, then finish_reason is length in both modes", async () => {
    provider.on(match.any(), reply.text("In the beginning", { finishReason: "length" }));
    const plain = await client.chat.completions.create({ model: "m", messages: user("q") });
    expect(plain.choices[0]?.finish_reason).toBe("length");
    const stream = await client.chat.completions.create({ model: "m", messages: user("q"), stream: true });
    const reasons = [];
    for await (const chunk of stream) reasons.push(chunk.choices[0]?.finish_reason);
    expect(reasons.at(-1)).toBe("length");
  });

  it("when chunkDelayMs is set, then chunks are spread over time", async () => {
    provider.enqueue(reply.text("a b c d", { chunkDelayMs: 30 }));
    const started = Date.now();
    const stream = await client.chat.completions.create({ model: "m", messages: user("q"), stream: true });
    for await (const chunk of stream) void chunk;
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 30 - 5);
    const record = provider.chatRequests[0]!;
    expect(record.firstTokenAt! - record.firstByteAt!).toBeGreaterThanOrEqual(25);
  });
});

describe("scripting and recording", () => {
  it("when rules, a queue and the default overlap, then rules win, then the queue, then the default", async () => {
    provider.on(match.lastUser("rule"), reply.text("from rule"), { times: 1 }).enqueue(reply.text("queued 1"), reply.text("queued 2"));
    const ask = async (q: string) => (await client.chat.completions.create({ model: "m", messages: user(q) })).choices[0]?.message.content;
    expect(await ask("rule please")).toBe("from rule");
    expect(await ask("rule please")).toBe("queued 1");
    expect(await ask("x")).toBe("queued 2");
    expect(await ask("x")).toBe(DEFAULT_ANSWER);
  });

  it("when unscripted, then the default plays a permissive preflight, one tool call, then an answer", async () => {
    const preflight = await client.chat.completions.create({
      model: "m",
      messages: user("Who was Moses?"),
      response_format: {
        type: "json_schema",
        json_schema: { name: "p", schema: { type: "object", properties: { category: { type: "string", enum: ["greeting", "biblical_question"] }, confidence: { type: "number", minimum: 0, maximum: 1 } } } },
      },
    });
    expect(JSON.parse(preflight.choices[0]!.message.content!)).toEqual({ category: "biblical_question", confidence: 0.9 });
    const toolTurn = await client.chat.completions.create({ model: "m", messages: user("Who was Moses?"), tools: [searchTool] });
    const call = toolTurn.choices[0]!.message.tool_calls![0]!;
    expect(call.type === "function" && [call.function.name, JSON.parse(call.function.arguments)]).toEqual(["search_scripture", { query: "moses", limit: 5 }]);
    const answer = await client.chat.completions.create({
      model: "m",
      tools: [searchTool],
      messages: [...user("Who was Moses?"), toolTurn.choices[0]!.message, { role: "tool", tool_call_id: call.id, content: "Exodus 3" }],
    });
    expect(answer.choices[0]?.message.content).toContain("John 3:16");
  });

  it("when a rule says normal with a delay, then the default answer comes late", async () => {
    provider.on(match.any(), reply.normal({ delayMs: 60 }));
    const started = performance.now();
    const completion = await client.chat.completions.create({ model: "m", messages: user("q") });
    expect(completion.choices[0]?.message.content).toBe(DEFAULT_ANSWER);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it("when a request arrives, then method, path, key, body and timings are recorded", async () => {
    provider.once(match.all(match.model("gpt-4o"), match.system("guardrails")), (r) => reply.text(`seen ${r.body.messages.length}`));
    const completion = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "system", content: "guardrails first" }, ...user("hi")] });
    expect(completion.choices[0]?.message.content).toBe("seen 2");
    const [record] = provider.requests;
    expect(record).toMatchObject({ method: "POST", path: "/v1/chat/completions", aborted: false, replyKind: "text" });
    expect(record?.headers.authorization).toBe("Bearer sk-test-fake-key");
    expect(record?.body).toMatchObject({ model: "gpt-4o", messages: [{ role: "system" }, { role: "user", content: "hi" }] });
    expect(record!.finishedAt!).toBeGreaterThanOrEqual(record!.receivedAt);
    expect(provider.stats.chatRequests).toBe(1);
  });

  it("when models are listed, then the OpenAI list shape comes back", async () => {
    const ids = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain("gpt-4o-mini");
    expect((await client.models.retrieve("gpt-4o")).object).toBe("model");
  });
});

describe("embeddings", () => {
  it("when the SDK asks with its default base64 encoding, then it decodes unit vectors of the default size", async () => {
    const result = await client.embeddings.create({ model: "text-embedding-3-small", input: ["love your neighbour", "love your enemies", "genealogy of Esau"] });
    expect(provider.requests[0]?.body).toMatchObject({ encoding_format: "base64" });
    const [a, b, c] = result.data.map((d) => d.embedding);
    expect(a).toHaveLength(64);
    const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!));
    expect(result.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it("when float encoding and dimensions are asked, then plain arrays of that size come back, the same each time", async () => {
    const ask = () => client.embeddings.create({ model: "e", input: "grace", encoding_format: "float", dimensions: 16 });
    const [first, second] = await Promise.all([ask(), ask()]);
    expect(first.data[0]?.embedding).toHaveLength(16);
    expect(first.data[0]?.embedding).toEqual(second.data[0]?.embedding);
    const base64 = await client.embeddings.create({ model: "e", input: "grace", dimensions: 16 });
    base64.data[0]!.embedding.forEach((v, i) => expect(v).toBeCloseTo(first.data[0]!.embedding[i]!, 6));
  });

  it("when faults are queued for embeddings, then they play in order and vectors follow", async () => {
    provider.enqueueEmbeddings(reply.error(500), reply.reset(), reply.malformed(), reply.normal({ delayMs: 80 }));
    const embed = () => client.embeddings.create({ model: "e", input: "grace" });
    await expect(embed()).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    await expect(embed()).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
    await expect(embed()).rejects.toThrow();
    const started = performance.now();
    expect((await embed()).data[0]?.embedding).toHaveLength(64);
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
    expect(provider.requests.map((r) => r.replyKind)).toEqual(["error", "reset", "malformed", "normal"]);
  });

  it("when input is missing, then a 400 in the OpenAI error shape", async () => {
    await expect(client.embeddings.create({ model: "e", input: [] as string[] })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
  });
});
