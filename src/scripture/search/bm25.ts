/**
 * Okapi BM25 over token arrays. Postings are typed arrays so a query touches only the documents that
 * hold its terms; scoring the whole corpus (about 10k windows) stays well under a millisecond.
 */
export interface Bm25Options {
  k1?: number;
  b?: number;
  /** Lengths for the length normalisation, when some tokens (tags) should not count. */
  lengths?: readonly number[];
}

/** Scores of the documents that hold at least one query term, in no particular order. */
export interface SparseScores {
  docs: Int32Array;
  scores: Float32Array;
}

/**
 * A built index as flat typed arrays: what a worker thread that built it sends to the main thread, where
 * adopting it costs milliseconds instead of rebuilding the postings from every token.
 */
export interface Bm25Data {
  k1: number;
  size: number;
  norms: Float32Array;
  terms: string[];
  idf: Float64Array;
  /** Term i's postings are docs/tfs[offsets[i], offsets[i + 1]). */
  offsets: Int32Array;
  docs: Int32Array;
  tfs: Float32Array;
}

export class Bm25Index {
  readonly size: number;
  /**
   * Term -> its number i; its postings are docs/tfs[offsets[i], offsets[i + 1]) and its idf idfs[i]. The
   * index is held as these flat arrays (Bm25Data's), not as a typed-array view per term: ~24,000 terms
   * across the windows' and the commentary's indexes were 48,000 views, ~4.4 MB of heap at rest.
   */
  private readonly terms = new Map<string, number>();
  private readonly offsets: Int32Array;
  private readonly docs: Int32Array;
  private readonly tfs: Float32Array;
  private readonly idfs: Float64Array;
  private readonly norms: Float32Array;
  private readonly k1: number;
  // Reused by sparse(): it never awaits, so one accumulator serves every call without per-query garbage.
  private readonly acc: Float32Array;
  private readonly touched: Int32Array;

  /**
   * From the documents' tokens, from their term counts (term -> how often it occurs, in the order the
   * terms first occur: the same index as the tokens, without holding them), or adopting built data.
   */
  constructor(docs: Iterable<readonly string[] | ReadonlyMap<string, number>> | Bm25Data, options: Bm25Options = {}) {
    if (!(Symbol.iterator in docs)) {
      const data = docs as Bm25Data;
      this.k1 = data.k1;
      this.size = data.size;
      this.norms = data.norms;
      this.acc = new Float32Array(data.size);
      this.touched = new Int32Array(data.size);
      data.terms.forEach((t, i) => this.terms.set(t, i));
      this.offsets = data.offsets;
      this.docs = data.docs;
      this.tfs = data.tfs;
      this.idfs = data.idf;
      return;
    }
    this.k1 = options.k1 ?? 1.2;
    const b = options.b ?? 0.75;
    // The documents are read once, in order, and none is kept: a generator can hand them over one at a
    // time (the corpus worker tokenizes a window per step), so its tokens never all live at once.
    const tmp = new Map<string, { docs: number[]; tfs: number[] }>();
    const ownLengths: number[] = [];
    let total = 0;
    let size = 0;
    for (const doc of docs) {
      const i = size++;
      let counts: ReadonlyMap<string, number>;
      if (isCounts(doc)) counts = doc;
      else {
        const own = new Map<string, number>();
        for (const t of doc) own.set(t, (own.get(t) ?? 0) + 1);
        counts = own;
      }
      if (!options.lengths) ownLengths.push(isCounts(doc) ? sum(doc.values()) : doc.length);
      for (const [t, tf] of counts) {
        let p = tmp.get(t);
        if (!p) tmp.set(t, (p = { docs: [], tfs: [] }));
        p.docs.push(i);
        p.tfs.push(tf);
      }
      total += counts.size;
    }
    this.size = size;
    // Read after the documents: a generator may fill options.lengths as it yields them.
    const lengths = options.lengths ? [...options.lengths] : ownLengths;
    const avg = lengths.reduce((s, n) => s + n, 0) / Math.max(1, size);
    this.acc = new Float32Array(size);
    this.touched = new Int32Array(size);
    this.norms = Float32Array.from(lengths, (n) => this.k1 * (1 - b + (b * n) / Math.max(avg, 1)));
    this.offsets = new Int32Array(tmp.size + 1);
    this.docs = new Int32Array(total);
    this.tfs = new Float32Array(total);
    this.idfs = new Float64Array(tmp.size);
    let i = 0;
    for (const [t, p] of tmp) {
      const df = p.docs.length;
      const at = this.offsets[i]!;
      this.terms.set(t, i);
      this.docs.set(p.docs, at);
      this.tfs.set(p.tfs, at);
      this.idfs[i] = Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
      this.offsets[++i] = at + df;
    }
  }

