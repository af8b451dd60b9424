import OpenAI, { APIError } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ChatError } from "../../graphs/chat/errors.js";
import { answering, KEY, startChatHarness, USAGE, type ChatHarness } from "./chat-harness.js";
import type { z } from "zod";
import { checkStream, collapsedTypes, ResponseSchema, SUCCESS_ORDER } from "./responses-events.js";

let h: ChatHarness;
beforeAll(async () => {
  h = await startChatHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.calls.length = 0;
  h.runner = answering(["In the ", "beginning ", "was the Word."]);
});

const MODEL = "gpt-4o-mini";
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${h.url}/v1/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${KEY}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

/** Every `event:`/`data:` pair of a streamed response, exactly as sent. */
async function rawEvents(body: Record<string, unknown>) {
  const res = await post({ model: MODEL, input: "What does John 1:1 mean?", stream: true, ...body });
  const text = await res.text();
  const blocks = text.split("\n\n").filter((b) => b !== "");
  const events = blocks.map((b) => {
    const [eventLine, dataLine, ...rest] = b.split("\n");
    expect(rest).toEqual([]);
    const data = JSON.parse(dataLine!.replace(/^data: /, "")) as { type: string };
    expect(eventLine).toBe(`event: ${data.type}`);
    return data;
  });
  return { res, text, events };
}

/** The Response an event carries (created, in_progress, completed, incomplete, failed). */
function responseOf(event: unknown) {
  expect(event).toHaveProperty("response");
  return (event as { response: z.infer<typeof ResponseSchema> }).response;
}

async function errorOf(body: unknown, headers?: Record<string, string>) {
  const res = await post(body, headers);
  return { status: res.status, error: ((await res.json()) as { error: Record<string, unknown> }).error };
}

describe("POST /v1/responses, not streamed", () => {
  it("when input is a string, then the graph gets one user turn and the Response holds one completed message with usage in Responses' names", async () => {
    const res = await h.client().responses.create({ model: MODEL, input: "What does John 1:1 mean?" });
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0]!.turns).toEqual([{ role: "user", content: "What does John 1:1 mean?" }]);
    expect(h.calls[0]!.ctx.callerSystem).toBeUndefined();
    ResponseSchema.parse(res);
    expect(res.status).toBe("completed");
    expect(res.output_text).toBe("In the beginning was the Word.");
    expect(res.output).toHaveLength(1);
    expect(res.usage).toMatchObject({ input_tokens: USAGE.prompt_tokens, output_tokens: USAGE.completion_tokens, total_tokens: USAGE.total_tokens });
    expect(res.model).toBe(MODEL);
  });

  it("when input is a message list with instructions, then parts become text, earlier assistant turns stay, and instructions come before the system messages", async () => {
    const res = await h.client().responses.create({
      model: MODEL,
      instructions: "Answer in one paragraph.",
      input: [
        { role: "developer", content: "Plain words, please." },
        { role: "user", content: [{ type: "input_text", text: "Who wrote Romans?" }] },
        { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "Paul wrote it.", annotations: [] }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "And " }, { type: "input_text", text: "to whom?" }] },
      ],
    });
    expect(res.instructions).toBe("Answer in one paragraph.");
    const { turns, ctx } = h.calls[0]!;
    expect(turns).toEqual([
      { role: "user", content: "Who wrote Romans?" },
      { role: "assistant", content: "Paul wrote it." },
      { role: "user", content: "And \nto whom?" },
    ]);
    expect(ctx.callerSystem).toBe("Answer in one paragraph.\n\nPlain words, please.");
  });

  it("when the service's own fields ride in the body, then they reach the contract as in chat", async () => {
    await h.client().responses.create({
      model: MODEL,
      input: "Explain it",
      theology: "Reformed",
      profile: "mature_believer",
      bible_id: "eng-kjv",
      max_words: 80,
      book_id: "JHN",
      chapter: 1,
      verses: [1],
      disable_scripture_links: true,
      skip_preflight: true,
      max_output_tokens: 500,
      temperature: 0.3,
      reasoning: { effort: "low" },
    } as OpenAI.Responses.ResponseCreateParamsNonStreaming);
    const { ctx } = h.calls[0]!;
    expect(ctx).toMatchObject({ theology: "reformed", profile: "mature_believer", bibleId: "eng-kjv", maxWords: 80, convertLinks: false, skipPreflight: true });
    expect(ctx.passage).toEqual({ book: "JHN", chapter: 1, verses: [1] });
    expect(ctx.modelParams).toMatchObject({ temperature: 0.3 });
    expect(ctx.apiKey).toBe(KEY);
  });

  it("when Chat Completions fields ride along (messages, seed, max_tokens), then they are not carried over: input is the conversation", async () => {
    const res = await post({ model: MODEL, input: "Who was Ruth?", messages: [{ role: "user", content: "Ignore this" }], seed: 7, max_tokens: 5 });
    expect(res.status).toBe(200);
    expect(h.calls[0]!.turns).toEqual([{ role: "user", content: "Who was Ruth?" }]);
    expect(h.calls[0]!.ctx.modelParams).toEqual({});
  });

  it("when the answer was cut at max_words, then the Response is incomplete with reason max_output_tokens", async () => {
    h.runner = answering(["Cut here."], "length");
    const res = await h.client().responses.create({ model: MODEL, input: "Tell me everything" });
    expect(res.status).toBe("incomplete");
    expect(res.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(res.output_text).toBe("Cut here.");
  });

  it("when the provider's content filter stopped the answer, then the Response is incomplete with reason content_filter", async () => {
    h.runner = answering(["Partly said."], "content_filter");
    const res = await h.client().responses.create({ model: MODEL, input: "Tell me everything" });
    expect(res.status).toBe("incomplete");
    expect(res.incomplete_details).toEqual({ reason: "content_filter" });
    expect(res.output_text).toBe("Partly said.");
  });

  it("when preflight answers with a canned reply, then it is an ordinary completed Response", async () => {
    h.runner = async () => ({ kind: "canned", category: "greeting", content: "Hello! Ask me about the Bible.", usage: USAGE, promptVersions: "v" });
    const res = await h.client().responses.create({ model: MODEL, input: "hi" });
    expect(res.status).toBe("completed");
    expect(res.output_text).toBe("Hello! Ask me about the Bible.");
  });

  it("when preflight rejects the input, then 400 content_filter as in chat", async () => {
    h.runner = async () => ({ kind: "rejected", category: "hacker_activity", message: "", usage: USAGE });
    const err = await h.client().responses.create({ model: MODEL, input: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as APIError).code).toBe("content_filter");
  });

  it("when store is false and tools is empty with tool_choice auto (what agent frameworks send), then the request is served", async () => {
    const res = await post({ model: MODEL, input: "Who was Ruth?", store: false, tools: [], tool_choice: "auto", parallel_tool_calls: true, include: [], text: { format: { type: "text" } } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { store: boolean }).store).toBe(false);
  });
});

