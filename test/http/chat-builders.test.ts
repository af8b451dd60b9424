import { describe, expect, it } from "vitest";
import { readApiKey } from "../../src/http/chat/auth.js";
import { checkLimits, readConversation } from "../../src/http/chat/messages.js";
import { withoutKey } from "../../src/http/chat/redact.js";
import { chunkBody, completionBody, completionMeta, usageChunkBody } from "../../src/http/chat/response.js";
import { sseEvent } from "../../src/http/sse.js";
import type { RawMessage } from "../../src/http/chat/schema.js";

const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };

describe("response builders", () => {
  const meta = completionMeta("gpt-4o", "guardrails@a,theology:default@b,profile:p@c", 1_700_000_123_456);

  it("when a meta is made, then a chatcmpl id, whole seconds and a fingerprint tied to the prompt versions", () => {
    expect(meta).toEqual({ id: expect.stringMatching(/^chatcmpl-[0-9a-f]{32}$/), created: 1_700_000_123, model: "gpt-4o", systemFingerprint: expect.stringMatching(/^fp_[0-9a-f]{10}$/) });
    expect(completionMeta("m", "guardrails@a,theology:default@b,profile:p@c").systemFingerprint).toBe(meta.systemFingerprint);
    expect(completionMeta("m", "guardrails@z").systemFingerprint).not.toBe(meta.systemFingerprint);
    expect(completionMeta("m").systemFingerprint).toBeUndefined();
    expect(completionMeta("m").id).not.toBe(completionMeta("m").id);
  });

  it("when a completion is built, then it has OpenAI's keys in OpenAI's shape", () => {
    expect(completionBody(meta, "Amen.", "length", { ...usage, extra: 1 } as never)).toEqual({
      id: meta.id,
      object: "chat.completion",
      created: 1_700_000_123,
      model: "gpt-4o",
      system_fingerprint: meta.systemFingerprint,
      choices: [{ index: 0, message: { role: "assistant", content: "Amen.", refusal: null }, logprobs: null, finish_reason: "length" }],
      usage,
    });
  });

  it.each([
    [{ role: "assistant", content: "" }, null, false],
    [{ content: "x" }, null, true],
    [{}, "stop", true],
  ] as const)("when a chunk with delta %j is built, then finish_reason and usage follow the options", (delta, finish, includeUsage) => {
    const chunk = chunkBody(meta, delta, finish, includeUsage);
    expect(chunk).toMatchObject({ id: meta.id, object: "chat.completion.chunk", created: meta.created, model: "gpt-4o", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
    expect("usage" in chunk).toBe(includeUsage);
    if (includeUsage) expect(chunk.usage).toBeNull();
  });

  it("when the usage chunk is built, then its choices are empty", () => {
    expect(usageChunkBody(meta, usage)).toMatchObject({ id: meta.id, object: "chat.completion.chunk", choices: [], usage });
  });

  it("when an event is framed, then it is one data line and a blank line, JSON on one line", () => {
    expect(sseEvent({ a: "line\nbreak" })).toBe('data: {"a":"line\\nbreak"}\n\n');
    expect(sseEvent("[DONE]")).toBe("data: [DONE]\n\n");
  });
});

describe("readApiKey", () => {
  it.each([
    [undefined, "missing_api_key"],
    ["", "missing_api_key"],
    ["sk-abc", "missing_api_key"],
    ["Token sk-abc", "missing_api_key"],
    ["Bearer sk-a sk-b", "missing_api_key"],
    ["Bearer abc", "invalid_api_key"],
    ["Bearer SK-abc", "invalid_api_key"],
    ["Bearer sk-", "invalid_api_key"],
  ])("when Authorization is %j, then %s", (header, code) => {
    expect(() => readApiKey(header)).toThrow(expect.objectContaining({ status: 401, code }));
  });

  it.each(["Bearer sk-abc", "bearer sk-abc", "  Bearer   sk-abc  "])("when Authorization is %j, then the key is sk-abc", (header) => {
    expect(readApiKey(header)).toBe("sk-abc");
  });

  it("when the key is refused, then the message does not echo it", () => {
    try {
      readApiKey("Bearer wrong-secret-1");
    } catch (e) {
      expect((e as Error).message).not.toContain("wrong-secret-1");
    }
  });
});

describe("readConversation and checkLimits", () => {
  const m = (role: string, content: RawMessage["content"]): RawMessage => ({ role, content });

  it("when an assistant turn has null content (a client resending a blank reply), then it is an empty turn", () => {
    expect(readConversation([m("user", "a"), m("assistant", null), m("user", "b")]).turns[1]).toEqual({ role: "assistant", content: "" });
  });

  it("when counting, then only user messages count toward the limit", () => {
    const msgs = [m("system", "s"), ...Array.from({ length: 5 }, (_, i) => [m("user", `q${i}`), m("assistant", "a")]).flat(), m("user", "six")];
    const conv = readConversation(msgs);
    expect(conv.userCount).toBe(6);
    expect(() => checkLimits(conv)).toThrow(expect.objectContaining({ status: 429, extra: { limit: 5, count: 6 } }));
    expect(() => checkLimits(readConversation(msgs.slice(0, -2)))).not.toThrow();
  });

  it("when a message is exactly at the size limit, then it passes; one more character fails", () => {
    expect(() => checkLimits(readConversation([m("user", "x".repeat(20_000))]))).not.toThrow();
    expect(() => checkLimits(readConversation([m("user", "x".repeat(20_001))]))).toThrow(expect.objectContaining({ code: "context_length_exceeded" }));
  });
});

describe("withoutKey", () => {
  it("when an error and its cause mention the key, then both are scrubbed", () => {
    const inner = new Error("header sk-secret-9 rejected");
    const outer = new Error("call with sk-secret-9 failed", { cause: inner });
    withoutKey(outer, "sk-secret-9");
    expect(`${outer.message}${outer.stack}${inner.message}${inner.stack}`).not.toContain("sk-secret-9");
    expect(outer.message).toBe("call with [redacted] failed");
  });

  it("when the thrown value is not an object, then it is returned as is", () => {
    expect(withoutKey("plain", "k")).toBe("plain");
  });
});
