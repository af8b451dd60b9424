import OpenAI from "openai";
import type { RunChat } from "../src/http/chat/route.js";
import type { FakeProvider } from "../test/fakes/index.js";

/**
 * The adapter's baseline: the chat route in front of one plain streamed provider call (no graph),
 * which is what a thin OpenAI proxy such as LiteLLM does. Separates the adapter's cost from the graph's.
 */
export function plainProxy(provider: FakeProvider): RunChat {
  // A client per key, as a proxy would keep: building one costs more than the adapter itself.
  const clients = new Map<string, OpenAI>();
  return async (turns, ctx, opts) => {
    let client = clients.get(ctx.apiKey);
    if (!client) clients.set(ctx.apiKey, (client = new OpenAI({ baseURL: provider.baseURL, apiKey: ctx.apiKey, maxRetries: 0 })));
    const stream = await client.chat.completions.create(
      { model: ctx.model, messages: turns, stream: true, stream_options: { include_usage: true } },
      opts.signal ? { signal: opts.signal } : {},
    );
    let content = "";
    let usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    for await (const chunk of stream) {
      const text = chunk.choices[0]?.delta.content;
      if (text) {
        content += text;
        opts.onDelta?.(text);
      }
      if (chunk.usage) usage = chunk.usage;
    }
    return { kind: "answer", content, finishReason: "stop", usage, promptVersions: "" };
  };
}

/** The adapter's floor: a runner that answers at once without any provider call. */
export function scriptedAnswer(pieces: string[]): RunChat {
  const usage = { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 };
  return async (_turns, _ctx, opts) => {
    for (const piece of pieces) opts.onDelta?.(piece);
    return { kind: "answer", content: pieces.join(""), finishReason: "stop", usage, promptVersions: "guardrails@0" };
  };
}
