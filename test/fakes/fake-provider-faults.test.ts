import OpenAI, { APIError } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeProvider, reply, startFakeProvider } from "./index.js";

let provider: FakeProvider;
let client: OpenAI;

beforeAll(async () => {
  provider = await startFakeProvider();
  client = new OpenAI({ baseURL: provider.baseURL, apiKey: "sk-test-faults", maxRetries: 0, timeout: 2_000 });
});
afterAll(() => provider.close());
beforeEach(() => provider.reset());

const messages = [{ role: "user" as const, content: "What is grace?" }];
const ask = () => client.chat.completions.create({ model: "gpt-4o-mini", messages });
const askStream = () => client.chat.completions.create({ model: "gpt-4o-mini", messages, stream: true });

async function drain(stream: AsyncIterable<OpenAI.ChatCompletionChunk>) {
  const chunks: OpenAI.ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe("HTTP errors", () => {
  it.each([
    [401, OpenAI.AuthenticationError, "invalid_api_key"],
    [403, OpenAI.PermissionDeniedError, null],
    [404, OpenAI.NotFoundError, "model_not_found"],
    [429, OpenAI.RateLimitError, "rate_limit_exceeded"],
    [500, OpenAI.InternalServerError, null],
    [503, OpenAI.InternalServerError, null],
  ])("when the provider answers %i, then the SDK raises its matching error with the OpenAI error object", async (status, errorClass, code) => {
    provider.enqueue(reply.error(status), reply.error(status));
    for (const call of [ask, askStream]) {
      const error = await call().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(errorClass);
      expect(error).toMatchObject({ status, code });
      expect((error as APIError).error).toMatchObject({ type: expect.any(String), message: expect.any(String) });
    }
  });

  it("when the error is customised with headers, then the client sees them and honours Retry-After", async () => {
    provider.enqueue(reply.error(429, { headers: { "retry-after-ms": "150" }, error: { message: "slow down", code: "rate_limit_exceeded" } }), reply.text("ok"));
    const retrying = new OpenAI({ baseURL: provider.baseURL, apiKey: "k", maxRetries: 1 });
    const completion = await retrying.chat.completions.create({ model: "m", messages });
    expect(completion.choices[0]?.message.content).toBe("ok");
    const [first, second] = provider.chatRequests;
    expect(second!.receivedAt - first!.finishedAt!).toBeGreaterThanOrEqual(140);
  });

  it("when a 429 carries Retry-After in seconds, then the header reaches the client", async () => {
    provider.enqueue(reply.error(429, { headers: { "retry-after": "7" } }));
    const error = (await ask().catch((e: unknown) => e)) as APIError;
    expect(error.headers?.get("retry-after")).toBe("7");
  });
});

describe("connection faults", () => {
  it("when the reply hangs, then the client times out and the fake counts the abort", async () => {
    provider.enqueue(reply.hang());
    const quick = new OpenAI({ baseURL: provider.baseURL, apiKey: "k", maxRetries: 0, timeout: 200 });
    await expect(quick.chat.completions.create({ model: "m", messages })).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    await provider.waitFor((p) => p.stats.abortedRequests === 1);
    expect(provider.requests[0]?.aborted).toBe(true);
  });

  it("when the client aborts mid-stream, then its socket to the fake really closes", async () => {
    provider.enqueue(reply.text("one two three four five six", { chunkDelayMs: 100 }));
    const controller = new AbortController();
    const stream = await client.chat.completions.create({ model: "m", messages, stream: true }, { signal: controller.signal });
    const closedBefore = provider.stats.closedSockets;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content === "one ") controller.abort();
    }
    await provider.waitFor((p) => p.stats.abortedRequests === 1 && p.stats.closedSockets > closedBefore);
    expect(provider.requests[0]?.aborted).toBe(true);
  });

  it("when the socket is reset before any byte, then the SDK raises a connection error", async () => {
    provider.enqueue(reply.reset());
    await expect(ask()).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it("when the socket is reset mid-stream, then iteration fails after the chunks already sent", async () => {
    provider.enqueue(reply.reset(2, { text: "alpha beta gamma delta" }));
    const seen: string[] = [];
    const iterate = async () => {
      for await (const chunk of await askStream()) seen.push(chunk.choices[0]?.delta.content ?? "");
    };
    await expect(iterate()).rejects.toThrow();
    expect(seen.join("")).toBe("alpha beta ");
  });

  it("when a stream stalls, then the client waits until it gives up", async () => {
    provider.enqueue(reply.stall(1));
    const controller = new AbortController();
    const seen: string[] = [];
    const timer = setTimeout(() => controller.abort(), 300);
    for await (const chunk of await client.chat.completions.create({ model: "m", messages, stream: true }, { signal: controller.signal })) {
      seen.push(chunk.choices[0]?.delta.content ?? "");
    }
    clearTimeout(timer);
    expect(seen).toEqual(["", "God's "]);
    await provider.waitFor((p) => p.stats.abortedRequests === 1);
  });

  it("when a non-stream body stalls after its headers, then the SDK's timeout does not fire and only an abort ends it", async () => {
    // The SDK's timeout covers the wait for headers only: callers must bound the body themselves.
    provider.enqueue(reply.stall());
    const quick = new OpenAI({ baseURL: provider.baseURL, apiKey: "k", maxRetries: 0, timeout: 100 });
    const controller = new AbortController();
    const pending = quick.chat.completions.create({ model: "m", messages }, { signal: controller.signal });
    const outcome = await Promise.race([pending.then(() => "settled", () => "settled"), new Promise((r) => setTimeout(() => r("pending"), 400))]);
    expect(outcome).toBe("pending");
    controller.abort();
    // Aborting while the body is read surfaces fetch's own AbortError, not the SDK's APIUserAbortError.
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await provider.waitFor((p) => p.stats.abortedRequests === 1);
  });

  it("when the first byte is slow, then the delay is what the client waits", async () => {
    provider.enqueue(reply.text("late", { delayMs: 120 }));
    const started = performance.now();
    await ask();
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    const record = provider.chatRequests[0]!;
    expect(record.firstByteAt! - record.receivedAt).toBeGreaterThanOrEqual(115);
  });
});

describe("broken payloads", () => {
  it("when the stream is cut before [DONE], then the SDK ends quietly without a finish_reason", async () => {
    provider.enqueue(reply.cut(2));
    const chunks = await drain(await askStream());
    expect(chunks).toHaveLength(3);
    expect(chunks.some((c) => c.choices[0]?.finish_reason)).toBe(false);
  });

  it("when the stream is cut after its final chunk, then finish_reason arrives but [DONE] does not", async () => {
    provider.enqueue(reply.cut(1, { withFinish: true }));
    const chunks = await drain(await askStream());
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
  });

  it("when a stream event is not JSON, then iteration throws", async () => {
    provider.enqueue(reply.malformed(1));
    const quiet = new OpenAI({ baseURL: provider.baseURL, apiKey: "k", maxRetries: 0, logLevel: "off" });
    const stream = await quiet.chat.completions.create({ model: "m", messages, stream: true });
    await expect(drain(stream)).rejects.toThrow(SyntaxError);
  });

  it("when a non-stream body is not JSON, then the SDK rejects", async () => {
    provider.enqueue(reply.malformed());
    await expect(ask()).rejects.toThrow();
  });

  it("when a non-stream body is cut short, then the SDK rejects", async () => {
    provider.enqueue(reply.cut());
    await expect(ask()).rejects.toThrow();
  });

  it("when a 200 body carries an error object, as some compatible providers send, then the SDK returns it without choices", async () => {
    provider.enqueue(reply.streamError(0, { error: { message: "upstream overloaded" } }));
    const completion = (await ask()) as unknown as Record<string, unknown>;
    expect(completion.choices).toBeUndefined();
    expect(completion.error).toMatchObject({ message: "upstream overloaded" });
  });

  it("when the stream carries an error event, then the SDK raises an APIError with its message", async () => {
    provider.enqueue(reply.streamError(1, { error: { message: "overloaded", type: "server_error" } }));
    await expect(drain(await askStream())).rejects.toMatchObject({ message: expect.stringContaining("overloaded") });
  });

  it("when tool-call arguments are invalid JSON, then they arrive verbatim", async () => {
    provider.enqueue(reply.toolCall("search", '{"query": "love', {}), reply.toolCall("search", "{not json"));
    const completion = await ask();
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(call.type === "function" && call.function.arguments).toBe('{"query": "love');
    let streamed = "";
    for (const chunk of await drain(await askStream())) streamed += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? "";
    expect(streamed).toBe("{not json");
    expect(() => JSON.parse(streamed)).toThrow();
  });
});
