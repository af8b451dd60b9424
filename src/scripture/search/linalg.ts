/**
 * The little dense linear algebra the LSA trainer needs. Row-major Float64Arrays; sizes are small
 * (a few hundred columns), so plain loops beat pulling in a numeric library.
 */

/** mulberry32: a tiny seeded PRNG, so training is reproducible run to run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function gaussianMatrix(rows: number, cols: number, seed: number): Float64Array {
  const rand = seededRandom(seed);
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < out.length; i += 2) {
    const u = Math.max(rand(), 1e-12);
    const v = rand();
    const r = Math.sqrt(-2 * Math.log(u));
    out[i] = r * Math.cos(2 * Math.PI * v);
    if (i + 1 < out.length) out[i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return out;
}

/**
 * Orthonormalises the columns of a rows x cols matrix in place (modified Gram-Schmidt). The columns
 * are copied out first so the inner loops run over contiguous memory: about 10x faster than strided.
 */
export function orthonormalizeColumns(m: Float64Array, rows: number, cols: number, scratch?: Float64Array): void {
  // `scratch` (rows * cols at least) holds the column copies, so a caller that orthonormalises again and
  // again (LSA's power iterations) reuses one buffer instead of leaving one matrix of garbage a call.
  const c: Float64Array[] = [];
  for (let j = 0; j < cols; j++) {
    const col = scratch ? scratch.subarray(j * rows, (j + 1) * rows) : new Float64Array(rows);
    for (let r = 0; r < rows; r++) col[r] = m[r * cols + j]!;
    c.push(col);
  }
  for (let j = 0; j < cols; j++) {
    const cj = c[j]!;
    for (let k = 0; k < j; k++) {
      const ck = c[k]!;
      let dot = 0;
      for (let r = 0; r < rows; r++) dot += cj[r]! * ck[r]!;
      for (let r = 0; r < rows; r++) cj[r]! -= dot * ck[r]!;
    }
    let norm = 0;
    for (let r = 0; r < rows; r++) norm += cj[r]! * cj[r]!;
    norm = Math.sqrt(norm);
    // A column that vanished (rank deficiency) stays zero rather than amplifying rounding noise.
    const scale = norm > 1e-10 ? 1 / norm : 0;
    for (let r = 0; r < rows; r++) cj[r]! *= scale;
  }
  for (let j = 0; j < cols; j++) {
    const col = c[j]!;
    for (let r = 0; r < rows; r++) m[r * cols + j] = col[r]!;
  }
}

/** A^T A for a rows x cols matrix: cols x cols. */
export function gram(a: Float64Array, rows: number, cols: number): Float64Array {
  const g = new Float64Array(cols * cols);
  for (let r = 0; r < rows; r++) {
    const o = r * cols;
    for (let i = 0; i < cols; i++) {
      const ai = a[o + i]!;
      if (ai === 0) continue;
      for (let j = i; j < cols; j++) g[i * cols + j]! += ai * a[o + j]!;
    }
  }
  for (let i = 0; i < cols; i++) for (let j = 0; j < i; j++) g[i * cols + j] = g[j * cols + i]!;
  return g;
}

/**
 * Eigen-decomposition of a symmetric n x n matrix by cyclic Jacobi rotations.
 * Returns eigenvalues sorted descending and the matching eigenvectors as columns (row-major n x n).
 */
export function symmetricEigen(input: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(input);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q]! ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => a[y * n + y]! - a[x * n + x]!);
  const values = Float64Array.from(order, (i) => a[i * n + i]!);
  const vectors = new Float64Array(n * n);
  order.forEach((src, dst) => {
    for (let k = 0; k < n; k++) vectors[k * n + dst] = v[k * n + src]!;
  });
  return { values, vectors };
}

export function normalize(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm > 0) {
    const s = 1 / Math.sqrt(norm);
    for (let i = 0; i < v.length; i++) v[i]! *= s;
  }
  return v;
}
