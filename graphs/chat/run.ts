import { GraphRecursionError } from "@langchain/langgraph";
import type { ChatGraph } from "./graph.js";
import { type AnswerEvent, agentStepLimit } from "./nodes/call-agent.js";
import { toMessages } from "./messages.js";
import type { ChatStateValue } from "./state.js";
import type { ChatOutcome, ChatRequestContext, ChatTurn, InterceptedCategory, RejectedCategory, RunChatOptions } from "./types.js";
import { UsageCollector } from "./usage.js";

const INTERCEPTED = new Set<string>(["support_question", "greeting", "incomplete_input"]);
const REJECTED = new Set<string>(["hacker_activity", "inappropriate", "invalid"]);

/** Enough supersteps for validate, preflight, every agent/tools round and link conversion. */
export function recursionLimitFor(maxSteps: number): number {
  return 2 * maxSteps + 6;
}

function isAnswerEvent(value: unknown): value is AnswerEvent {
  return typeof value === "object" && value !== null && (value as AnswerEvent).kind === "answer";
}

/**
 * Runs one chat request through the graph. Answer text reaches onDelta in its final form as it is
 * produced; the promise resolves with the outcome, or rejects with an AppError (provider failures
 * mapped per the contract), or with the abort reason when opts.signal fired.
 */
export async function runChat(
  graph: ChatGraph,
  turns: ChatTurn[],
  ctx: ChatRequestContext,
  opts: RunChatOptions & { maxSteps?: number } = {},
): Promise<ChatOutcome> {
  const usage = new UsageCollector();
  // Built from the nodes' updates: "values" mode would copy the whole state (messages included) at
  // every superstep, while the outcome needs only these last-value fields.
  let final: Pick<ChatStateValue, "category" | "content" | "finishReason" | "promptVersions"> | undefined;
  try {
    const stream = await graph.stream(
      { messages: toMessages(turns) },
      {
        context: ctx as unknown as Record<string, unknown>,
        streamMode: ["custom", "updates"],
        callbacks: [usage],
        recursionLimit: recursionLimitFor(opts.maxSteps ?? 50),
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
    );
    for await (const [mode, data] of stream as AsyncIterable<[string, unknown]>) {
      if (mode === "custom" && isAnswerEvent(data)) {
        if (data.text) opts.onDelta?.(data.text);
      } else if (mode === "updates") {
        final ??= { category: null, content: "", finishReason: null, promptVersions: "" };
        for (const update of Object.values(data as Record<string, Partial<ChatStateValue> | null>)) {
          if (!update) continue;
          if (update.category !== undefined) final.category = update.category;
          if (update.content !== undefined) final.content = update.content;
          if (update.finishReason !== undefined) final.finishReason = update.finishReason;
          if (update.promptVersions !== undefined) final.promptVersions = update.promptVersions;
        }
      }
    }
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? err;
    if (err instanceof GraphRecursionError) throw agentStepLimit(opts.maxSteps);
    throw err;
  }
  if (!final) throw new Error("chat graph produced no state");
  usage.settle();
  const category = final.category;
  if (category && REJECTED.has(category)) {
    return { kind: "rejected", category: category as RejectedCategory, message: final.content, usage: usage.usage };
  }
  if (category && INTERCEPTED.has(category)) {
    return { kind: "canned", category: category as InterceptedCategory, content: final.content, usage: usage.usage, promptVersions: final.promptVersions };
  }
  return {
    kind: "answer",
    content: final.content,
    finishReason: final.finishReason ?? "stop",
    usage: usage.usage,
    promptVersions: final.promptVersions,
  };
}

