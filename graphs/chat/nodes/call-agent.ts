import { AIMessage, type InvalidToolCall, type ToolCall } from "@langchain/core/messages";
import { ANSWER_SINK, type AnswerEvent, AnswerStream } from "../answer/answer-stream.js";
import { groundingOptions } from "../answer/grounding.js";
import { countQuotes } from "../../../src/scripture/quotes/index.js";
import { TurnGate } from "../answer/turn-gate.js";
import { startCall } from "../call-metrics.js";
import { resolveContext, runKey, type ChatContext, type ChatRunConfig } from "../configuration.js";
import { Deadline } from "../deadline.js";
import type { ChatDeps } from "../deps.js";
import { agentStepLimit } from "../errors.js";
import { lastUserText, promptChars, toolResultTexts, toProviderMessages } from "../messages.js";
import { careFor } from "../care.js";
import type { AgentRequest, ChatCompletionTool } from "../models.js";
import { adoptSpeculation, holdSpeculation, SpeculativeCall } from "../speculation.js";
import { prefetchTurn } from "../prefetch.js";
import type { BaseMessage } from "@langchain/core/messages";
import { buildSystemPrompt, contextPassage, systemPromptCore } from "../prompts.js";
import { isCallerAbort, toProviderError, upstreamError, upstreamTimeout } from "../provider-errors.js";
import type { ChatStateUpdate, ChatStateValue } from "../state.js";
import { toolDefinitions } from "../tools/index.js";
import { LOOKUP_PASSAGE_TOOL } from "../tools/lookup-passage.js";
import { estimateUsage, fromProvider } from "../usage.js";
import type { Usage } from "../contract.js";

class WordLimitReached extends Error {
  override name = "WordLimitReached";
}

/**
 * The system prompt of one request for its care decision (care.ts), made at its first agent step and
 * reused by the later ones; one per decision, since the speculative first call is made with the rules'
 * decision before the verdict, which may differ.
 */
const requestPrompts = new WeakMap<object, Map<boolean, string>>();

function requestPrompt(deps: ChatDeps, ctx: ChatContext, messages: BaseMessage[], care: boolean): string {
  let byCare = requestPrompts.get(ctx);
  if (!byCare) requestPrompts.set(ctx, (byCare = new Map()));
  let made = byCare.get(care);
  if (made === undefined) {
    made = buildSystemPrompt({
      prompts: deps.prompts,
      ctx,
      lastUserText: lastUserText(messages),
      care,
      passage: contextPassage(ctx, deps.bibles, deps.references, toolResultTexts(messages, LOOKUP_PASSAGE_TOOL.name)),
    });
    byCare.set(care, made);
  }
  return made;
}

/** A tool call as it streams: pieces of one call share its index. */
interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/** The streamed calls as LangChain tool calls (state keeps them for Studio); bad JSON makes an invalid call. */
function finishCalls(pending: PendingCall[]): { calls: ToolCall[]; invalid: InvalidToolCall[] } {
  const calls: ToolCall[] = [];
  const invalid: InvalidToolCall[] = [];
  for (const p of pending) {
    let args: unknown;
    try {
      args = JSON.parse(p.args === "" ? "{}" : p.args);
    } catch {
      args = undefined;
    }
    if (args && typeof args === "object" && !Array.isArray(args)) calls.push({ id: p.id, name: p.name, args: args as Record<string, unknown>, type: "tool_call" });
    else invalid.push({ id: p.id, name: p.name, args: p.args, error: "arguments are not a JSON object", type: "invalid_tool_call" });
  }
  return { calls, invalid };
}

/**
 * The provider request of one agent step: the request's system prompt (built at the first step and
 * reused by the later ones), the conversation so far, the tools, and tool_choice "none" on the last
 * allowed step. The speculative first call (classifyPreflight) is built here too, so it is the
 * request callAgent would have sent.
 */
