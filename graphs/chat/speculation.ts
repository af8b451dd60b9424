import type { ChatCompletionChunk, ChatCompletionMessageParam } from "./models.js";
import type { Usage } from "./contract.js";
import type { Deadline } from "./deadline.js";
import { promptChars } from "./messages.js";
import { estimateUsage, fromProvider, NO_USAGE } from "./usage.js";

/** Why a speculative call was closed: the verdict did not pass it to the agent, or the run ended first. */
export class SpeculationDiscarded extends Error {
  override name = "SpeculationDiscarded";
}

/**
 * The agent's first provider call, started by classifyPreflight beside the classifier (PREFLIGHT_MODE
 * =parallel) and adopted by callAgent once the verdict passes the message to the agent. Until then
 * nothing of it leaves: its chunks (or its failure) are read and held here, so a call that ends
 * before the verdict keeps its whole answer, and the provider's stream is never left waiting on us.
 * discard() closes the upstream request at once (the provider sees the connection close).
 */
export class SpeculativeCall {
  private readonly held: ChatCompletionChunk[] = [];
  private ended = false;
  private failure: unknown;
  /** The reader's place in `held` (chunks() has one reader: the step that adopted the call). */
  private read = 0;
  /** The reader waiting for the next chunk, or for the end. */
  private waiting: { resolve: (r: IteratorResult<ChatCompletionChunk, undefined>) => void; reject: (err: unknown) => void } | undefined;
  private received = 0;
  private reported: Usage | undefined;
  private cost: Usage | undefined;

  constructor(
    /** The request as sent: system prompt, conversation, prefetched tool turn. */
    readonly messages: ChatCompletionMessageParam[],
    /** How many state messages the request was built from; callAgent adopts only the same conversation. */
    readonly stateMessages: number,
    /** The care decision the request was made with (care.ts); callAgent adopts only the same decision. */
    readonly care: boolean,
    /** The call's silence timer and abort; callAgent makes it follow its own step's signal. */
    readonly deadline: Deadline,
    /** The call's metrics record (call-metrics.ts), finished by whoever ends the call. */
    readonly done: (err: unknown, callerAborted?: boolean) => void,
    open: (signal: AbortSignal) => Promise<AsyncIterable<ChatCompletionChunk>>,
  ) {
    void this.pump(open);
  }

  private async pump(open: (signal: AbortSignal) => Promise<AsyncIterable<ChatCompletionChunk>>): Promise<void> {
    try {
      const stream = await open(this.deadline.signal);
      for await (const chunk of stream) {
        this.deadline.arm();
        this.count(chunk);
        this.held.push(chunk);
        this.notify();
      }
    } catch (err) {
      this.failure = err;
    } finally {
      this.ended = true;
      this.notify();
    }
  }

  private count(chunk: ChatCompletionChunk): void {
    if (chunk.usage) this.reported = fromProvider(chunk.usage);
    const delta = chunk.choices[0]?.delta;
    if (delta?.content) this.received += delta.content.length;
    for (const t of delta?.tool_calls ?? []) this.received += (t.function?.name?.length ?? 0) + (t.function?.arguments?.length ?? 0);
  }

  /** Hands the waiting reader the next chunk as it arrives, or the end (the failure included). */
  private notify(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    if (this.read < this.held.length) {
      this.waiting = undefined;
      waiting.resolve({ value: this.held[this.read++]!, done: false });
    } else if (this.ended) {
      this.waiting = undefined;
      if (this.failure !== undefined) waiting.reject(this.failure);
      else waiting.resolve({ value: undefined, done: true });
    }
  }

  /**
   * The held chunks, then the live ones, as the provider's stream would give them (its failure
   * included). A plain iterator rather than an async generator: a held chunk is handed over in one
   * resolved promise, and a chunk the reader waits for settles the one promise it waits on (pump
   * hands it over as it arrives), where a generator costs an await and a resumption of its own, and
   * a wake-up promise more, for every event of the answer.
   */
  chunks(): AsyncIterable<ChatCompletionChunk> {
    const next = (): Promise<IteratorResult<ChatCompletionChunk, undefined>> => {
      if (this.read < this.held.length) return Promise.resolve({ value: this.held[this.read++]!, done: false });
      if (this.ended) return this.failure !== undefined ? Promise.reject(this.failure) : Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
    };
    return { [Symbol.asyncIterator]: () => ({ next }) };
  }

  /**
   * Closes the upstream request (when still open) and returns what the call cost: the provider's own
   * usage report when it arrived, else the estimate a cut answer gets (usage.ts: the characters sent,
   * and those received, at four a token), since the provider may bill a prompt it began to read.
   */
  discard(reason: unknown = new SpeculationDiscarded("the preflight verdict did not pass the message to the agent")): Usage {
    if (this.cost) return this.cost;
    // A call that already failed cost nothing (providers do not bill refused requests).
    const failed = this.ended && this.failure !== undefined;
    if (!this.ended) this.deadline.abort(reason);
    this.deadline.stop();
    this.done(reason, true);
    this.cost = failed ? NO_USAGE : (this.reported ?? estimateUsage(promptChars(this.messages), this.received));
    return this.cost;
  }
}

/** One run's speculation, by the run's context object (the same object every node of the run sees). */
const running = new WeakMap<object, SpeculativeCall>();

export function holdSpeculation(run: object, call: SpeculativeCall): void {
  running.get(run)?.discard();
  running.set(run, call);
}

/**
 * callAgent's first step: the run's speculative call, when it was made for this conversation and this
 * care decision (a verdict that finds care the rules missed closes a call made without the care note).
 */
export function adoptSpeculation(run: object | undefined, stateMessages: number, care: boolean): SpeculativeCall | undefined {
  const call = run ? running.get(run) : undefined;
  if (!call || !run) return undefined;
  running.delete(run);
  if (call.stateMessages === stateMessages && call.care === care) return call;
  call.discard();
  return undefined;
}

/** Closes the run's speculative call if nothing adopted it; returns its cost, or undefined when there was none. */
export function discardSpeculation(run: object | undefined, reason?: unknown): Usage | undefined {
  const call = run ? running.get(run) : undefined;
  if (!call || !run) return undefined;
  running.delete(run);
  return call.discard(reason);
}
