import { createHash } from "node:crypto";
import { gaussianMatrix, gram, normalize, orthonormalizeColumns, symmetricEigen } from "./linalg.js";

/**
 * Latent semantic analysis: a truncated SVD of the windows' TF-IDF matrix, trained on the corpus at
 * ingest time. It is the offline dense signal: no key, no download, deterministic for a seed.
 * Documents and queries are both projected on the top right singular vectors (x · V_k) and
 * L2-normalised, so cosine similarity compares them.
 */
export interface LsaOptions {
  dim: number;
  seed: number;
  /** Terms in fewer documents than this are left out of the vocabulary. */
  minDf?: number;
  powerIterations?: number;
}

export class LsaModel {
  private readonly index: Map<string, number>;

  constructor(
    readonly vocab: readonly string[],
    readonly idf: Float32Array,
    /** vocab.length x dim, row-major. */
    readonly projection: Float32Array,
    readonly dim: number,
  ) {
    this.index = new Map(vocab.map((t, i) => [t, i]));
  }

  /** Projects a token bag; null when no token is in the vocabulary (nothing to compare). */
  embedTokens(tokens: readonly string[]): Float32Array | null {
    const counts = new Map<number, number>();
    for (const t of tokens) {
      const i = this.index.get(t);
      if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1);
    }
    if (counts.size === 0) return null;
    const out = new Float32Array(this.dim);
    for (const [i, tf] of counts) {
      const w = (1 + Math.log(tf)) * this.idf[i]!;
      const o = i * this.dim;
      for (let k = 0; k < this.dim; k++) out[k]! += w * this.projection[o + k]!;
    }
    return normalize(out);
  }

  /** A content hash: two models with the same hash give the same vectors. */
  hash(): string {
    const h = createHash("sha256");
    h.update(this.vocab.join("\n"));
    h.update(Buffer.from(this.idf.buffer, this.idf.byteOffset, this.idf.byteLength));
    h.update(Buffer.from(this.projection.buffer, this.projection.byteOffset, this.projection.byteLength));
    return h.digest("hex").slice(0, 16);
  }

  serialize(): Buffer {
    const header = Buffer.from(JSON.stringify({ dim: this.dim, vocab: this.vocab }));
    const len = Buffer.alloc(4);
    len.writeUInt32LE(header.length);
    return Buffer.concat([len, header, f32Bytes(this.idf), f32Bytes(this.projection)]);
  }

  static deserialize(buf: Buffer): LsaModel {
    const headerLength = buf.readUInt32LE(0);
    const { dim, vocab } = JSON.parse(buf.subarray(4, 4 + headerLength).toString("utf8")) as { dim: number; vocab: string[] };
    let offset = 4 + headerLength;
    const idf = readF32(buf, offset, vocab.length);
    offset += vocab.length * 4;
    const projection = readF32(buf, offset, vocab.length * dim);
    return new LsaModel(vocab, idf, projection, dim);
  }
}

