import OpenAI, { APIError } from "openai";
import { beforeEach, describe, expect, it } from "vitest";
import type { RealService } from "./service.js";
import { agentSystem, expectLinkedAnswer, expectPlainAnswer, expectToolRoundTrip, INJECTION, KEY, MODEL, QUESTION, reformedLine } from "./expectations.js";

/** The service's extra body fields (spec: ordinary JSON fields beside the standard ones). */
export interface BiblicalExtras {
  theology?: string;
  theology_slug?: string;
  profile?: string;
  profile_slug?: string;
  bible_id?: string;
  book_id?: string;
  chapter?: number;
  verses?: number[];
  max_words?: number;
  skip_preflight?: boolean;
  system_instructions?: string;
  convert_scripture_links?: boolean;
  disable_scripture_links?: boolean;
}

/** The official openai SDK (v6), unmodified; `service()` is the running service, reset between tests. */
export function openaiSdkCases(service: () => RealService) {
  describe("official openai SDK (v6)", () => {
    const client = (apiKey = KEY) => new OpenAI({ baseURL: `${service().url}/v1`, apiKey, maxRetries: 0 });
    let s: RealService;
    beforeEach(() => {
      s = service();
    });

    it("when a question is asked without streaming, then the answer is linked, finishes with stop and reports usage", async () => {
      const { data, response } = await client()
        .chat.completions.create({
          model: MODEL,
          // Parts instead of a string: what the SDK's typed content allows and some apps send.
          messages: [{ role: "user", content: [{ type: "text", text: QUESTION }] }],
          // The SDK sends unknown body keys as they are; typed here through BiblicalExtras.
          theology: "reformed",
          max_words: 120,
          bible_id: "eng-kjv",
        } satisfies OpenAI.ChatCompletionCreateParamsNonStreaming & BiblicalExtras as OpenAI.ChatCompletionCreateParamsNonStreaming)
        .withResponse();
      expect(data.object).toBe("chat.completion");
      expect(data.model).toBe(MODEL);
      expect(data.choices[0]!.finish_reason).toBe("stop");
      expectLinkedAnswer(data.choices[0]!.message.content!, "eng-kjv");
      expect(data.usage!.total_tokens).toBe(data.usage!.prompt_tokens + data.usage!.completion_tokens);
      expect(data.usage!.prompt_tokens).toBeGreaterThan(0);
      expect(response.headers.get("x-prompt-versions")).toMatch(/theology:reformed@[0-9a-f]{12}/);
      expect(agentSystem(s.provider)).toContain(reformedLine());
      expectToolRoundTrip(s.provider);
    });

    it("when streaming with include_usage, then chunks rebuild the linked answer, the last choice says stop and a usage chunk closes", async () => {
      const stream = await client().chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: QUESTION }],
        stream: true,
        stream_options: { include_usage: true },
        profile: "mature_believer",
      } satisfies OpenAI.ChatCompletionCreateParamsStreaming & BiblicalExtras as OpenAI.ChatCompletionCreateParamsStreaming);
      let text = "";
      let finish: string | null = null;
      let role: string | undefined;
      let usage: OpenAI.CompletionUsage | undefined | null;
      const ids = new Set<string>();
      for await (const chunk of stream) {
        ids.add(chunk.id);
        const choice = chunk.choices[0];
        role ??= choice?.delta.role;
        text += choice?.delta.content ?? "";
        finish = choice?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(ids.size).toBe(1);
      expect(role).toBe("assistant");
      expect(finish).toBe("stop");
      expectLinkedAnswer(text);
      expect(usage!.total_tokens).toBe(usage!.prompt_tokens + usage!.completion_tokens);
      expect(usage!.completion_tokens).toBeGreaterThan(0);
    });

    it("when links are switched off by the body field, then references stay plain text", async () => {
      const res = await client().chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: QUESTION }],
        disable_scripture_links: true,
      } satisfies OpenAI.ChatCompletionCreateParamsNonStreaming & BiblicalExtras as OpenAI.ChatCompletionCreateParamsNonStreaming);
      expectPlainAnswer(res.choices[0]!.message.content!);
    });

    it("when the key lacks the sk- prefix, then the SDK throws its AuthenticationError with our code", async () => {
      const err = await client("not-a-key")
        .chat.completions.create({ model: MODEL, messages: [{ role: "user", content: QUESTION }] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((err as APIError).status).toBe(401);
      expect((err as APIError).code).toBe("invalid_api_key");
      expect((err as APIError).type).toBe("invalid_request_error");
      expect(s.provider.chatRequests).toHaveLength(0);
    });

    it("when a streamed request is rejected by preflight, then the SDK throws BadRequestError content_filter before any chunk", async () => {
      const err = await client()
        .chat.completions.create({ model: MODEL, messages: [{ role: "user", content: INJECTION }], stream: true })
        .then(async (stream) => {
          for await (const _ of stream) expect.fail("no chunk expected");
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as APIError).code).toBe("content_filter");
    });
  });
}
