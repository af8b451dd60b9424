import { type AIMessageChunk, isAIMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { ChatOpenAICompletions } from "@langchain/openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { DEFAULT_ANSWER, type FakeProvider, match, reply, startFakeProvider } from "./index.js";

let provider: FakeProvider;

beforeAll(async () => {
  provider = await startFakeProvider();
});
afterAll(() => provider.close());
beforeEach(() => provider.reset());

const lookupPassage = tool(async ({ reference }) => `${reference}: For God so loved the world...`, {
  name: "lookup_passage",
  description: "Fetch a passage",
  schema: z.object({ reference: z.string().describe("A Bible reference") }),
});

/** A minimal agent loop shaped like ours: model node, tool node, route on tool calls. */
function buildAgent() {
  const model = new ChatOpenAICompletions({
    model: "gpt-4o",
    apiKey: "sk-graph",
    maxRetries: 0,
    streaming: true,
    configuration: { baseURL: provider.baseURL },
  }).bindTools([lookupPassage]);
  const callModel = async (state: typeof MessagesAnnotation.State) => ({ messages: [await model.invoke(state.messages)] });
  const routeAfterModel = (state: typeof MessagesAnnotation.State) => {
    const last = state.messages.at(-1);
    return last && isAIMessage(last) && (last.tool_calls?.length ?? 0) > 0 ? "tools" : END;
  };
  return new StateGraph(MessagesAnnotation)
    .addNode("callModel", callModel)
    .addNode("tools", new ToolNode([lookupPassage]))
    .addEdge(START, "callModel")
    .addConditionalEdges("callModel", routeAfterModel, ["tools", END])
    .addEdge("tools", "callModel")
    .compile();
}

describe("a LangGraph agent loop against the fake", () => {
  it("when unscripted and streamed as messages, then the default script runs one tool round trip and streams the answer", async () => {
    const texts: string[] = [];
    const stream = await buildAgent().stream({ messages: [{ role: "user", content: "What does God's love look like?" }] }, { streamMode: "messages" });
    for await (const [chunk, metadata] of stream) {
      const message = chunk as AIMessageChunk;
      if (metadata.langgraph_node === "callModel" && typeof message.content === "string" && !message.tool_call_chunks?.length) texts.push(message.content);
    }
    expect(texts.join("")).toBe(DEFAULT_ANSWER);
    expect(texts.length).toBeGreaterThan(5);
    const [first, second] = provider.chatRequests;
    expect(provider.chatRequests).toHaveLength(2);
    expect(first?.body.stream).toBe(true);
    const toolMessage = second?.body.messages.at(-1);
    expect(toolMessage).toMatchObject({ role: "tool", content: "John 3:16: For God so loved the world..." });
  });

  it("when the model's second turn fails mid-stream, then the graph run rejects", async () => {
    provider.on(match.afterToolResult(), reply.streamError(2, { error: { message: "overloaded", type: "server_error" } }));
    const run = async () => {
      for await (const part of await buildAgent().stream({ messages: [{ role: "user", content: "love?" }] }, { streamMode: "messages" })) void part;
    };
    await expect(run()).rejects.toThrow(/overloaded/);
    expect(provider.chatRequests).toHaveLength(2);
  });
});
