import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ask, KEY, startChatHarness, type ChatHarness } from "./chat-harness.js";

let h: ChatHarness;
beforeAll(async () => {
  h = await startChatHarness();
});
afterAll(() => h.close());

const BAD_KEY = "pk-not-a-key-secret-42";
const six = Array.from({ length: 6 }, (_, i) => ({ role: "user", content: `question ${i}` }));

interface Row {
  title: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string | null>;
  status: number;
  code: string;
  param?: string | null;
  type?: string;
  message?: RegExp;
}

const base = { model: "gpt-4o-mini", messages: ask() };
const rows: Row[] = [
  // auth
  { title: "no Authorization header", headers: { Authorization: null }, status: 401, code: "missing_api_key" },
  { title: "a Basic Authorization header", headers: { Authorization: "Basic c2stYWJj" }, status: 401, code: "missing_api_key" },
  { title: "Bearer without a key", headers: { Authorization: "Bearer " }, status: 401, code: "missing_api_key" },
  { title: "a key without the sk- prefix", headers: { Authorization: `Bearer ${BAD_KEY}` }, status: 401, code: "invalid_api_key" },
  { title: "the bare prefix sk-", headers: { Authorization: "Bearer sk-" }, status: 401, code: "invalid_api_key" },
  { title: "no key and an unsupported body", headers: { Authorization: null }, body: { ...base, tools: [] }, status: 401, code: "missing_api_key" },
  // body structure
  { title: "messages missing", body: { model: "gpt-4o-mini" }, status: 400, code: "invalid_request", param: "messages", message: /required/ },
  { title: "messages empty", body: { messages: [] }, status: 400, code: "invalid_request", param: "messages" },
  { title: "messages not an array", body: { messages: "hi" }, status: 400, code: "invalid_request", param: "messages" },
  { title: "a message without role", body: { messages: [{ content: "hi" }] }, status: 400, code: "invalid_request", param: "messages[0].role" },
  { title: "role tool", body: { messages: [...ask(), { role: "tool", content: "x", tool_call_id: "c" }] }, status: 400, code: "invalid_request", param: "messages[1].role" },
  { title: "role function", body: { messages: [{ role: "function", name: "f", content: "x" }] }, status: 400, code: "invalid_request", param: "messages[0].role" },
  { title: "an unknown role", body: { messages: [{ role: "wizard", content: "x" }] }, status: 400, code: "invalid_request", param: "messages[0].role" },
  { title: "content a number", body: { messages: [{ role: "user", content: 42 }] }, status: 400, code: "invalid_request", param: "messages[0].content" },
  { title: "an image part", body: { messages: [{ role: "user", content: [{ type: "text", text: "see" }, { type: "image_url", image_url: { url: "http://x/y.png" } }] }] }, status: 400, code: "unsupported_parameter", param: "messages[0].content[1].type" },
  { title: "an unknown part type", body: { messages: [{ role: "user", content: [{ type: "video", v: 1 }] }] }, status: 400, code: "invalid_request", param: "messages[0].content[0].type" },
  { title: "a text part without text", body: { messages: [{ role: "user", content: [{ type: "text" }] }] }, status: 400, code: "invalid_request", param: "messages[0].content[0].text" },
  { title: "an empty user message", body: { messages: [{ role: "user", content: "   " }] }, status: 400, code: "invalid_request", param: "messages[0].content" },
  { title: "a user message with null content", body: { messages: [{ role: "user", content: null }] }, status: 400, code: "invalid_request", param: "messages[0].content" },
  { title: "the last turn from the assistant", body: { messages: [...ask(), { role: "assistant", content: "Yes." }, { role: "system", content: "Be brief." }] }, status: 400, code: "invalid_request", param: "messages" },
  { title: "only system messages", body: { messages: [{ role: "system", content: "Be brief." }] }, status: 400, code: "invalid_request", param: "messages" },
  { title: "an assistant turn with tool calls", body: { messages: [{ role: "user", content: "a" }, { role: "assistant", content: null, tool_calls: [{ id: "1" }] }, { role: "user", content: "b" }] }, status: 400, code: "invalid_request", param: "messages[1].tool_calls" },
  // unsupported OpenAI fields
  ...["tools", "functions", "tool_choice", "function_call", "function_calling", "parallel_tool_calls"].map((name) => ({
    title: `${name} present`, body: { ...base, [name]: name === "tool_choice" ? "auto" : name === "parallel_tool_calls" ? true : [] }, status: 400, code: "unsupported_parameter", param: name,
  })),
  { title: "n = 2", body: { ...base, n: 2 }, status: 400, code: "unsupported_parameter", param: "n" },
  { title: "logprobs true", body: { ...base, logprobs: true }, status: 400, code: "unsupported_parameter", param: "logprobs" },
  { title: "top_logprobs", body: { ...base, top_logprobs: 2 }, status: 400, code: "unsupported_parameter", param: "top_logprobs" },
  { title: "response_format json_object", body: { ...base, response_format: { type: "json_object" } }, status: 400, code: "unsupported_parameter", param: "response_format" },
  { title: "audio output", body: { ...base, audio: { voice: "alloy", format: "mp3" } }, status: 400, code: "unsupported_parameter", param: "audio" },
  { title: "audio modality", body: { ...base, modalities: ["text", "audio"] }, status: 400, code: "unsupported_parameter", param: "modalities" },
  // contradictions and the header
  { title: "theology and theology_slug differ", body: { ...base, theology: "reformed", theology_slug: "catholic" }, status: 400, code: "invalid_parameter", param: "theology" },
  { title: "profile and profile_slug differ", body: { ...base, profile: "mature_believer", profile_slug: "curious_explorer" }, status: 400, code: "invalid_parameter", param: "profile" },
  { title: "convert and disable links contradict", body: { ...base, convert_scripture_links: true, disable_scripture_links: true }, status: 400, code: "invalid_parameter", param: "convert_scripture_links" },
  { title: "the links header is not a boolean", body: base, headers: { "X-Convert-Scripture-Links": "maybe" }, status: 400, code: "invalid_parameter", param: "X-Convert-Scripture-Links" },
  // parameter values
  ...[0, 2001, 1.5, "300", -3].map((v) => ({ title: `max_words ${JSON.stringify(v)}`, body: { ...base, max_words: v }, status: 400, code: "invalid_parameter", param: "max_words" })),
  { title: "temperature a string", body: { ...base, temperature: "hot" }, status: 400, code: "invalid_parameter", param: "temperature" },
  { title: "temperature 3", body: { ...base, temperature: 3 }, status: 400, code: "invalid_parameter", param: "temperature" },
  { title: "top_p 1.5", body: { ...base, top_p: 1.5 }, status: 400, code: "invalid_parameter", param: "top_p" },
  { title: "five stop sequences", body: { ...base, stop: ["a", "b", "c", "d", "e"] }, status: 400, code: "invalid_parameter", param: "stop" },
  { title: "seed a fraction", body: { ...base, seed: 1.5 }, status: 400, code: "invalid_parameter", param: "seed" },
  { title: "user a number", body: { ...base, user: 5 }, status: 400, code: "invalid_parameter", param: "user" },
  { title: "max_tokens 0", body: { ...base, max_tokens: 0 }, status: 400, code: "invalid_parameter", param: "max_tokens" },
  { title: "max_tokens and max_completion_tokens differ", body: { ...base, max_tokens: 10, max_completion_tokens: 20 }, status: 400, code: "invalid_parameter", param: "max_tokens" },
  { title: "presence_penalty out of range", body: { ...base, presence_penalty: 3 }, status: 400, code: "invalid_parameter", param: "presence_penalty" },
  { title: "an empty model", body: { ...base, model: "" }, status: 400, code: "invalid_parameter", param: "model" },
  { title: "stream a string", body: { ...base, stream: "yes" }, status: 400, code: "invalid_parameter", param: "stream" },
  { title: "skip_preflight a string", body: { ...base, skip_preflight: "true" }, status: 400, code: "invalid_parameter", param: "skip_preflight" },
  { title: "stream_options.include_usage a string", body: { ...base, stream_options: { include_usage: "y" } }, status: 400, code: "invalid_parameter", param: "stream_options.include_usage" },
  { title: "an unknown bible_id", body: { ...base, bible_id: "eng-niv" }, status: 400, code: "invalid_parameter", param: "bible_id", message: /eng-web, eng-kjv, spa-rv1909/ },
  { title: "an unknown book_id", body: { ...base, book_id: "XYZ", chapter: 1 }, status: 400, code: "invalid_parameter", param: "book_id" },
  { title: "a chapter the book lacks", body: { ...base, book_id: "JHN", chapter: 22 }, status: 400, code: "invalid_parameter", param: "chapter" },
  { title: "a verse the chapter lacks", body: { ...base, book_id: "JUD", chapter: 1, verses: [25, 26] }, status: 400, code: "invalid_parameter", param: "verses" },
  { title: "chapter without book_id", body: { ...base, chapter: 3 }, status: 400, code: "invalid_parameter", param: "book_id" },
  { title: "book_id without chapter", body: { ...base, book_id: "JHN" }, status: 400, code: "invalid_parameter", param: "chapter" },
  { title: "verse 0", body: { ...base, book_id: "JHN", chapter: 3, verses: [0] }, status: 400, code: "invalid_parameter", param: "verses[0]" },
  // limits
  { title: "six user messages", body: { messages: six }, status: 429, code: "conversation_limit_exceeded", param: "messages" },
  { title: "a message over 20,000 characters", body: { messages: ask("x".repeat(20_001)) }, status: 400, code: "context_length_exceeded", param: "messages[0].content" },
  { title: "system_instructions over 20,000 characters", body: { ...base, system_instructions: "y".repeat(20_001) }, status: 400, code: "context_length_exceeded", param: "system_instructions" },
  { title: "over 100,000 characters in all", body: { messages: [...Array.from({ length: 6 }, () => ({ role: "system", content: "s".repeat(19_000) })), ...ask()] }, status: 400, code: "context_length_exceeded", param: "messages" },
  // slugs
  { title: "an unknown theology", body: { ...base, theology: "gnostic" }, status: 400, code: "invalid_parameter", param: "theology", message: /GET \/v1\/theologies/ },
  { title: "an unknown theology_slug", body: { ...base, theology_slug: "gnostic" }, status: 400, code: "invalid_parameter", param: "theology_slug", message: /GET \/v1\/theologies/ },
  { title: "an unknown profile", body: { ...base, profile: "sage" }, status: 400, code: "invalid_parameter", param: "profile", message: /GET \/v1\/profiles/ },
  { title: "an unknown profile_slug", body: { ...base, profile_slug: "sage" }, status: 400, code: "invalid_parameter", param: "profile_slug", message: /GET \/v1\/profiles/ },
  // order of checks
  { title: "six user messages and tools (body before limits)", body: { messages: six, tools: [] }, status: 400, code: "unsupported_parameter", param: "tools" },
  { title: "six user messages and an unknown theology (limits before slugs)", body: { messages: six, theology: "gnostic" }, status: 429, code: "conversation_limit_exceeded" },
  { title: "an unknown bible_id and an unknown profile (body before slugs)", body: { ...base, bible_id: "x", profile: "sage" }, status: 400, code: "invalid_parameter", param: "bible_id" },
];

