import { AIMessageChunk, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import OpenAI, { APIError } from "openai";
import { beforeEach, describe, expect, it } from "vitest";
import type { RealService } from "./service.js";
import { agentSystem, expectLinkedAnswer, expectToolRoundTrip, INJECTION, KEY, MODEL, QUESTION, reformedLine } from "./expectations.js";

/** LangChain's ChatOpenAI (@langchain/openai 1.5.8) pointed at the service with configuration.baseURL. */
export function langchainCases(service: () => RealService) {
  describe("LangChain ChatOpenAI", () => {
    let s: RealService;
    beforeEach(() => {
      s = service();
    });
    const model = (opts: { apiKey?: string; modelKwargs?: Record<string, unknown> } = {}) =>
      new ChatOpenAI({
        model: MODEL,
        apiKey: opts.apiKey ?? KEY,
        configuration: { baseURL: `${s.url}/v1` },
        maxRetries: 0,
        // modelKwargs is ChatOpenAI's documented way to send fields it does not model itself.
        modelKwargs: opts.modelKwargs ?? {},
      });

    it("when invoked, then the AIMessage holds the linked answer, finish_reason stop and usage_metadata", async () => {
      const msg = await model({ modelKwargs: { theology: "reformed", max_words: 150, skip_preflight: true } }).invoke([
        new SystemMessage("Answer in plain words."),
        new HumanMessage(QUESTION),
      ]);
      expectLinkedAnswer(msg.content as string);
      expect(msg.response_metadata.finish_reason).toBe("stop");
      expect(msg.usage_metadata!.total_tokens).toBe(msg.usage_metadata!.input_tokens + msg.usage_metadata!.output_tokens);
      expect(msg.usage_metadata!.output_tokens).toBeGreaterThan(0);
      const system = agentSystem(s.provider);
      expect(system).toContain(reformedLine());
      expect(system).toContain("Answer in plain words.");
      // skip_preflight reached the adapter: no structured classifier call went upstream.
      expect(s.provider.chatRequests.some((c) => c.body.response_format || c.body.tool_choice)).toBe(false);
      expectToolRoundTrip(s.provider);
    });

    it("when streamed, then the chunks concatenate to the linked answer with stop and the usage the stream reported", async () => {
      let full: AIMessageChunk | undefined;
      for await (const chunk of await model({ modelKwargs: { profile_slug: "curious_explorer" } }).stream([new HumanMessage(QUESTION)])) {
        full = full ? full.concat(chunk) : chunk;
      }
      expectLinkedAnswer(full!.content as string);
      expect(full!.response_metadata.finish_reason).toBe("stop");
      // ChatOpenAI asks for stream_options.include_usage by default (streamUsage); the usage chunk feeds this.
      expect(full!.usage_metadata!.total_tokens).toBeGreaterThan(0);
      const agent = s.provider.chatRequests.find((c) => c.body.tools)!;
      expect(agent.body.stream).toBe(true);
    });

    it("when the key lacks the sk- prefix, then invoke rejects with the openai AuthenticationError tagged MODEL_AUTHENTICATION", async () => {
      const err = await model({ apiKey: "not-a-key" })
        .invoke([new HumanMessage(QUESTION)])
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((err as APIError).code).toBe("invalid_api_key");
      expect((err as { lc_error_code?: string }).lc_error_code).toBe("MODEL_AUTHENTICATION");
    });

    it("when preflight rejects a streamed request, then stream() rejects with BadRequestError content_filter", async () => {
      const err = await (async () => {
        for await (const _ of await model().stream([new HumanMessage(INJECTION)])) expect.fail("no chunk expected");
      })().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as APIError).code).toBe("content_filter");
    });
  });
}
