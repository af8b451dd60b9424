import { AIMessageChunk } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI, ChatOpenAICompletions } from "@langchain/openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type ChatBody, type FakeProvider, match, reply, startFakeProvider } from "./index.js";

let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider();
});
afterAll(() => provider.close());
beforeEach(() => provider.reset());

const chatModel = (model = "gpt-4o-mini") =>
  new ChatOpenAI({ model, apiKey: "sk-langchain-test", maxRetries: 0, configuration: { baseURL: provider.baseURL } });

const searchScripture = tool(async ({ query }) => `results for ${query}`, {
  name: "search_scripture",
  description: "Search the Bible by meaning",
  schema: z.object({ query: z.string().describe("What to look for"), limit: z.number().int().describe("How many") }),
});

const Preflight = z.object({
  category: z.enum(["greeting", "biblical_question", "invalid"]),
  reason: z.string().nullable(),
});

const lastBody = () => provider.chatRequests.at(-1)!.body as ChatBody;

describe("ChatOpenAI against the fake", () => {
  it("when invoked, then the text, finish reason and usage come through", async () => {
    provider.enqueue(reply.text("Love is patient (1 Corinthians 13:4)."));
    const message = await chatModel().invoke("What is love?");
    expect(message.content).toBe("Love is patient (1 Corinthians 13:4).");
    expect(message.response_metadata.finish_reason).toBe("stop");
    expect(message.usage_metadata?.output_tokens).toBe(Math.ceil(37 / 4));
    expect(message.usage_metadata?.input_tokens).toBeGreaterThan(0);
    expect(provider.requests[0]?.headers.authorization).toBe("Bearer sk-langchain-test");
  });

  it("when streamed, then the chunks concatenate to the answer and the usage chunk is read", async () => {
    provider.enqueue(reply.text("Blessed are the meek", { chunks: ["Blessed ", "are ", "the meek"] }));
    const pieces: string[] = [];
    let full: AIMessageChunk | undefined;
    for await (const chunk of await chatModel().stream("Beatitudes?")) {
      pieces.push(String(chunk.content));
      full = full ? full.concat(chunk) : chunk;
    }
    expect(pieces.join("")).toBe("Blessed are the meek");
    expect(pieces).toContain("are ");
    expect(lastBody().stream_options).toEqual({ include_usage: true });
    expect(full?.usage_metadata?.output_tokens).toBe(Math.ceil(20 / 4));
  });

  it("when tools are bound, then tool calls parse in invoke and in stream", async () => {
    const model = chatModel().bindTools([searchScripture]);
    provider.enqueue(reply.toolCall("search_scripture", { query: "mercy", limit: 3 }), reply.toolCall("search_scripture", { query: "mercy", limit: 4 }));
    const invoked = await model.invoke("mercy");
    expect(invoked.tool_calls).toEqual([expect.objectContaining({ name: "search_scripture", args: { query: "mercy", limit: 3 } })]);
    expect(lastBody().tools?.[0]?.function.name).toBe("search_scripture");
    let streamed: AIMessageChunk | undefined;
    for await (const chunk of await model.stream("mercy")) streamed = streamed ? streamed.concat(chunk) : chunk;
    expect(streamed?.tool_calls).toEqual([expect.objectContaining({ name: "search_scripture", args: { query: "mercy", limit: 4 } })]);
  });

  it("when tool-call arguments are invalid JSON, then LangChain reports an invalid tool call", async () => {
    provider.enqueue(reply.toolCall("search_scripture", '{"query": "mer'));
    // LangChain warns "New LangChain packages are available..." whenever every tool call is invalid.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const message = await chatModel().bindTools([searchScripture]).invoke("mercy").finally(() => warn.mockRestore());
    expect(message.tool_calls).toEqual([]);
    expect(message.invalid_tool_calls?.[0]).toMatchObject({ name: "search_scripture", args: '{"query": "mer' });
  });

  it("when structured output uses its default json_schema method, then the scripted object is parsed", async () => {
    provider.on(match.schemaName("preflight"), reply.json({ category: "greeting", reason: null }));
    const result = await chatModel().withStructuredOutput(Preflight, { name: "preflight" }).invoke("hello there");
    expect(result).toEqual({ category: "greeting", reason: null });
    expect(lastBody().response_format).toMatchObject({ type: "json_schema", json_schema: { name: "preflight", strict: true } });
  });

  it("when structured output uses function calling, then the forced function's arguments are parsed", async () => {
    provider.on(match.structured(), reply.json({ category: "invalid", reason: "an email address" }));
    const result = await chatModel().withStructuredOutput(Preflight, { name: "preflight", method: "functionCalling" }).invoke("a@b.c");
    expect(result).toEqual({ category: "invalid", reason: "an email address" });
    expect(lastBody().tool_choice).toEqual({ type: "function", function: { name: "preflight" } });
    expect(lastBody().response_format).toBeUndefined();
  });

  it("when structured output streams, then the JSON arrives in pieces and still parses", async () => {
    provider.enqueue(reply.json({ category: "biblical_question", reason: "asks about a verse of scripture" }));
    const chunks = [];
    for await (const chunk of await chatModel().withStructuredOutput(Preflight, { name: "preflight" }).stream("John 3:16?")) chunks.push(chunk);
    expect(lastBody().stream).toBe(true);
    expect(chunks.at(-1)).toEqual({ category: "biblical_question", reason: "asks about a verse of scripture" });
  });

  it("when nothing is scripted, then the default structured reply satisfies the schema", async () => {
    const result = await chatModel().withStructuredOutput(Preflight, { name: "preflight" }).invoke("Who was Ruth?");
    expect(Preflight.parse(result).category).toBe("biblical_question");
  });

  it("when the provider rejects the key or rate-limits, then LangChain surfaces the status and its error code", async () => {
    provider.enqueue(reply.error(401), reply.error(429, { headers: { "retry-after": "1" } }));
    await expect(chatModel().invoke("x")).rejects.toMatchObject({ status: 401, lc_error_code: "MODEL_AUTHENTICATION" });
    await expect(chatModel().invoke("x")).rejects.toMatchObject({ status: 429, lc_error_code: "MODEL_RATE_LIMIT" });
  });

  it("when a LangChain call is aborted while the fake hangs, then the fake sees its socket close", async () => {
    provider.enqueue(reply.hang());
    const controller = new AbortController();
    const pending = chatModel().invoke("x", { signal: controller.signal });
    await provider.waitFor((p) => p.chatRequests.length === 1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await provider.waitFor((p) => p.stats.abortedRequests === 1);
  });

  it("when structured output by function calling streams, then the forced call's streamed arguments parse", async () => {
    provider.enqueue(reply.json({ category: "greeting", reason: "said hello" }));
    const chunks = [];
    const model = chatModel().withStructuredOutput(Preflight, { name: "preflight", method: "functionCalling" });
    for await (const chunk of await model.stream("hello")) chunks.push(chunk);
    expect(lastBody()).toMatchObject({ stream: true, tool_choice: { type: "function" } });
    expect(chunks.at(-1)).toEqual({ category: "greeting", reason: "said hello" });
  });
});

describe("ChatOpenAICompletions as our model factory builds it (streaming: true, timeout, no retries)", () => {
  const agentModel = (timeout = 2_000) =>
    new ChatOpenAICompletions({ model: "gpt-4o", apiKey: "sk-agent", maxRetries: 0, timeout, streaming: true, streamUsage: true, configuration: { baseURL: provider.baseURL } });

  // Not invoke(): with streaming: true, ChatOpenAI's _generate estimates tokens with tiktoken, which it
  // downloads from tiktoken.pages.dev; offline that retries for minutes. stream() skips the estimate.
  it("when streamed with tools, then text, tool calls and usage aggregate from the fake's chunks", async () => {
    provider.enqueue(reply.toolCall("search_scripture", { query: "hope", limit: 2 }, { text: "Let me search. " }), reply.text("Hope in Romans 15:13."));
    const model = agentModel().bindTools([searchScripture]);
    const collect = async () => {
      let full: AIMessageChunk | undefined;
      for await (const chunk of await model.stream("hope?")) full = full ? full.concat(chunk) : chunk;
      return full!;
    };
    const first = await collect();
    expect(first.content).toBe("Let me search. ");
    expect(first.tool_calls?.[0]).toMatchObject({ name: "search_scripture", args: { query: "hope", limit: 2 } });
    const second = await collect();
    expect(second.content).toBe("Hope in Romans 15:13.");
    expect(second.usage_metadata?.output_tokens).toBe(Math.ceil(21 / 4));
    expect(provider.chatRequests.every((r) => r.body.stream === true && r.body.stream_options?.include_usage === true)).toBe(true);
  });

  it("when no headers come, then its timeout fires; when a stream stalls after headers, then it does not", async () => {
    // The SDK clears its timer once headers arrive: a mid-stream stall needs the caller's own deadline.
    provider.enqueue(reply.hang(), reply.stall(1));
    await expect(agentModel(150).stream("x")).rejects.toMatchObject({ name: "TimeoutError" });
    const controller = new AbortController();
    const stalled = (async () => {
      for await (const chunk of await agentModel(150).stream("x", { signal: controller.signal })) void chunk;
    })();
    const outcome = await Promise.race([stalled.then(() => "settled", () => "settled"), new Promise((r) => setTimeout(() => r("pending"), 450))]);
    expect(outcome).toBe("pending");
    controller.abort();
    await expect(stalled).rejects.toThrow();
    await provider.waitFor((p) => p.stats.abortedRequests === 2);
  });
});