function f32Bytes(a: Float32Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

function readF32(buf: Buffer, offset: number, length: number): Float32Array {
  // Copy: the Buffer's offset need not be 4-byte aligned.
  const out = new Float32Array(length);
  Buffer.from(out.buffer).set(buf.subarray(offset, offset + length * 4));
  return out;
}

interface Csr {
  rows: number;
  cols: number;
  ptr: Int32Array;
  col: Int32Array;
  val: Float64Array;
}

/** X (rows x cols, sparse) times D (cols x l, dense) -> rows x l. */
function mulSparseDense(x: Csr, d: Float64Array, l: number): Float64Array {
  const out = new Float64Array(x.rows * l);
  for (let r = 0; r < x.rows; r++) {
    const o = r * l;
    for (let p = x.ptr[r]!; p < x.ptr[r + 1]!; p++) {
      const v = x.val[p]!;
      const c = x.col[p]! * l;
      for (let j = 0; j < l; j++) out[o + j]! += v * d[c + j]!;
    }
  }
  return out;
}

/** X^T (cols x rows) times D (rows x l, dense) -> cols x l. */
function mulSparseTransposeDense(x: Csr, d: Float64Array, l: number): Float64Array {
  const out = new Float64Array(x.cols * l);
  for (let r = 0; r < x.rows; r++) {
    const o = r * l;
    for (let p = x.ptr[r]!; p < x.ptr[r + 1]!; p++) {
      const v = x.val[p]!;
      const c = x.col[p]! * l;
      for (let j = 0; j < l; j++) out[c + j]! += v * d[o + j]!;
    }
  }
  return out;
}

/** Trains the model by randomized SVD (Halko, Martinsson & Tropp) with power iterations. */
export function trainLsa(docs: readonly (readonly string[])[], options: LsaOptions): LsaModel {
  const minDf = options.minDf ?? 2;
  const df = new Map<string, number>();
  for (const doc of docs) for (const t of new Set(doc)) df.set(t, (df.get(t) ?? 0) + 1);
  const vocab = [...df.entries()].filter(([, n]) => n >= minDf).map(([t]) => t).sort();
  const index = new Map(vocab.map((t, i) => [t, i]));
  const n = docs.length;
  const idf = Float32Array.from(vocab, (t) => Math.log((n + 1) / (df.get(t)! + 1)) + 1);

  const ptr = new Int32Array(n + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  docs.forEach((doc, r) => {
    const counts = new Map<number, number>();
    for (const t of doc) {
      const i = index.get(t);
      if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1);
    }
    const entries = [...counts.entries()].sort((a, b) => a[0] - b[0]);
    const weights = entries.map(([i, tf]) => (1 + Math.log(tf)) * idf[i]!);
    const norm = Math.sqrt(weights.reduce((s, w) => s + w * w, 0)) || 1;
    entries.forEach(([i], k) => {
      cols.push(i);
      vals.push(weights[k]! / norm);
    });
    ptr[r + 1] = cols.length;
  });
  const x: Csr = { rows: n, cols: vocab.length, ptr, col: Int32Array.from(cols), val: Float64Array.from(vals) };

  const k = options.dim;
  const l = Math.min(k + 16, vocab.length, n);
  let y = mulSparseDense(x, gaussianMatrix(vocab.length, l, options.seed), l);
  for (let it = 0; it < (options.powerIterations ?? 2); it++) {
    orthonormalizeColumns(y, n, l);
    const z = mulSparseTransposeDense(x, y, l);
    orthonormalizeColumns(z, vocab.length, l);
    y = mulSparseDense(x, z, l);
  }
  orthonormalizeColumns(y, n, l);
  // B^T = X^T Q (vocab x l); B B^T = (B^T)^T B^T gives B's left singular vectors and values.
  const bt = mulSparseTransposeDense(x, y, l);
  const { values, vectors } = symmetricEigen(gram(bt, vocab.length, l), l);
  const dim = Math.min(k, l);
  const projection = new Float32Array(vocab.length * dim);
  for (let j = 0; j < dim; j++) {
    const sigma = Math.sqrt(Math.max(values[j]!, 1e-24));
    // Fix the sign so the largest entry of each vector is positive: a deterministic convention.
    const column = new Float64Array(vocab.length);
    for (let t = 0; t < vocab.length; t++) {
      let s = 0;
      for (let i = 0; i < l; i++) s += bt[t * l + i]! * vectors[i * l + j]!;
      column[t] = s / sigma;
    }
    let maxAbs = 0;
    let sign = 1;
    for (const c of column) if (Math.abs(c) > maxAbs) (maxAbs = Math.abs(c)), (sign = Math.sign(c));
    for (let t = 0; t < vocab.length; t++) projection[t * dim + j] = sign * column[t]!;
  }
  return new LsaModel(vocab, idf, projection, dim);
}
