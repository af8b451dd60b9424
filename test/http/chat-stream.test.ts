import { connect } from "node:net";
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
  h.runner = answering(["In the ", "beginning ", "was the Word."]);
});

async function waitUntil(cond: () => boolean, ms = 2000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The raw events of a streamed response, exactly as sent. */
async function rawStream(body: Record<string, unknown>) {
  const res = await h.post({ messages: ask(), stream: true, ...body });
  const text = await res.text();
  expect(text.endsWith("\n\n")).toBe(true);
  const events = text.slice(0, -2).split("\n\n");
  for (const e of events) expect(e).toMatch(/^data: /);
  const data = events.map((e) => e.slice("data: ".length));
  expect(data.at(-1)).toBe("[DONE]");
  return { res, chunks: data.slice(0, -1).map((d) => JSON.parse(d) as Record<string, any>) };
}

const streamOf = (extra: Record<string, unknown> = {}) =>
  h.client().chat.completions.create({ model: "gpt-4o-mini", messages: ask(), stream: true, ...extra } as OpenAI.ChatCompletionCreateParamsStreaming);

describe("chat completions, stream", () => {
  it("when the graph answers, then OpenAI's framing: SSE headers, one id, role first, one chunk per delta, a final empty delta, [DONE]", async () => {
    const { res, chunks } = await rawStream({});
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("connection")).toBe("keep-alive");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(res.headers.get("x-prompt-versions")).toMatch(/^guardrails@[0-9a-f]+,theology:default@[0-9a-f]+,profile:universal_explorer@[0-9a-f]+$/);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0]!.id).toMatch(/^chatcmpl-/);
    for (const c of chunks) expect(c).toMatchObject({ object: "chat.completion.chunk", model: "gpt-4o-mini", created: expect.any(Number) });
    expect(chunks.map((c) => c.choices[0])).toEqual([
      { index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null },
      { index: 0, delta: { content: "In the " }, logprobs: null, finish_reason: null },
      { index: 0, delta: { content: "beginning " }, logprobs: null, finish_reason: null },
      { index: 0, delta: { content: "was the Word." }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: "stop" },
    ]);
    expect(chunks.some((c) => "usage" in c)).toBe(false);
  });

  it("when include_usage is set, then every chunk has usage null and a last chunk carries usage with no choices", async () => {
    const { chunks } = await rawStream({ stream_options: { include_usage: true } });
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual(USAGE);
    for (const c of chunks.slice(0, -1)) expect(c.usage).toBeNull();
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe("stop");
  });

  it("when read through the SDK, then the deltas add up to the answer and usage arrives", async () => {
    let text = "";
    let usage: unknown;
    let finish: string | null = null;
    for await (const chunk of await streamOf({ stream_options: { include_usage: true } })) {
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("In the beginning was the Word.");
    expect(finish).toBe("stop");
    expect(usage).toEqual(USAGE);
  });

  it("when the graph returns without streaming deltas, then the content goes out as one chunk", async () => {
    h.runner = async () => ({ kind: "answer", content: "Whole.", finishReason: "length", usage: USAGE, promptVersions: "v" });
    const { chunks } = await rawStream({});
    expect(chunks.map((c) => c.choices[0].delta)).toEqual([{ role: "assistant", content: "" }, { content: "Whole." }, {}]);
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe("length");
  });

  it.each([
    ["support_question", "", [{ role: "assistant", content: "" }, {}]],
    ["greeting", "Hello!", [{ role: "assistant", content: "" }, { content: "Hello!" }, {}]],
  ] as const)("when preflight intercepts a %s, then a 200 chunk stream ending in stop", async (category, content, deltas) => {
    h.runner = async () => ({ kind: "canned", category, content, usage: USAGE, promptVersions: "v" });
    const { res, chunks } = await rawStream({});
    expect(res.status).toBe(200);
    expect(chunks.map((c) => c.choices[0].delta)).toEqual(deltas);
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe("stop");
  });

  it("when preflight rejects, then a plain 400 content_filter, not a stream", async () => {
    h.runner = async () => ({ kind: "rejected", category: "invalid", message: "The input is invalid or inappropriate.", usage: USAGE });
    const err = await streamOf().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err).toMatchObject({ status: 400, code: "content_filter" });
  });

  it("when the provider fails before the first token, then a plain HTTP error with the contract's status", async () => {
    h.runner = async () => {
      throw new AppError({ status: 502, type: "server_error", code: "upstream_error", message: "The model provider failed." });
    };
    const res = await h.post({ messages: ask(), stream: true });
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await res.json()).error).toMatchObject({ type: "server_error", code: "upstream_error" });
  });

  it("when the provider fails after the first token, then an error event and [DONE], which the SDK raises as an APIError", async () => {
    h.runner = async (_t, _c, opts) => {
      opts.onDelta?.("Partial ");
      throw new AppError({ status: 504, type: "server_error", code: "upstream_timeout", message: "The model provider did not answer in time." });
    };
    const { res, chunks } = await rawStream({});
    expect(res.status).toBe(200);
    expect(chunks.at(-1)).toEqual({
      error: { message: "The model provider did not answer in time.", type: "server_error", code: "upstream_timeout", param: null },
    });
    let text = "";
    const err = await (async () => {
      for await (const chunk of await streamOf()) text += chunk.choices[0]?.delta.content ?? "";
    })().catch((e: unknown) => e);
    expect(text).toBe("Partial ");
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err).toMatchObject({ code: "upstream_timeout", type: "server_error" });
  });

  it("when something unexpected fails mid-stream, then the event says internal_error without internals and the key is not logged", async () => {
    h.runner = async (_t, _c, opts) => {
      opts.onDelta?.("Partial ");
      throw new Error(`pool exploded near ${KEY}`);
    };
    const { chunks } = await rawStream({});
    expect(chunks.at(-1)!.error).toMatchObject({ type: "server_error", code: "internal_error" });
    expect(JSON.stringify(chunks)).not.toContain("exploded");
    await new Promise((r) => setTimeout(r, 20));
    expect(h.logs.join("")).toContain("pool exploded near [redacted]");
    expect(h.logs.join("")).not.toContain(KEY);
  });

  it("when a delta is emitted, then the client receives it before the run goes on (no buffering)", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h.runner = async (_t, _c, opts) => {
      opts.onDelta?.("first ");
      await Promise.race([gate, new Promise((_, rej) => setTimeout(() => rej(new Error("first delta was not flushed")), 3000))]);
      opts.onDelta?.("second");
      return { kind: "answer", content: "first second", finishReason: "stop", usage: USAGE, promptVersions: "v" };
    };
    const seen: string[] = [];
    for await (const chunk of await streamOf()) {
      const c = chunk.choices[0]?.delta.content;
      if (c) seen.push(c);
      if (c === "first ") release();
    }
    expect(seen).toEqual(["first ", "second"]);
  });

  it("when the client disconnects mid-stream, then the run's signal aborts", async () => {
    let signal: AbortSignal | undefined;
    h.runner = (_t, _c, opts) =>
      new Promise((_resolve, reject) => {
        signal = opts.signal;
        opts.onDelta?.("Once ");
        opts.signal?.addEventListener("abort", () => reject(opts.signal?.reason));
      });
    const stream = await streamOf();
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content === "Once ") break;
    }
    await waitUntil(() => signal?.aborted === true);
    expect(signal!.reason).toMatchObject({ name: "ClientGone" });
  });

  it("when all of the above ran, then no log line holds the caller's key", async () => {
    await new Promise((r) => setTimeout(r, 20));
    expect(h.logs.join("")).toContain('"msg":"chat completion"');
    expect(h.logs.join("")).not.toContain(KEY);
  });
});

