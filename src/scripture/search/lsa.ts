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

const EMPTY = new Int32Array(0);

interface Csr {
  rows: number;
  cols: number;
  ptr: Int32Array;
  col: Int32Array;
  val: Float64Array;
}

/** X (rows x cols, sparse) times D (cols x l, dense) -> rows x l. */
function mulSparseDense(x: Csr, d: Float64Array, l: number, into?: Float64Array): Float64Array {
  const out = into ? into.fill(0) : new Float64Array(x.rows * l);
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
function mulSparseTransposeDense(x: Csr, d: Float64Array, l: number, into?: Float64Array): Float64Array {
  const out = into ? into.fill(0) : new Float64Array(x.cols * l);
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

/**
 * Trains the model by randomized SVD (Halko, Martinsson & Tropp) with power iterations. `docs` may be a
 * generator: each document's tokens become term ids as they come, so a caller that tokenizes one window
 * at a time never holds the corpus' tokens (about 1.7 million strings for the WEB) at once.
 */
export function trainLsa(docs: Iterable<readonly string[]>, options: LsaOptions): LsaModel {
  const minDf = options.minDf ?? 2;
  // Every term in the order first seen, its document frequency, and each document as term ids.
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  const df: number[] = [];
  const lastDoc: number[] = [];
  const rows: Int32Array[] = [];
  for (const doc of docs) {
    const r = rows.length;
    const ids = new Int32Array(doc.length);
    let k = 0;
    for (const t of doc) {
      let id = termIds.get(t);
      if (id === undefined) {
        id = terms.length;
        termIds.set(t, id);
        terms.push(t);
        df.push(0);
        lastDoc.push(-1);
      }
      if (lastDoc[id] !== r) (lastDoc[id] = r), df[id]!++;
      ids[k++] = id;
    }
    rows.push(ids);
  }
  termIds.clear();
  // In code-unit order, as Array.prototype.sort orders strings.
  const kept = terms.map((_, id) => id).filter((id) => df[id]! >= minDf).sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
  const vocab = kept.map((id) => terms[id]!);
  // Term id -> vocabulary index (-1: in fewer than minDf documents).
  const column = new Int32Array(terms.length).fill(-1);
  kept.forEach((id, i) => (column[id] = i));
  const n = rows.length;
  const idf = Float32Array.from(kept, (id) => Math.log((n + 1) / (df[id]! + 1)) + 1);

  const ptr = new Int32Array(n + 1);
  // A document has at most as many distinct terms as tokens: typed arrays of that size, filled in place,
  // instead of growing JS arrays and copying them (tens of MB of heap at the first start's peak).
  const cols = new Int32Array(rows.reduce((s, doc) => s + doc.length, 0));
  const vals = new Float64Array(cols.length);
  let nnz = 0;
  rows.forEach((doc, r) => {
    const counts = new Map<number, number>();
    for (const id of doc) {
      const i = column[id]!;
      if (i >= 0) counts.set(i, (counts.get(i) ?? 0) + 1);
    }
    rows[r] = EMPTY;
    const entries = [...counts.entries()].sort((a, b) => a[0] - b[0]);
    const weights = entries.map(([i, tf]) => (1 + Math.log(tf)) * idf[i]!);
    const norm = Math.sqrt(weights.reduce((s, w) => s + w * w, 0)) || 1;
    entries.forEach(([i], k) => {
      cols[nnz] = i;
      vals[nnz++] = weights[k]! / norm;
    });
    ptr[r + 1] = nnz;
  });
  const x: Csr = { rows: n, cols: vocab.length, ptr, col: cols.subarray(0, nnz), val: vals.subarray(0, nnz) };

  const k = options.dim;
  const l = Math.min(k + 16, vocab.length, n);
  // Two dense matrices (documents x l, terms x l) and one scratch buffer for the whole training, each
  // product written over the one it replaces: the same arithmetic as fresh matrices a step, without
  // leaving ~15 MB of garbage outside the heap per step at the first start's memory peak.
  const z = gaussianMatrix(vocab.length, l, options.seed);
  const y = mulSparseDense(x, z, l);
  const scratch = new Float64Array(Math.max(n, vocab.length) * l);
  for (let it = 0; it < (options.powerIterations ?? 2); it++) {
    orthonormalizeColumns(y, n, l, scratch);
    mulSparseTransposeDense(x, y, l, z);
    orthonormalizeColumns(z, vocab.length, l, scratch);
    mulSparseDense(x, z, l, y);
  }
  orthonormalizeColumns(y, n, l, scratch);
  // B^T = X^T Q (vocab x l); B B^T = (B^T)^T B^T gives B's left singular vectors and values.
  const bt = mulSparseTransposeDense(x, y, l, z);
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