  /** The index as flat arrays (see Bm25Data); `new Bm25Index(data)` gives an index that scores the same. Shares this index's arrays. */
  toData(): Bm25Data {
    return { k1: this.k1, size: this.size, norms: this.norms, terms: [...this.terms.keys()], idf: this.idfs, offsets: this.offsets, docs: this.docs, tfs: this.tfs };
  }

  /**
   * Index terms that begin like a word the index does not hold ("forgivness" -> forgiv...), for a query
   * that matched nothing: the word's first `min` letters at least, most frequent terms first, at most five.
   */
  termsLike(word: string, min: number): string[] {
    if (word.length < min || this.terms.has(word)) return this.terms.has(word) ? [word] : [];
    const out: { term: string; df: number }[] = [];
    for (let n = Math.min(word.length, 6); n >= min && out.length === 0; n--) {
      const prefix = word.slice(0, n);
      for (const [term, i] of this.terms) if (term.startsWith(prefix)) out.push({ term, df: this.offsets[i + 1]! - this.offsets[i]! });
    }
    return out.sort((a, b) => b.df - a.df || a.term.localeCompare(b.term)).slice(0, 5).map((x) => x.term);
  }

  idf(term: string): number {
    const i = this.terms.get(term);
    return i === undefined ? 0 : this.idfs[i]!;
  }

  /** One query term's BM25 contribution to document d (norms[d] holds k1 * length normalisation). */
  private termScore(idf: number, tf: number, d: number): number {
    return (idf * tf * (this.k1 + 1)) / (tf + this.norms[d]!);
  }

  /** Scores every document; documents without a query term score 0. Repeated query terms count once. */
  scores(query: readonly string[], out: Float32Array = new Float32Array(this.size)): Float32Array {
    out.fill(0);
    const { docs, tfs, offsets } = this;
    for (const term of new Set(query)) {
      const i = this.terms.get(term);
      if (i === undefined) continue;
      const idf = this.idfs[i]!;
      for (let j = offsets[i]!, end = offsets[i + 1]!; j < end; j++) {
        const d = docs[j]!;
        const tf = tfs[j]!;
        out[d]! += this.termScore(idf, tf, d);
      }
    }
    return out;
  }

  /**
   * Like scores(), but walks only the query terms' postings and returns just the documents they touch,
   * so a query costs its postings' length rather than a pass over every document.
   */
  sparse(query: readonly string[]): SparseScores {
    const { acc, touched, offsets, tfs } = this;
    let n = 0;
    const seen: string[] = [];
    for (const term of query) {
      if (seen.includes(term)) continue;
      seen.push(term);
      const i = this.terms.get(term);
      if (i === undefined) continue;
      const idf = this.idfs[i]!;
      const postings = this.docs;
      for (let j = offsets[i]!, end = offsets[i + 1]!; j < end; j++) {
        const d = postings[j]!;
        const tf = tfs[j]!;
        if (acc[d] === 0) touched[n++] = d;
        acc[d]! += this.termScore(idf, tf, d);
      }
    }
    const docs = touched.slice(0, n);
    const scores = new Float32Array(n);
    for (let j = 0; j < n; j++) {
      const d = docs[j]!;
      scores[j] = acc[d]!;
      acc[d] = 0;
    }
    return { docs, scores };
  }
}

function isCounts(doc: readonly string[] | ReadonlyMap<string, number>): doc is ReadonlyMap<string, number> {
  return doc instanceof Map;
}

function sum(values: Iterable<number>): number {
  let n = 0;
  for (const v of values) n += v;
  return n;
}
