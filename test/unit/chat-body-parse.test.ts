import { describe, expect, it } from "vitest";
import { ChatBodySchema, parseChatBody } from "../../src/http/chat/schema.js";

// parseChatBody runs the chat body's schema on the fields a body has (the schema picked down to them): every
// body below must give what the whole schema gives, data or issues, field by field and in the same order.

const messages = [{ role: "user", content: "What does John 3:16 teach?" }];

const BODIES: Record<string, unknown> = {
  "the benchmark's body": { model: "gpt-4o-mini", stream: false, messages },
  "every field set": {
    model: "m",
    messages: [{ role: "system", content: "Be brief." }, { role: "user", content: [{ type: "text", text: "Hi" }] }],
    stream: true,
    stream_options: { include_usage: true },
    book_id: "JHN",
    chapter: 3,
    verses: [16, 17],
    bible_id: "eng-kjv",
    max_words: 120,
    skip_preflight: true,
    theology: "reformed",
    theology_slug: "reformed",
    profile: "pastor",
    profile_slug: "pastor",
    system_instructions: "Quote the KJV.",
    convert_scripture_links: true,
    disable_scripture_links: false,
    verify_quotes: true,
    temperature: 0.3,
    top_p: 0.9,
    max_tokens: 500,
    max_completion_tokens: 400,
    seed: 7,
    user: "u-1",
    presence_penalty: 0.5,
    frequency_penalty: -0.5,
    stop: ["\n\n"],
    n: 1,
  },
  "nulls for not set": { model: null, messages, stream: null, temperature: null, stop: null, stream_options: { include_usage: null } },
  "unknown vendor fields": { messages, x_vendor: { a: 1 }, metadata: "ignored", safe_prompt: true },
  "no messages": { model: "m" },
  "empty messages": { messages: [] },
  "messages not an array": { messages: "hi" },
  "several bad fields, in and out of shape order": { temperature: 9, messages: [{ content: "no role" }], model: "", max_words: 0, chapter: 1.5, stop: ["a", "b", "c", "d", "e"] },
  "wrong types everywhere": { messages, stream: "yes", verses: [0], top_p: "1", reasoning_effort: "extreme", seed: "7", stream_options: { include_usage: "yes" } },
  "a field given as undefined": { messages, temperature: undefined, model: undefined },
};

describe("parseChatBody: the chat body's schema run on the fields a body has", () => {
  for (const [name, body] of Object.entries(BODIES)) {
    it(`when the body has ${name}, then the result is the whole schema's`, () => {
      const ours = parseChatBody(body as object);
      const whole = ChatBodySchema.safeParse(body);
      expect(ours.success).toBe(whole.success);
      if (whole.success) expect(ours.data).toEqual(whole.data);
      else expect(ours.error?.issues).toEqual(whole.error.issues);
      // Asked again (the picked schema now kept), the same.
      expect(parseChatBody(body as object)).toEqual(ours);
    });
  }

  it("when bodies come with more sets of fields than are kept, then every one still gets the whole schema's result", () => {
    const optional = Object.keys(ChatBodySchema.shape).filter((k) => k !== "messages");
    // 100 distinct sets of fields, each with one bad value, past the kept sets.
    for (let i = 0; i < 100; i++) {
      const body: Record<string, unknown> = { messages };
      for (let b = 0; b < optional.length; b++) if ((i >> b) & 1 || b === (i * 7) % optional.length) body[optional[b]!] = b % 3 === 0 ? null : { wrong: true };
      const ours = parseChatBody(body);
      const whole = ChatBodySchema.safeParse(body);
      expect(ours.success).toBe(whole.success);
      expect(ours.error?.issues).toEqual(whole.error?.issues);
    }
  });
});
