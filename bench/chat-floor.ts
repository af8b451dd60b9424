import { AIMessage, type AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { concat } from "@langchain/core/utils/stream";
import { END, MessagesValue, START, StateGraph, StateSchema } from "@langchain/langgraph";
import { ChatOpenAICompletions, OpenAIClient } from "@langchain/openai";
import { z } from "zod";
import { ChatState } from "../graphs/chat/state.js";
import type { RunChat } from "../src/http/chat/route.js";
import type { FakeProvider } from "../test/fakes/index.js";

const Preflight = z.object({ category: z.string(), reason: z.string().nullable() });
const lookupPassage = {
  type: "function" as const,
  function: { name: "lookup_passage", description: "Look up a passage.", parameters: { type: "object", properties: { reference: { type: "string" } }, required: ["reference"] } },
};

/**
 * The libraries' floor for the chat graph's shape: a bare LangGraph (preflight, agent, tools) over
 * ChatOpenAICompletions making the same three provider calls, with none of our work (no prompts,
 * rules, real tools, word limit, links, metrics). What the real graph costs above this is ours.
 */
export function bareGraph(provider: FakeProvider): RunChat {
  const client = new OpenAIClient({ apiKey: "key-sent-per-request", baseURL: provider.baseURL, maxRetries: 0 });
  const model = (key: string, streaming: boolean) => {
    const m = new ChatOpenAICompletions({ model: "gpt-4o-mini", apiKey: key, configuration: { baseURL: provider.baseURL, headers: { Authorization: `Bearer ${key}` } } as never, maxRetries: 0, streaming, streamUsage: true });
    m.client = client;
    return m;
  };
  const State = new StateSchema({ messages: MessagesValue, answer: z.string().default("") });
  type Ctx = { key: string };
  const graph = new StateGraph(State)
    .addNode("preflight", async (s, config) => {
      const key = (config.context as Ctx).key;
      await model(key, false).withStructuredOutput(Preflight, { name: "preflight" }).invoke(s.messages);
      return {};
    })
    .addNode("agent", async (s, config) => {
      const key = (config.context as Ctx).key;
      let tools: AIMessageChunk | undefined;
      let text = "";
      for await (const chunk of await model(key, true).bindTools([lookupPassage]).stream([new SystemMessage("You answer Bible questions."), ...s.messages])) {
        if (chunk.tool_call_chunks?.length) tools = tools ? concat(tools, chunk) : chunk;
        else if (typeof chunk.content === "string" && chunk.content) {
          text += chunk.content;
          config.writer?.(chunk.content);
        }
      }
      return tools ? { messages: [tools] } : { answer: text };
    })
    .addNode("tools", async (s) => {
      const last = s.messages.at(-1) as AIMessageChunk;
      return { messages: (last.tool_calls ?? []).map((c) => new ToolMessage({ content: "John 3:16 For God so loved the world...", tool_call_id: c.id ?? "" })) };
    })
    .addEdge(START, "preflight")
    .addEdge("preflight", "agent")
    .addConditionalEdges("agent", (s) => (s.answer ? END : "tools"), ["tools", END])
    .addEdge("tools", "agent")
    .compile();
  return async (turns, ctx, opts) => {
    const question = turns.at(-1)?.content;
    const stream = await graph.stream(
      { messages: [new HumanMessage(typeof question === "string" ? question : "")] },
      { context: { key: ctx.apiKey }, streamMode: ["custom", "updates"], ...(opts.signal ? { signal: opts.signal } : {}) },
    );
    let content = "";
    for await (const [mode, data] of stream as AsyncIterable<[string, unknown]>) {
      if (mode === "custom" && typeof data === "string") {
        content += data;
        opts.onDelta?.(data);
      }
    }
    return { kind: "answer", content, finishReason: "stop", usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }, promptVersions: "" };
  };
}

/**
 * LangGraph's own loop on the chat graph's path, with nothing else: the chat state (graphs/chat/state.ts)
 * and the same supersteps (validate, preflight, agent, tools, agent, links) and conditional edges, each
 * node returning a fixed update at once. No provider call, no prompt, no tool: what the orchestrator
 * costs per request before any of the graph's own work.
 */
export function langGraphLoop(): RunChat {
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  const answer = "For God so loved the world (John 3:16).";
  const graph = new StateGraph(ChatState)
    .addNode("validateInput", async () => ({ promptVersions: "guardrails@0" }))
    .addNode("classifyPreflight", async () => ({ category: "biblical_question" as const, classifiedBy: "model" as const, usage }))
    .addNode("respondCanned", async () => ({}))
    .addNode("rejectInput", async () => ({}))
    .addNode("callAgent", async (s, config) => {
      if (s.steps === 0) {
        return { messages: [new AIMessage({ content: "", tool_calls: [{ id: "call_1", name: "lookup_passage", args: { reference: "John 3:16" }, type: "tool_call" }] })], steps: 1, usage };
      }
      (config.configurable as { sink?: (t: string) => void } | undefined)?.sink?.(answer);
      return { messages: [new AIMessage(answer)], answer, content: answer, finishReason: "stop" as const, steps: 2, usage };
    })
    .addNode("callTools", async () => ({ messages: [new ToolMessage({ content: "John 3:16 For God so loved the world...", tool_call_id: "call_1", name: "lookup_passage" })] }))
    .addNode("convertLinks", async (s) => ({ content: s.content }))
    .addEdge(START, "validateInput")
    .addConditionalEdges("validateInput", () => "classifyPreflight" as const, ["classifyPreflight", "callAgent"])
    .addConditionalEdges("classifyPreflight", () => "callAgent" as const, ["callAgent", "respondCanned", "rejectInput"])
    .addConditionalEdges("callAgent", (s) => (s.answer ? "convertLinks" : "callTools"), ["callTools", "convertLinks"])
    .addEdge("callTools", "callAgent")
    .addEdge("respondCanned", END)
    .addEdge("rejectInput", END)
    .addEdge("convertLinks", END)
    .compile();
  return async (turns, ctx, opts) => {
    const question = turns.at(-1)?.content;
    const stream = await graph.stream(
      { messages: [new HumanMessage(typeof question === "string" ? question : "")] },
      {
        context: ctx as unknown as Record<string, unknown>,
        streamMode: ["custom", "updates"],
        configurable: { sink: (t: string) => opts.onDelta?.(t) },
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
    );
    let content = "";
    for await (const [mode, data] of stream as AsyncIterable<[string, Record<string, { content?: string } | null>]>) {
      if (mode === "updates") for (const u of Object.values(data)) if (u?.content) content = u.content;
    }
    return { kind: "answer", content, finishReason: "stop", usage, promptVersions: "guardrails@0" };
  };
}
