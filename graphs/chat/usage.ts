import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { LLMResult } from "@langchain/core/outputs";
import type { Usage } from "./types.js";

/**
 * Sums the token usage of every provider call in one run (preflight and each agent turn). Awaited so
 * the totals are complete when the run resolves.
 */
export class UsageCollector extends BaseCallbackHandler {
  name = "usage_collector";
  override awaitHandlers = true;
  readonly usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

  override async handleLLMEnd(output: LLMResult): Promise<void> {
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
  }

  private add(prompt: number, completion: number): void {
    this.usage.prompt_tokens += prompt;
    this.usage.completion_tokens += completion;
    this.usage.total_tokens += prompt + completion;
  }
}
