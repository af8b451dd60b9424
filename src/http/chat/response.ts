import { createHash, randomUUID } from "node:crypto";
import type { Usage } from "../../../graphs/chat/contract.js";

export type FinishReason = "stop" | "length";

/** What every chunk and the completion of one response share. */
export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
  systemFingerprint?: string;
}

/** Few distinct values exist (theologies x profiles x prompt edits), so hashing each once is enough. */
const fingerprints = new Map<string, string>();

/** Changes exactly when the prompts behind the answer change, as OpenAI's does with its backend. */
function fingerprint(promptVersions: string): string {
  let fp = fingerprints.get(promptVersions);
  if (fp === undefined) {
    if (fingerprints.size >= 1000) fingerprints.clear();
    fp = `fp_${createHash("sha256").update(promptVersions).digest("hex").slice(0, 10)}`;
    fingerprints.set(promptVersions, fp);
  }
  return fp;
}

export function completionMeta(model: string, promptVersions?: string, now = Date.now()): CompletionMeta {
  const meta: CompletionMeta = { id: `chatcmpl-${randomUUID().replace(/-/g, "")}`, created: Math.floor(now / 1000), model };
  if (promptVersions) meta.systemFingerprint = fingerprint(promptVersions);
  return meta;
}

function head(meta: CompletionMeta, object: "chat.completion" | "chat.completion.chunk") {
  const out: Record<string, unknown> = { id: meta.id, object, created: meta.created, model: meta.model };
  if (meta.systemFingerprint) out.system_fingerprint = meta.systemFingerprint;
  return out;
}

export function completionBody(meta: CompletionMeta, content: string, finishReason: FinishReason, usage: Usage) {
  return {
    ...head(meta, "chat.completion"),
    choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.total_tokens },
  };
}

export type ChunkDelta = { role?: "assistant"; content?: string };

/**
 * One streamed chunk. With include_usage, OpenAI sends `usage: null` on every chunk but the last, so
 * typed clients can rely on the key being there.
 */
export function chunkBody(meta: CompletionMeta, delta: ChunkDelta, finishReason: FinishReason | null, includeUsage: boolean) {
  const chunk: Record<string, unknown> = {
    ...head(meta, "chat.completion.chunk"),
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
  if (includeUsage) chunk.usage = null;
  return chunk;
}

export function usageChunkBody(meta: CompletionMeta, usage: Usage) {
  return {
    ...head(meta, "chat.completion.chunk"),
    choices: [],
    usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.total_tokens },
  };
}
