import { getConfigTypeSchema, getInputTypeSchema } from "@langchain/langgraph/zod/schema";
import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { STUDIO_NO_KEY_MESSAGE, studioRuntime } from "../../graphs/chat/studio.js";
import { startFakeProvider } from "../fakes/index.js";

type JsonSchema = { properties?: Record<string, { enum?: unknown[]; type?: unknown; description?: string }> };

describe("the schemas LangGraph Studio draws its forms from", () => {
  const graph = studioRuntime().graph;

  it("when Studio asks for the input schema, then it offers the conversation (messages) and no internal state field", () => {
    const input = getInputTypeSchema(graph) as JsonSchema;
    expect(Object.keys(input.properties ?? {})).toEqual(["messages"]);
  });

  it("when Studio asks for the context schema, then it offers the request's options, described, and no key field", () => {
    const context = getConfigTypeSchema(graph) as JsonSchema;
    const fields = context.properties ?? {};
    expect(Object.keys(fields).sort()).toEqual(["bibleId", "convertLinks", "maxWords", "model", "profile", "skipPreflight", "theology", "verifyQuotes"]);
    expect(fields.bibleId?.enum).toContain("eng-web");
    expect(fields.maxWords?.type).toBe("integer");
    expect(fields.theology?.description).toMatch(/theology slug/);
    expect(JSON.stringify(context).toLowerCase()).not.toContain("apikey");
  });

  it("when a run's context gives an option the wrong type, then the run fails before any node runs", async () => {
    await expect(graph.invoke({ messages: [new HumanMessage("What is grace?")] }, { context: { maxWords: "150" } })).rejects.toThrow(/maxWords/);
  });

  it("when a Studio run has no key anywhere, then it answers with where the key goes and calls no provider", async () => {
    const provider = await startFakeProvider({ delayMs: 0 });
    const saved = { base: process.env.OPENAI_BASE_URL, key: process.env.STUDIO_API_KEY };
    process.env.OPENAI_BASE_URL = provider.baseURL;
    process.env.STUDIO_API_KEY = "";
    try {
      const state = await studioRuntime().graph.invoke({ messages: [new HumanMessage("What is grace?")] }, { context: { model: "gpt-4o-mini" } });
      expect(state.content).toBe(STUDIO_NO_KEY_MESSAGE);
      expect(STUDIO_NO_KEY_MESSAGE).toContain("STUDIO_API_KEY");
      expect(STUDIO_NO_KEY_MESSAGE).not.toMatch(/Authorization|[{}]/);
      expect(state.messages.at(-1)?.content).toBe(STUDIO_NO_KEY_MESSAGE);
      expect(provider.chatRequests).toHaveLength(0);
    } finally {
      for (const [name, value] of [["OPENAI_BASE_URL", saved.base], ["STUDIO_API_KEY", saved.key]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await provider.close();
    }
  });
});
