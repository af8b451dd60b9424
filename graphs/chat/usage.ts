import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import type { Serialized } from "@langchain/core/load/serializable";
import { textOf } from "./messages.js";
import type { Usage } from "./contract.js";

/** About four characters a token: only for calls the provider never reported (see below). */
const CHARS_PER_TOKEN = 4;

interface Pending {
  promptChars: number;
  completionChars: number;
}

/**
 * Sums the token usage of every provider call in one run (preflight and each agent turn). Awaited so
 * the totals are complete when the run resolves. A call that ends without a report (the answer turn
 * that max_words cut: we abort it before the provider's usage chunk) is estimated from the characters
 * sent and received, so usage does not silently drop the call the caller paid for.
 */
export class UsageCollector extends BaseCallbackHandler {
  name = "usage_collector";
  override awaitHandlers = true;
  readonly usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  private readonly pending = new Map<string, Pending>();

  override async handleChatModelStart(_llm: Serialized, messages: BaseMessage[][], runId: string): Promise<void> {
    const promptChars = messages.flat().reduce((n, m) => n + textOf(m.content).length, 0);
    this.pending.set(runId, { promptChars, completionChars: 0 });
  }

  override async handleLLMNewToken(token: string, _idx: unknown, runId: string): Promise<void> {
    const p = this.pending.get(runId);
    if (p) p.completionChars += token.length;
  }

  override async handleLLMEnd(output: LLMResult, runId: string): Promise<void> {
    const pending = this.pending.get(runId);
    this.pending.delete(runId);
    let found = false;
    for (const generations of output.generations) {
      for (const gen of generations) {
        const meta = (gen as { message?: { usage_metadata?: { input_tokens?: number; output_tokens?: number } } }).message?.usage_metadata;
        if (meta) {
          this.add(meta.input_tokens ?? 0, meta.output_tokens ?? 0);
          found = true;
        }
      }
    }
    const fallback = output.llmOutput?.tokenUsage as { promptTokens?: number; completionTokens?: number } | undefined;
    if (!found && fallback) this.add(fallback.promptTokens ?? 0, fallback.completionTokens ?? 0);
    else if (!found && pending) this.estimate(pending);
  }

  override async handleLLMError(_err: unknown, runId: string): Promise<void> {
    const pending = this.pending.get(runId);
    this.pending.delete(runId);
    if (pending && pending.completionChars > 0) this.estimate(pending);
  }

  /** Calls still open when the run ended (a stream left early ends with neither callback). */
  settle(): Usage {
    for (const p of this.pending.values()) if (p.completionChars > 0) this.estimate(p);
    this.pending.clear();
    return this.usage;
  }

  private estimate(p: Pending): void {
    this.add(Math.ceil(p.promptChars / CHARS_PER_TOKEN), Math.ceil(p.completionChars / CHARS_PER_TOKEN));
  }

  private add(prompt: number, completion: number): void {
    this.usage.prompt_tokens += prompt;
    this.usage.completion_tokens += completion;
    this.usage.total_tokens += prompt + completion;
  }
}
