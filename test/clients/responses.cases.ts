import { createOpenAI } from "@ai-sdk/openai";
import { Agent, OpenAIProvider, Runner, setTracingDisabled, tool } from "@openai/agents";
import { APICallError, generateText, streamText } from "ai";
import OpenAI, { APIError } from "openai";
import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { match, reply } from "../fakes/index.js";
import { checkStream, collapsedTypes, ResponseSchema, SUCCESS_ORDER } from "../http/responses-events.js";
import type { BiblicalExtras } from "./openai-sdk.cases.js";
import type { RealService } from "./service.js";
import { agentSystem, expectLinkedAnswer, expectToolRoundTrip, INJECTION, KEY, MODEL, QUESTION, reformedLine } from "./expectations.js";

const sixUserTurns = Array.from({ length: 11 }, (_, i) => ({ role: i % 2 ? ("assistant" as const) : ("user" as const), content: `Who was Moses? (${i})` }));

/** POST /v1/responses through the clients that speak it: the openai SDK, the Vercel AI SDK, the OpenAI Agents SDK. */
export function responsesCases(service: () => RealService) {
  let s: RealService;
  beforeEach(() => {
    s = service();
  });

  describe("openai SDK responses.create", () => {
    const client = (opts: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) =>
      new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 0, ...opts });

    it("when asked with instructions and a message list, then output_text is the linked answer, the instructions reach the agent and usage is in Responses' names", async () => {
      const res = await client().responses.create({
        model: MODEL,
        instructions: "Answer in plain words.",
        input: [
          { role: "user", content: [{ type: "input_text", text: "Who wrote the Gospel of John?" }] },
          { role: "assistant", content: "The apostle John, by tradition." },
          { role: "user", content: [{ type: "input_text", text: QUESTION }] },
        ],
        theology: "reformed",
        bible_id: "eng-kjv",
      } satisfies OpenAI.Responses.ResponseCreateParamsNonStreaming & BiblicalExtras as OpenAI.Responses.ResponseCreateParamsNonStreaming);
      ResponseSchema.parse(res);
      expect(res.status).toBe("completed");
      expectLinkedAnswer(res.output_text, "eng-kjv");
      expect(res.usage!.total_tokens).toBe(res.usage!.input_tokens + res.usage!.output_tokens);
      expect(res.usage!.output_tokens).toBeGreaterThan(0);
      const system = agentSystem(s.provider);
      expect(system).toContain("Answer in plain words.");
      expect(system).toContain(reformedLine());
      // The guardrails come first: the caller's instructions are appended after them.
      expect(system.indexOf("Answer in plain words.")).toBeGreaterThan(system.indexOf(reformedLine()));
      const agentCall = s.provider.chatRequests.find((c) => c.body.tools)!;
      expect(agentCall.body.messages.filter((m) => m.role === "assistant").map((m) => m.content)).toContain("The apostle John, by tradition.");
      expectToolRoundTrip(s.provider);
    });

    it("when streamed, then every event validates against the SDK's types in OpenAI's order, and the deltas are the linked answer", async () => {
      const stream = await client().responses.create({ model: MODEL, input: QUESTION, stream: true, store: false });
      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      const parsed = checkStream(events);
      expect(collapsedTypes(parsed)).toEqual(SUCCESS_ORDER);
      const text = events.flatMap((e) => (e.type === "response.output_text.delta" ? [e.delta] : [])).join("");
      expectLinkedAnswer(text);
      const last = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
      expect(last.response.output[0]).toMatchObject({ type: "message", content: [{ type: "output_text", text }] });
      expect(last.response.usage!.total_tokens).toBeGreaterThan(0);
    });

    it("when read with the SDK's responses.stream() helper, then finalResponse() is the completed linked answer; after the provider's content filter it is incomplete with reason content_filter", async () => {
      const stream = client().responses.stream({ model: MODEL, input: QUESTION });
      let deltas = "";
      stream.on("response.output_text.delta", (e) => (deltas += e.delta));
      const done = await stream.finalResponse();
      expect(done.status).toBe("completed");
      expect(done.output_text).toBe(deltas);
      expectLinkedAnswer(done.output_text);

      s.provider.on(match.agent(), reply.text("Ruth was a Moabite", { finishReason: "content_filter" }));
      const filtered = await client().responses.stream({ model: MODEL, input: "Who was Ruth?" }).finalResponse();
      expect(filtered).toMatchObject({ status: "incomplete", incomplete_details: { reason: "content_filter" }, output_text: "Ruth was a Moabite" });
    });

    it("when no key is sent, then the SDK throws AuthenticationError missing_api_key and the provider is never called", async () => {
      const err = await client({ defaultHeaders: { Authorization: null } })
        .responses.create({ model: MODEL, input: QUESTION })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((err as APIError).code).toBe("missing_api_key");
      expect(s.provider.chatRequests).toHaveLength(0);
    });

    it("when six user turns are sent, then RateLimitError conversation_limit_exceeded, and the SDK's own retries do not repeat it", async () => {
      let sent = 0;
      const counting: typeof fetch = (url, init) => ((sent += 1), fetch(url, init));
      const err = await client({ maxRetries: 2, fetch: counting })
        .responses.create({ model: MODEL, input: sixUserTurns })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.RateLimitError);
      expect((err as APIError).code).toBe("conversation_limit_exceeded");
      expect((err as APIError).error).toMatchObject({ limit: 5, count: 6, param: "input" });
      expect(sent).toBe(1);
    });

    it("when the theology is unknown, then BadRequestError invalid_parameter naming theology", async () => {
      const err = await client()
        .responses.create({ model: MODEL, input: QUESTION, theology: "gnostic" } as OpenAI.Responses.ResponseCreateParamsNonStreaming)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as APIError).code).toBe("invalid_parameter");
      expect((err as APIError).param).toBe("theology");
      expect((err as APIError).message).toMatch(/GET \/v1\/theologies/);
    });

    it("when preflight rejects the input, then BadRequestError content_filter, as on chat completions", async () => {
      const err = await client().responses.create({ model: MODEL, input: INJECTION }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as APIError).code).toBe("content_filter");
    });
  });

  describe("Vercel AI SDK, default OpenAI provider (Responses)", () => {
    const responsesModel = (apiKey = KEY) => createOpenAI({ baseURL: `${s.url}/v1`, apiKey })(MODEL);

    it("when generateText runs, then the linked answer arrives with finish reason stop and usage", async () => {
      const res = await generateText({ model: responsesModel(), system: "Keep it short.", prompt: QUESTION, maxRetries: 0 });
      expectLinkedAnswer(res.text);
      expect(res.finishReason).toBe("stop");
      expect(res.usage.outputTokens).toBeGreaterThan(0);
      expect(res.usage.totalTokens).toBe(res.usage.inputTokens! + res.usage.outputTokens!);
      expect(agentSystem(s.provider)).toContain("Keep it short.");
      expect(s.provider.chatRequests.length).toBeGreaterThan(1);
    });

    it("when the provider's content filter stops the answer, then generateText's finish reason is content-filter", async () => {
      s.provider.on(match.agent(), reply.text("Ruth was a Moabite", { finishReason: "content_filter" }));
      const res = await generateText({ model: responsesModel(), prompt: "Who was Ruth?", maxRetries: 0 });
      expect(res.text).toBe("Ruth was a Moabite");
      expect(res.finishReason).toBe("content-filter");
    });

    it("when streamText runs over an earlier exchange, then the text stream is the linked answer with stop and usage", async () => {
      const result = streamText({
        model: responsesModel(),
        messages: [
          { role: "user", content: "Who wrote the Gospel of John?" },
          { role: "assistant", content: "The apostle John, by tradition." },
          { role: "user", content: QUESTION },
        ],
        maxRetries: 0,
      });
      let text = "";
      for await (const part of result.textStream) text += part;
      expectLinkedAnswer(text);
      expect(await result.finishReason).toBe("stop");
      expect((await result.usage).totalTokens).toBeGreaterThan(0);
    });

    it("when the key lacks the sk- prefix, then APICallError 401 invalid_api_key, not retryable", async () => {
      const err = await generateText({ model: responsesModel("not-a-key"), prompt: QUESTION, maxRetries: 0 }).catch((e: unknown) => e);
      expect(APICallError.isInstance(err)).toBe(true);
      expect((err as APICallError).statusCode).toBe(401);
      expect((err as APICallError).isRetryable).toBe(false);
      expect(JSON.parse((err as APICallError).responseBody!).error.code).toBe("invalid_api_key");
    });

    it("when six user turns meet its default retries, then it asks three times (it ignores x-should-retry): maxRetries 0 asks once", async () => {
      let sent = 0;
      const counting: typeof fetch = (url, init) => ((sent += 1), fetch(url, init));
      const model = createOpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, fetch: counting })(MODEL);
      const asked = async (maxRetries?: number) => {
        sent = 0;
        const err = await generateText({ model, messages: sixUserTurns, ...(maxRetries === undefined ? {} : { maxRetries }) }).catch((e: unknown) => e);
        expect(JSON.stringify(err)).toContain("conversation_limit_exceeded");
        return sent;
      };
      expect(await asked()).toBe(3);
      expect(await asked(0)).toBe(1);
    });
  });

  describe("OpenAI Agents SDK run()", () => {
    setTracingDisabled(true);
    const runner = (apiKey = KEY) =>
      new Runner({ modelProvider: new OpenAIProvider({ apiKey, baseURL: `${s.url}/v1`, useResponses: true }), tracingDisabled: true });
    const agent = (extras: Record<string, unknown> = {}) =>
      new Agent({ name: "Bible study", instructions: "Answer in plain words.", model: MODEL, modelSettings: { providerData: extras } });

    it("when run, then finalOutput is the linked answer and the service's fields ride in providerData", async () => {
      const result = await runner().run(agent({ theology: "reformed" }), QUESTION);
      expectLinkedAnswer(result.finalOutput!);
      const system = agentSystem(s.provider);
      expect(system).toContain("Answer in plain words.");
      expect(system).toContain(reformedLine());
      expectToolRoundTrip(s.provider);
    });

    it("when run with stream: true, then the text stream is the linked answer", async () => {
      const result = await runner().run(agent(), QUESTION, { stream: true });
      let text = "";
      for await (const piece of result.toTextStream()) text += piece;
      await result.completed;
      expectLinkedAnswer(text);
      expect(result.finalOutput).toBe(text);
    });

    it("when the key lacks the sk- prefix, then run() rejects with the client's 401 and our code", async () => {
      const err = await runner("not-a-key").run(agent(), QUESTION).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 401, code: "invalid_api_key" });
      expect(s.provider.chatRequests).toHaveLength(0);
    });

    it("when the agent brings a tool of its own, then run() rejects with 400 unsupported_parameter on tools", async () => {
      const withTool = new Agent({
        name: "Bible study",
        model: MODEL,
        tools: [tool({ name: "lookup", description: "Looks a word up.", parameters: z.object({ word: z.string() }), execute: async ({ word }) => word })],
      });
      const err = await runner().run(withTool, QUESTION).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 400, code: "unsupported_parameter", param: "tools" });
    });
  });
}
