import { AIMessage, type AIMessageChunk, SystemMessage, type UsageMetadata } from "@langchain/core/messages";
import { concat } from "@langchain/core/utils/stream";
import { type AnswerEvent, AnswerStream } from "../answer/answer-stream.js";
import { startCall } from "../call-metrics.js";
import { TurnGate } from "../answer/turn-gate.js";
import { resolveContext, type ChatRunConfig } from "../configuration.js";
import { Deadline } from "../deadline.js";
import type { ChatDeps } from "../deps.js";
import { agentStepLimit } from "../errors.js";
import { lastUserText, textOf } from "../messages.js";
import { buildSystemPrompt, contextPassage } from "../prompts.js";
import { isCallerAbort, toProviderError, upstreamError, upstreamTimeout } from "../provider-errors.js";
import type { ChatStateUpdate, ChatStateValue } from "../state.js";
import { toolDefinitions } from "../tools/index.js";

class WordLimitReached extends Error {
  override name = "WordLimitReached";
}

/** The system prompt of one request, built at its first agent step and reused by the later ones. */
const systemPrompts = new WeakMap<object, string>();

const addUsage = (a: UsageMetadata, b: UsageMetadata): UsageMetadata => ({
  input_tokens: a.input_tokens + b.input_tokens,
  output_tokens: a.output_tokens + b.output_tokens,
  total_tokens: a.total_tokens + b.total_tokens,
});

/**
 * One agent turn. The provider always streams, in both response modes, so that both modes run the
 * same code: the turn gate keeps pre-tool-call chatter out, the word limit cuts (and aborts the
 * upstream call), links are converted on the way, and the pieces go to the "custom" stream.
 * The last allowed step is called with tool_choice "none" so the agent answers with what it has.
 */
export function createCallAgent(deps: ChatDeps) {
  return async function callAgent(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    const ctx = resolveContext(config, deps);
    const step = state.steps + 1;
    const finalStep = step >= deps.maxSteps;
    const model = deps.models(ctx, "agent").bindTools(toolDefinitions(deps, ctx), finalStep ? { tool_choice: "none" } : {});
    let system = systemPrompts.get(ctx);
    if (system === undefined) {
      system = buildSystemPrompt({
        prompts: deps.prompts,
        ctx,
        lastUserText: lastUserText(state.messages),
        passage: contextPassage(ctx, deps.bibles, deps.references),
      });
      systemPrompts.set(ctx, system);
    }
    const emit = (text: string) => config.writer?.({ kind: "answer", text } satisfies AnswerEvent);
    const answer = new AnswerStream(ctx.maxWords, ctx.convertLinks ? deps.links : null, emit, deps.logger);
    const gate = new TurnGate(!finalStep);
    const deadline = new Deadline(deps.providerTimeoutMs, config.signal);
    // Only the tool-call chunks are merged: concat builds a new message per chunk, which over a
    // token-by-token answer costs more than everything else this node does. The text goes through
    // the gate, the finish reason and usage are read where the provider sent them.
    let toolTurn: AIMessageChunk | undefined;
    let finish: string | undefined;
    let usage: UsageMetadata | undefined;
    const done = startCall(deps.metrics, "agent");
    try {
      const stream = await model.stream([new SystemMessage(system), ...state.messages], {
        callbacks: config.callbacks,
        signal: deadline.signal,
      });
      for await (const chunk of stream) {
        deadline.arm();
        if (chunk.tool_call_chunks?.length) {
          toolTurn = toolTurn ? concat(toolTurn, chunk) : chunk;
          gate.toolCallSeen();
        }
        const reason = chunk.response_metadata?.finish_reason as string | undefined;
        if (reason !== undefined) finish = reason;
        if (chunk.usage_metadata) usage = usage ? addUsage(usage, chunk.usage_metadata) : chunk.usage_metadata;
        const piece = gate.text(textOf(chunk.content));
        if (piece && answer.push(piece)) break;
      }
    } catch (err) {
      if (!answer.cut) {
        if (isCallerAbort(config.signal)) {
          done(err, true);
          throw err;
        }
        const mapped = deadline.timedOut
          ? upstreamTimeout(deps.providerName, deps.providerTimeoutMs)
          : toProviderError(err, { provider: deps.providerName, model: ctx.model, timeoutMs: deps.providerTimeoutMs });
        done(mapped);
        throw mapped;
      }
    } finally {
      // After a cut this closes the upstream request; otherwise it only clears the timer.
      if (answer.cut) deadline.abort(new WordLimitReached());
      deadline.stop();
    }

    if (!answer.cut && finish === undefined) {
      // The stream ended without a finish reason: cut short upstream, so the answer may be partial.
      const err = upstreamError(deps.providerName, { name: "IncompleteStream" });
      done(err);
      throw err;
    }
    done(undefined);
    if (usage) deps.metrics?.tokens({ prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens });
    if (gate.isToolTurn && toolTurn) {
      if (finalStep) throw agentStepLimit(deps.maxSteps);
      const invalid = toolTurn.invalid_tool_calls ?? [];
      // Invalid calls travel back with empty arguments so the provider sees each call answered.
      const calls = [
        ...(toolTurn.tool_calls ?? []),
        ...invalid.map((c) => ({ id: c.id, name: c.name ?? "unknown", args: {}, type: "tool_call" as const })),
      ];
      return { messages: [new AIMessage({ content: "", tool_calls: calls, invalid_tool_calls: invalid })], steps: step };
    }
    if (!answer.cut) {
      const rest = gate.end();
      if (rest) answer.push(rest);
    }
    answer.finish();
    // A provider that ignores tool_choice "none" on the last step would otherwise answer with nothing.
    if (finalStep && gate.calledTools && answer.text.trim() === "") throw agentStepLimit(deps.maxSteps);
    return {
      messages: [new AIMessage(answer.text)],
      answer: answer.text,
      ...(answer.linked !== undefined ? { content: answer.linked } : {}),
      finishReason: answer.cut || finish === "length" ? "length" : "stop",
      steps: step,
    };
  };
}