export function agentRequest(deps: ChatDeps, ctx: ChatContext, messages: BaseMessage[], step: number, care: boolean): AgentRequest {
  const system = requestPrompt(deps, ctx, messages, care);
  const finalStep = step >= deps.maxSteps;
  return {
    messages: toProviderMessages(system, messages),
    tools: toolDefinitions(deps, ctx) as ChatCompletionTool[],
    ...(finalStep ? { toolChoice: "none" as const } : {}),
    // buildSystemPrompt starts every request's prompt with this core: its JSON is written once (request-json.ts).
    systemPrefix: systemPromptCore(deps.prompts, ctx),
  };
}

/**
 * Starts the agent's first call for `messages` (the conversation and the prefetched tool turn) and
 * holds it for the run: callAgent adopts it when the preflight verdict passes, classifyPreflight
 * discards it otherwise. `signal`: the starting step's, so a caller who leaves meanwhile closes it.
 */
export function startSpeculation(deps: ChatDeps, ctx: ChatContext, messages: BaseMessage[], run: object, signal: AbortSignal | undefined, care: boolean): SpeculativeCall {
  const request = agentRequest(deps, ctx, messages, 1, care);
  const call = new SpeculativeCall(
    request.messages,
    messages.length,
    care,
    new Deadline(deps.providerTimeoutMs, signal),
    startCall(deps.metrics, "agent", ctx.provider?.name),
    (s) => deps.models.streamAgent(ctx, request, s),
  );
  holdSpeculation(run, call);
  return call;
}

/**
 * One agent turn. The provider is called with the plain client and always streams, in both response
 * modes, so that both modes run the same code: the turn gate keeps pre-tool-call chatter out, the
 * word limit cuts (and aborts the upstream call), links are converted on the way, and the pieces go
 * to the "custom" stream. Usage is read from the provider's last chunk and added to the run's state.
 * The last allowed step is called with tool_choice "none" so the agent answers with what it has.
 * The first step starts with the service's own retrieval for the question (prefetch.ts), added to the
 * conversation as a completed tool turn before the call and to the state with the turn's answer; it is
 * computed once per run, so when classifyPreflight already made it for the speculative call this is
 * that same turn. The first step adopts the call classifyPreflight started beside the classifier when
 * there is one (PREFLIGHT_MODE=parallel): its held chunks come first, then the live ones, through the
 * same code.
 */