const STATUS_CLASS: Record<number, unknown> = {
  400: OpenAI.BadRequestError,
  401: OpenAI.AuthenticationError,
  429: OpenAI.RateLimitError,
};

describe("chat completions: every refusal reaches the openai SDK as its error class", () => {
  for (const stream of [false, true]) {
    it.each(rows)(`when $title (stream=${stream}), then $status $code`, async (row) => {
      h.calls.length = 0;
      const body = { stream, ...(row.body ?? base) } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;
      const err = await h.client().chat.completions.create(body, { headers: row.headers ?? {} }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(STATUS_CLASS[row.status]);
      const apiErr = err as InstanceType<typeof OpenAI.APIError>;
      expect(apiErr.status).toBe(row.status);
      expect(apiErr.code).toBe(row.code);
      expect(apiErr.type).toBe(row.type ?? "invalid_request_error");
      if (row.param !== undefined) expect(apiErr.param).toBe(row.param);
      if (row.message) expect(apiErr.message).toMatch(row.message);
      expect(apiErr.message).not.toContain(BAD_KEY);
      expect(h.calls).toHaveLength(0);
    });
  }
});

describe("chat completions: refusals outside the SDK's reach", () => {
  it("when over the user-message limit, then the error carries limit and count and tells clients not to retry", async () => {
    const res = await h.post({ messages: [...six, { role: "assistant", content: "a" }, { role: "user", content: "again" }] });
    expect(res.status).toBe(429);
    expect(res.headers.get("x-should-retry")).toBe("false");
    expect((await res.json()).error).toEqual({
      message: expect.stringContaining("at most 5"),
      type: "invalid_request_error",
      code: "conversation_limit_exceeded",
      param: "messages",
      limit: 5,
      count: 7,
    });
  });

  it("when the Content-Type is not JSON, then 400 invalid_request naming application/json", async () => {
    const res = await h.post(JSON.stringify(base), { "content-type": "text/plain" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: "invalid_request", message: expect.stringContaining("application/json") });
  });

  it("when the JSON is malformed, then 400 invalid_request; without a key, 401 first", async () => {
    const bad = await h.post("{oops");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("invalid_request");
    const anon = await h.post("{oops", { authorization: "" });
    expect(anon.status).toBe(401);
    expect((await anon.json()).error.code).toBe("missing_api_key");
  });

  it("when the body is over 1 MB, then 413 request_too_large; without a key, 401 first", async () => {
    const big = { messages: ask("z".repeat(1_100_000)) };
    const res = await h.post(big);
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("request_too_large");
    const anon = await h.post(big, { authorization: `Bearer ${BAD_KEY}` });
    expect(anon.status).toBe(401);
    expect((await anon.json()).error.code).toBe("invalid_api_key");
  });

  it("when the body is a JSON array, then 400 invalid_request", async () => {
    const res = await h.post([base]);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("invalid_request");
  });

  it("when GET is used, then 405 with Allow: POST", async () => {
    const res = await fetch(`${h.url}/v1/chat/completions`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("POST");
  });

  it("when any request was refused, then no key sent appears in any log line", async () => {
    await new Promise((r) => setTimeout(r, 20));
    const all = h.logs.join("");
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(BAD_KEY);
    expect(all).not.toContain("c2stYWJj");
  });
});
