import { createHash } from "node:crypto";
import { normalize } from "./linalg.js";
import type { LsaModel } from "./lsa.js";
import { tokenize } from "./tokenizer.js";

/**
 * What turns text into vectors. `id` names the exact vector space (kind, model, dimension, content
 * hash); it is stored in the Chroma collection's metadata and the index manifest, so vectors of two
 * embedders are never mixed: a different id means a different collection and a re-index.
 */
export interface Embedder {
  readonly kind: "lsa" | "openai";
  readonly id: string;
  readonly dim: number;
  /** Null when the text has nothing the embedder can represent (no known word). */
  embedQuery(text: string): Promise<Float32Array | null>;
  embedDocuments(texts: readonly string[], onProgress?: (done: number) => void): Promise<Float32Array[]>;
}

export function lsaEmbedder(model: LsaModel): Embedder {
  const embed = (text: string) => model.embedTokens(tokenize(text));
  return {
    kind: "lsa",
    id: `lsa-${model.dim}-${model.hash()}`,
    dim: model.dim,
    embedQuery: async (text) => embed(text),
    // A passage with no vocabulary word still needs a vector for Chroma; the zero-free unit vector is neutral.
    embedDocuments: async (texts) => texts.map((t) => embed(t) ?? unit(model.dim)),
  };
}

function unit(dim: number): Float32Array {
  const v = new Float32Array(dim);
  v[0] = 1;
  return v;
}

export interface OpenAiEmbedderOptions {
  baseURL: string;
  apiKey?: string;
  model: string;
  /** Vectors are checked against this once known; 0 = learn it from the first response. */
  dim?: number;
  batchSize?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

function decode(embedding: unknown): Float32Array {
  if (typeof embedding === "string") {
    const bytes = Buffer.from(embedding, "base64");
    const out = new Float32Array(bytes.length / 4);
    Buffer.from(out.buffer).set(bytes);
    return out;
  }
  if (Array.isArray(embedding)) return Float32Array.from(embedding as number[]);
  throw new Error("embeddings endpoint returned no vector");
}

/** Any OpenAI-compatible POST {baseURL}/embeddings; asks for base64 like the official SDK does. */
export async function openAiEmbedder(options: OpenAiEmbedderOptions): Promise<Embedder> {
  const doFetch = options.fetch ?? fetch;
  const batchSize = options.batchSize ?? 256;
  async function call(input: readonly string[]): Promise<Float32Array[]> {
    const res = await doFetch(`${options.baseURL}/embeddings`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: options.model, input, encoding_format: "base64" }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
    if (!res.ok) throw new Error(`embeddings endpoint answered ${res.status}`);
    const body = (await res.json()) as { data?: { index: number; embedding: unknown }[] };
    const data = [...(body.data ?? [])].sort((a, b) => a.index - b.index);
    if (data.length !== input.length) throw new Error(`embeddings endpoint returned ${data.length} of ${input.length} vectors`);
    return data.map((d) => normalize(decode(d.embedding)));
  }
  // One probe fixes the dimension, which is part of the id: a model served at another size is another space.
  const dim = options.dim || (await call(["dimension probe"]))[0]!.length;
  const host = createHash("sha256").update(`${options.baseURL}\n${options.model}`).digest("hex").slice(0, 8);
  const safeModel = options.model.replace(/[^A-Za-z0-9._-]/g, "-").slice(0, 40);
  return {
    kind: "openai",
    id: `openai-${safeModel}-${dim}-${host}`,
    dim,
    embedQuery: async (text) => (await call([text]))[0]!,
    async embedDocuments(texts, onProgress) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const vectors = await call(texts.slice(i, i + batchSize));
        if (vectors.some((v) => v.length !== dim)) throw new Error(`embeddings changed dimension (expected ${dim})`);
        out.push(...vectors);
        onProgress?.(out.length);
      }
      return out;
    },
  };
}