describe("POST /v1/responses, refusals in OpenAI's error shape with chat's codes", () => {
  const cases: [string, Record<string, unknown>, number, string, string | null][] = [
    ["store: true", { store: true }, 400, "unsupported_parameter", "store"],
    ["previous_response_id", { previous_response_id: "resp_123" }, 400, "unsupported_parameter", "previous_response_id"],
    ["conversation", { conversation: "conv_1" }, 400, "unsupported_parameter", "conversation"],
    ["a caller's tool", { tools: [{ type: "function", name: "f", parameters: {} }] }, 400, "unsupported_parameter", "tools"],
    ["a JSON output format", { text: { format: { type: "json_object" } } }, 400, "unsupported_parameter", "text.format"],
    ["max_output_tokens 0", { max_output_tokens: 0 }, 400, "invalid_parameter", "max_output_tokens"],
    ["an unknown theology", { theology: "nope" }, 400, "invalid_parameter", "theology"],
    ["an unknown bible_id", { bible_id: "xx" }, 400, "invalid_parameter", "bible_id"],
    ["no input", { input: undefined }, 400, "invalid_request", "input"],
    ["an empty input list", { input: [] }, 400, "invalid_request", "input"],
    ["an empty user message", { input: [{ role: "user", content: "  " }] }, 400, "invalid_request", "input[0].content"],
    ["a function_call item", { input: [{ type: "function_call", call_id: "c", name: "f", arguments: "{}" }] }, 400, "invalid_request", "input[0].type"],
    ["an item_reference", { input: [{ type: "item_reference", id: "msg_1" }] }, 400, "invalid_request", "input[0]"],
    ["an image part", { input: [{ role: "user", content: [{ type: "input_image", image_url: "https://x/y.png" }] }] }, 400, "unsupported_parameter", "input[0].content[0].type"],
    ["an unknown part", { input: [{ role: "user", content: [{ type: "text_thing", text: "a" }] }] }, 400, "invalid_request", "input[0].content[0].type"],
    ["an assistant turn last", { input: [{ role: "user", content: "a" }, { role: "assistant", content: "b" }] }, 400, "invalid_request", "input"],
    ["a tool role", { input: [{ role: "tool", content: "a" }] }, 400, "invalid_request", "input[0].role"],
  ];
  it.each(cases)("when the body has %s, then %i %s on param %s", async (_name, extra, status, code, param) => {
    const { status: got, error } = await errorOf({ model: MODEL, input: "Who was Ruth?", ...extra });
    expect(got).toBe(status);
    expect(error).toMatchObject({ type: "invalid_request_error", code, param });
    expect(String(error.message)).not.toMatch(/messages\[|max_completion_tokens|response_format|reasoning_effort/);
    expect(h.calls).toHaveLength(0);
  });

  it("when six user turns are sent, then 429 conversation_limit_exceeded with limit and count, and the SDK is told not to retry", async () => {
    const input = Array.from({ length: 11 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `turn ${i}` }));
    const res = await post({ model: MODEL, input });
    expect(res.status).toBe(429);
    expect(res.headers.get("x-should-retry")).toBe("false");
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({ code: "conversation_limit_exceeded", limit: 5, count: 6, param: "input" });
  });

  it("when instructions are too long, then the error names instructions, not a message index", async () => {
    const { status, error } = await errorOf({ model: MODEL, input: "Who was Ruth?", instructions: "x".repeat(20_001) });
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "context_length_exceeded", param: "instructions" });
    expect(error.message).toMatch(/^instructions is 20001 characters/);
  });

  it("when no key is sent, then 401 missing_api_key before the body is read", async () => {
    const res = await fetch(`${h.url}/v1/responses`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("missing_api_key");
  });

  it("when the method is GET, then 405 with Allow: POST", async () => {
    const res = await fetch(`${h.url}/v1/responses`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("POST /v1/responses, streamed", () => {
  it("when the graph answers, then the events follow OpenAI's sequence, validate against the SDK's types, number from 0 and end without [DONE]", async () => {
    const { res, text, events } = await rawEvents({});
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(text).not.toContain("[DONE]");
    const parsed = checkStream(events);
    expect(collapsedTypes(parsed)).toEqual(SUCCESS_ORDER);
    expect(parsed.filter((e) => e.type === "response.output_text.delta").map((e) => (e as { delta: string }).delta)).toEqual(["In the ", "beginning ", "was the Word."]);
    const done = responseOf(parsed.at(-1));
    expect(done.status).toBe("completed");
    expect(done.output[0]).toMatchObject({ status: "completed", content: [{ text: "In the beginning was the Word." }] });
    expect(done.usage?.total_tokens).toBe(USAGE.total_tokens);
    expect(responseOf(parsed[0]).status).toBe("in_progress");
  });

  it("when the SDK streams, then its typed events rebuild the answer and the last is response.completed", async () => {
    const stream = await h.client().responses.create({ model: MODEL, input: "What does John 1:1 mean?", stream: true });
    let text = "";
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.output_text.delta") text += event.delta;
    }
    expect(text).toBe("In the beginning was the Word.");
    expect(types.at(-1)).toBe("response.completed");
  });

  it("when a canned reply arrives without deltas, then it is sent as one delta inside the same sequence", async () => {
    h.runner = async () => ({ kind: "canned", category: "greeting", content: "Hello!", usage: USAGE, promptVersions: "v" });
    const parsed = checkStream((await rawEvents({})).events);
    expect(collapsedTypes(parsed)).toEqual(SUCCESS_ORDER);
  });

  it("when the answer was cut at max_words, then the stream ends in response.incomplete", async () => {
    h.runner = answering(["Cut ", "here."], "length");
    const parsed = checkStream((await rawEvents({})).events);
    expect(collapsedTypes(parsed).at(-1)).toBe("response.incomplete");
    expect(responseOf(parsed.at(-1)).incomplete_details).toEqual({ reason: "max_output_tokens" });
  });

  it("when the provider's content filter stopped the answer, then the stream ends in response.incomplete with reason content_filter", async () => {
    h.runner = answering(["Partly ", "said."], "content_filter");
    const parsed = checkStream((await rawEvents({})).events);
    expect(collapsedTypes(parsed).at(-1)).toBe("response.incomplete");
    expect(responseOf(parsed.at(-1)).incomplete_details).toEqual({ reason: "content_filter" });
  });

  it("when the provider fails after text went out, then an error event with chat's code, then response.failed, and the stream ends", async () => {
    h.runner = async (_t, _c, opts) => {
      opts.onDelta?.("Partial ");
      throw new ChatError("upstream_timeout", "The model provider did not answer in time.");
    };
    const parsed = checkStream((await rawEvents({})).events);
    expect(parsed.map((e) => e.type).slice(-2)).toEqual(["error", "response.failed"]);
    expect(parsed.at(-2)).toMatchObject({ code: "upstream_timeout", message: "The model provider did not answer in time." });
    const failed = responseOf(parsed.at(-1));
    expect(failed.status).toBe("failed");
    expect(failed.error).toEqual({ code: "server_error", message: "The model provider did not answer in time." });
    expect(failed.output[0]).toMatchObject({ status: "incomplete", content: [{ text: "Partial " }] });
  });

  it("when the provider fails before any text, then an ordinary HTTP error, as chat does", async () => {
    h.runner = async () => {
      throw new ChatError("provider_rate_limited", "Slow down.", { retryAfter: "3" });
    };
    const res = await post({ model: MODEL, input: "Who was Ruth?", stream: true });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("provider_rate_limited");
  });
});
