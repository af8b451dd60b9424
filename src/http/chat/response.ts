import { createHash, randomUUID } from "node:crypto";
import type { FinishReason, Usage } from "../../../graphs/chat/contract.js";
import { errorBody } from "../../errors.js";
import { parseChatRequest } from "./request.js";
import type { WireFormat } from "./wire-format.js";

export type { FinishReason };

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

/** Chat Completions on the wire: a chat.completion, or chat.completion.chunk events ending in [DONE]. */
export const chatFormat: WireFormat = {
  logName: "chat completion",
  parse: parseChatRequest,
  body(parsed, outcome, promptVersions) {
    const meta = completionMeta(parsed.ctx.model, promptVersions);
    const body = completionBody(meta, outcome.content, outcome.kind === "answer" ? outcome.finishReason : "stop", outcome.usage);
    return outcome.kind === "answer" && outcome.citations ? { ...body, citations: outcome.citations } : body;
  },
  stream(parsed, sse, promptVersions) {
    const { includeUsage } = parsed;
    const meta = completionMeta(parsed.ctx.model, promptVersions);
    const send = (delta: ChunkDelta, finish: FinishReason | null = null) => sse.send(chunkBody(meta, delta, finish, includeUsage));
    return {
      open: () => send({ role: "assistant", content: "" }),
      delta: (text) => send({ content: text }),
      finish(outcome, streamed) {
        if (!streamed && outcome.content !== "") send({ content: outcome.content });
        // The chunk with finish_reason carries the citations, so SDKs that keep unknown fields expose them.
        const last = chunkBody(meta, {}, outcome.kind === "answer" ? outcome.finishReason : "stop", includeUsage);
        sse.send(outcome.kind === "answer" && outcome.citations ? { ...last, citations: outcome.citations } : last);
        if (includeUsage) sse.send(usageChunkBody(meta, outcome.usage));
        sse.done();
      },
      fail(err) {
        sse.send(errorBody(err));
        sse.done();
      },
    };
  },
};
