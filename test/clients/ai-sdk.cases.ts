import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, generateText, streamText } from "ai";
import { beforeEach, describe, expect, it } from "vitest";
import { match, reply } from "../fakes/index.js";
import type { RealService } from "./service.js";
import { agentSystem, expectLinkedAnswer, expectPlainAnswer, expectToolRoundTrip, INJECTION, KEY, MODEL, QUESTION, reformedLine } from "./expectations.js";

/**
 * The Vercel AI SDK (ai v6). @ai-sdk/openai-compatible is the fit: it copies providerOptions[<name>]
 * into the request body, and includeUsage asks for the usage chunk. @ai-sdk/openai's .chat() works too,
 * but its providerOptions schema drops unknown keys, so there only standard fields and headers reach us.
 */
export function aiSdkCases(service: () => RealService) {
  describe("Vercel AI SDK", () => {
    let s: RealService;
    beforeEach(() => {
      s = service();
    });
    const compatible = (apiKey = KEY) =>
      createOpenAICompatible({ name: "biblical", baseURL: `${s.url}/v1`, apiKey, includeUsage: true }).chatModel(MODEL);

    it("when generateText runs with providerOptions, then the extras arrive and the linked answer ends with stop and usage", async () => {
      const res = await generateText({
        model: compatible(),
        system: "Keep it short.",
        prompt: QUESTION,
        maxRetries: 0,
        providerOptions: { biblical: { theology: "reformed", max_words: 150 } },
      });
      expectLinkedAnswer(res.text);
      expect(res.finishReason).toBe("stop");
      expect(res.usage.totalTokens).toBe(res.usage.inputTokens! + res.usage.outputTokens!);
      expect(res.usage.outputTokens).toBeGreaterThan(0);
      const system = agentSystem(s.provider);
      expect(system).toContain(reformedLine());
      expect(system).toContain("Keep it short.");
      expectToolRoundTrip(s.provider);
    });

    it("when streamText runs, then the text stream is the linked answer, finish reason stop, usage from the include_usage chunk", async () => {
      const result = streamText({
        model: compatible(),
        messages: [{ role: "user", content: [{ type: "text", text: QUESTION }] }],
        maxRetries: 0,
        providerOptions: { biblical: { bible_id: "spa-rv1909", profile: "mature_believer" } },
      });
      let text = "";
      for await (const part of result.textStream) text += part;
      expectLinkedAnswer(text, "spa-rv1909");
      expect(await result.finishReason).toBe("stop");
      const usage = await result.usage;
      expect(usage.totalTokens).toBeGreaterThan(0);
      expect(usage.totalTokens).toBe(usage.inputTokens! + usage.outputTokens!);
    });

    it("when the provider's content filter stops the answer, then streamText's finish reason is content-filter", async () => {
      s.provider.on(match.agent(), reply.text("Ruth was a Moabite", { finishReason: "content_filter" }));
      const result = streamText({ model: compatible(), prompt: "Who was Ruth?", maxRetries: 0 });
      let text = "";
      for await (const part of result.textStream) text += part;
      expect(text).toBe("Ruth was a Moabite");
      expect(await result.finishReason).toBe("content-filter");
    });

    it("when @ai-sdk/openai's chat model streams with the links header, then the answer stays plain", async () => {
      const openai = createOpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, headers: { "X-Convert-Scripture-Links": "false" } });
      const result = streamText({ model: openai.chat(MODEL), prompt: QUESTION, maxRetries: 0 });
      let text = "";
      for await (const part of result.textStream) text += part;
      expectPlainAnswer(text);
      expect(await result.finishReason).toBe("stop");
      expect((await result.usage).totalTokens).toBeGreaterThan(0);
    });

    it("when the key lacks the sk- prefix, then generateText throws APICallError 401 with our error body", async () => {
      const err = await generateText({ model: compatible("not-a-key"), prompt: QUESTION, maxRetries: 0 }).catch((e: unknown) => e);
      expect(APICallError.isInstance(err)).toBe(true);
      const call = err as APICallError;
      expect(call.statusCode).toBe(401);
      expect(call.isRetryable).toBe(false);
      expect(JSON.parse(call.responseBody!).error.code).toBe("invalid_api_key");
    });

    it("when preflight rejects the input, then generateText throws APICallError 400 with code content_filter", async () => {
      const err = await generateText({ model: compatible(), prompt: INJECTION, maxRetries: 0 }).catch((e: unknown) => e);
      expect(APICallError.isInstance(err)).toBe(true);
      expect((err as APICallError).statusCode).toBe(400);
      expect(JSON.parse((err as APICallError).responseBody!).error.code).toBe("content_filter");
    });
  });
}
