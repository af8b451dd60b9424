import { estimateTokens } from "./wire.js";

/** FNV-1a: cheap, stable across runs and platforms. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A hashed bag of words, L2-normalised: texts sharing words get close vectors, so retrieval over
 * fake embeddings still ranks the verse that shares the query's words first.
 */
export function embedText(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    const h = hash(word);
    vector[h % dimensions]! += (h & 0x80000000) !== 0 ? -1 : 1;
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm === 0) {
    // A zero vector has no cosine; a fixed unit vector keeps empty input valid.
    vector[0] = 1;
    return vector;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) vector[i]! *= scale;
  return vector;
}

/** Token arrays (which the API also accepts) are embedded through their decimal text. */
function inputsOf(input: unknown): string[] | undefined {
  if (typeof input === "string") return [input];
  if (!Array.isArray(input) || input.length === 0) return undefined;
  if (input.every((item) => typeof item === "number")) return [input.join(" ")];
  const out: string[] = [];
  for (const item of input) {
    if (typeof item === "string") out.push(item);
    else if (Array.isArray(item) && item.every((n) => typeof n === "number")) out.push(item.join(" "));
    else return undefined;
  }
  return out;
}

function encodeBase64(vector: Float32Array): string {
  // Float32Array is host-endian; x64 and arm64 are little-endian, which is what the SDK decodes.
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64");
}

export type EmbeddingsResult = { ok: true; body: unknown } | { ok: false; message: string; param: string };

export function embeddingsResponse(body: unknown, defaultDimensions: number): EmbeddingsResult {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const inputs = inputsOf(b.input);
  if (!inputs) return { ok: false, message: "'input' must be a non-empty string or array.", param: "input" };
  if (typeof b.model !== "string") return { ok: false, message: "you must provide a model parameter", param: "model" };
  const dimensions = typeof b.dimensions === "number" && b.dimensions > 0 ? Math.floor(b.dimensions) : defaultDimensions;
  const base64 = b.encoding_format === "base64";
  let tokens = 0;
  const data = inputs.map((text, index) => {
    tokens += estimateTokens(text.length);
    const vector = embedText(text, dimensions);
    return { object: "embedding", index, embedding: base64 ? encodeBase64(vector) : Array.from(vector) };
  });
  return {
    ok: true,
    body: { object: "list", data, model: b.model, usage: { prompt_tokens: tokens, total_tokens: tokens } },
  };
}