export function createCallAgent(deps: ChatDeps) {
  return async function callAgent(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    const ctx = resolveContext(config, deps);
    const step = state.steps + 1;
    const finalStep = step >= deps.maxSteps;
    // The care note in the prompt and the word limiter's respect for the help line follow one decision.
    const care = careFor(state);
    // The prefetched tool turn (first step only; a state that already holds the agent's turns has it).
    const prefetched = step === 1 ? await prefetchTurn(deps, ctx, state.messages, config, care) : [];
    const conversation = prefetched.length > 0 ? [...state.messages, ...prefetched] : state.messages;
    const speculative = step === 1 ? adoptSpeculation(runKey(config), conversation.length, care) : undefined;
    const request = speculative ? undefined : agentRequest(deps, ctx, conversation, step, care);
    const messages = speculative ? speculative.messages : request!.messages;
    // The service's run hands its delta listener straight to the node (one call per piece), or null when
    // nothing reads the pieces (a non-stream request); a run without one (LangGraph Studio) gets the
    // pieces on LangGraph's custom stream.
    const sink = (config.configurable as { [ANSWER_SINK]?: ((text: string) => void) | null } | undefined)?.[ANSWER_SINK];
    const emit = sink !== undefined ? sink : (text: string) => config.writer?.({ kind: "answer", text } satisfies AnswerEvent);
    const answer = new AnswerStream(ctx.maxWords, groundingOptions(ctx, deps), emit, { care });
    // After a tool round (the prefetched one included) the turn is almost always the answer: it streams as it comes (see TurnGate).
    const afterTools = conversation.some((m) => m.getType() === "tool");
    const gate = new TurnGate(finalStep ? "answer" : afterTools ? "stream" : "hold");
    const deadline = speculative ? speculative.deadline.follow(config.signal) : new Deadline(deps.providerTimeoutMs, config.signal);
    const pending: PendingCall[] = [];
    let finish: string | null | undefined;
    let usage: Usage | undefined;
    let received = 0;
    const done = speculative ? speculative.done : startCall(deps.metrics, "agent", ctx.provider?.name);
    try {
      const stream = speculative ? speculative.chunks() : await deps.models.streamAgent(ctx, request!, deadline.signal);
      for await (const chunk of stream) {
        deadline.arm();
        if (chunk.usage) usage = fromProvider(chunk.usage);
        const choice = chunk.choices[0];
        if (!choice) continue;
        if (choice.finish_reason) finish = choice.finish_reason;
        const delta = choice.delta;
        if (delta?.tool_calls?.length) {
          for (const t of delta.tool_calls) {
            const call = (pending[t.index] ??= { id: "", name: "", args: "" });
            if (t.id) call.id = t.id;
            if (t.function?.name) call.name += t.function.name;
            if (t.function?.arguments) call.args += t.function.arguments;
          }
          gate.toolCallSeen();
        }
        const text = delta?.content;
        if (text) {
          received += text.length;
          const piece = gate.text(text);
          if (piece && answer.push(piece)) break;
        }
      }
      // The client's stream ends quietly when aborted; an abort is still a failure unless we cut.
      if (!answer.cut && deadline.signal.aborted) throw deadline.signal.reason;
    } catch (err) {
      if (!answer.cut) {
        if (isCallerAbort(config.signal)) {
          done(err, true);
          throw err;
        }
        const mapped = deadline.timedOut
          ? upstreamTimeout(deps.providerNameFor(ctx), deps.providerTimeoutMs)
          : toProviderError(err, { provider: deps.providerNameFor(ctx), model: ctx.model, timeoutMs: deps.providerTimeoutMs });
        done(mapped);
        // What the provider said before it failed goes out first: a stream shows it, then the error.
        const held = gate.release();
        if (held) answer.push(held);
        answer.finish();
        throw mapped;
      }
    } finally {
      // After a cut this closes the upstream request; otherwise it only clears the timer.
      if (answer.cut) deadline.abort(new WordLimitReached());
      deadline.stop();
    }

    if (!answer.cut && finish === undefined) {
      // The stream ended without a finish reason: cut short upstream, so the answer may be partial.
      const err = upstreamError(deps.providerNameFor(ctx), { name: "IncompleteStream" });
      done(err);
      throw err;
    }
    done(undefined);
    if (usage) deps.metrics?.tokens({ prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens });
    else usage = estimateUsage(promptChars(messages), received);
    if (gate.isToolTurn && pending.length > 0) {
      if (finalStep) throw agentStepLimit(deps.maxSteps);
      const { calls, invalid } = finishCalls(pending.filter(Boolean));
      // Invalid calls travel back with empty arguments so the provider sees each call answered.
      const all = [...calls, ...invalid.map((c) => ({ id: c.id, name: c.name ?? "unknown", args: {}, type: "tool_call" as const }))];
      return { messages: [...prefetched, new AIMessage({ content: "", tool_calls: all, invalid_tool_calls: invalid })], steps: step, usage };
    }
    if (!answer.cut) {
      const rest = gate.end();
      if (rest) answer.push(rest);
    }
    answer.finish();
    // A provider that ignores tool_choice "none" on the last step would otherwise answer with nothing.
    if (finalStep && gate.calledTools && answer.text.trim() === "") throw agentStepLimit(deps.maxSteps);
    const grounded = answer.grounding;
    return {
      messages: [...prefetched, new AIMessage(answer.text)],
      answer: answer.text,
      content: grounded.content,
      citations: grounded.citations as unknown as Record<string, unknown>[],
      quotes: countQuotes(grounded.quotes),
      finishReason: answer.cut || finish === "length" ? "length" : finish === "content_filter" ? "content_filter" : "stop",
      steps: step,
      usage,
    };
  };
}
