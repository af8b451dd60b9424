import { ProviderTimeout } from "./provider-errors.js";

/**
 * An AbortSignal for one provider call that fires when the run's signal does (client gone) or when
 * the provider is silent for longer than the timeout: before the response headers, and, re-armed on
 * every chunk, between stream chunks. The openai client's own timeout stops at the headers.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private lastActivity = performance.now();
  private parent: AbortSignal | undefined;
  private readonly onParentAbort = () => this.abort(this.parent?.reason);

  constructor(
    private readonly timeoutMs: number,
    parent?: AbortSignal,
  ) {
    this.follow(parent);
    this.schedule(timeoutMs);
  }

  /**
   * Fire when this signal does instead of the one before: a call that outlives the graph step that
   * started it (the speculative agent call, graphs/chat/speculation.ts) follows the step that adopts it.
   */
  follow(parent: AbortSignal | undefined): this {
    this.parent?.removeEventListener("abort", this.onParentAbort);
    this.parent = parent;
    if (parent?.aborted) this.abort(parent.reason);
    else parent?.addEventListener("abort", this.onParentAbort, { once: true });
    return this;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get timedOut(): boolean {
    return this.controller.signal.reason instanceof ProviderTimeout;
  }

  /**
   * Restart the silence clock (a chunk arrived). Only a timestamp: the one timer checks it when it
   * fires, instead of a clearTimeout and setTimeout for every token.
   */
  arm(): void {
    this.lastActivity = performance.now();
  }

  abort(reason?: unknown): void {
    clearTimeout(this.timer);
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.parent?.removeEventListener("abort", this.onParentAbort);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      const silent = performance.now() - this.lastActivity;
      if (silent >= this.timeoutMs) this.abort(new ProviderTimeout(`no response within ${this.timeoutMs} ms`));
      else this.schedule(this.timeoutMs - silent);
    }, ms);
  }
}