/** A raw HTTP/1.1 request with the given Connection header; resolves with what came back and whether the server closed the socket. */
function rawRequest(path: string, body: unknown, connection: string): Promise<{ text: string; closedByServer: boolean }> {
  const { port } = new URL(h.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () =>
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: ${connection}\r\n\r\n${payload}`,
      ),
    );
    let text = "";
    // Well under the server's 65 s keep-alive: a socket still open then was kept open after the last event.
    const timer = setTimeout(() => (socket.destroy(), resolve({ text, closedByServer: false })), 2000);
    socket.on("data", (d) => (text += String(d)));
    socket.on("end", () => (clearTimeout(timer), socket.destroy(), resolve({ text, closedByServer: true })));
    socket.on("error", reject);
  });
}

describe("streams and the client's Connection header", () => {
  it.each([
    ["/v1/chat/completions", { messages: ask(), stream: true }, "data: [DONE]\n\n"],
    ["/v1/responses", { input: "What does John 3:16 mean?", stream: true }, "event: response.completed"],
  ])("when %s is streamed to a client that sent Connection: close, then the server closes the socket after the last event", async (path, body, last) => {
    const { text, closedByServer } = await rawRequest(path, body, "close");
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(text).toContain(last);
    expect(closedByServer).toBe(true);
  });

  it("when a keep-alive client streams, then the socket stays open for its next request", async () => {
    const { text, closedByServer } = await rawRequest("/v1/chat/completions", { messages: ask(), stream: true }, "keep-alive");
    expect(text).toContain("data: [DONE]\n\n");
    expect(text).toMatch(/\r\nconnection: keep-alive\r\n/i);
    expect(closedByServer).toBe(false);
  });
});
