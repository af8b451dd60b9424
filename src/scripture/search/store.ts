import type { Collection } from "chromadb";
import type { ChromaConnection } from "../../chroma/connection.js";
import type { Passage } from "./types.js";

/**
 * Chroma's largest accepted batch is 5461 records. Smaller batches make progress visible, and each one's
 * JSON is built on the event loop while the service answers requests: 500 keeps that to a few ms.
 */
const BATCH = 500;

export interface CollectionInfo {
  name: string;
  embedderId: string;
  corpusHash: string;
  dim: number;
}

/** The passages' vectors in one Chroma collection per (corpus, embedder): vectors are never mixed. */
export class PassageStore {
  private collection: Collection | undefined;

  constructor(
    private readonly conn: ChromaConnection,
    readonly info: CollectionInfo,
  ) {}

  private async open(): Promise<Collection> {
    this.collection ??= await this.conn.client.getOrCreateCollection({
      name: this.info.name,
      embeddingFunction: null,
      configuration: { hnsw: { space: "cosine" } },
      metadata: { embedder: this.info.embedderId, corpus_hash: this.info.corpusHash, dim: this.info.dim },
    });
    return this.collection;
  }

  /** True when the collection holds exactly these passages from this embedder. */
  async isComplete(expected: number): Promise<boolean> {
    const c = await this.open();
    const meta = c.metadata ?? {};
    return meta.embedder === this.info.embedderId && meta.corpus_hash === this.info.corpusHash && (await c.count()) === expected;
  }

  async rewrite(passages: readonly Passage[], vectors: Float32Array, dim: number, onProgress?: (done: number) => void) {
    try {
      await this.conn.client.deleteCollection({ name: this.info.name });
    } catch {
      // absent: nothing to clear
    }
    this.collection = undefined;
    const c = await this.open();
    for (let i = 0; i < passages.length; i += BATCH) {
      const slice = passages.slice(i, i + BATCH);
      await c.add({
        ids: slice.map((p) => p.id),
        embeddings: slice.map((_, k) => Array.from(vectors.subarray((i + k) * dim, (i + k + 1) * dim))),
        metadatas: slice.map((p) => ({ book: p.book, chapter: p.chapter, testament: p.testament })),
      });
      onProgress?.(Math.min(passages.length, i + BATCH));
    }
  }

  /**
   * Drops our other collections (older corpus or embedder): they are never read again, and every
   * collection left behind slows Chroma's start, which loads each one.
   */
  async dropOthers(prefix: string): Promise<string[]> {
    const all = await this.conn.client.listCollections();
    const stale = all.map((c) => c.name).filter((n) => n.startsWith(prefix) && n !== this.info.name);
    for (const name of stale) await this.conn.client.deleteCollection({ name });
    return stale;
  }

  /** Nearest passages by cosine: ids with similarity (1 - cosine distance). */
  async query(vector: Float32Array, n: number): Promise<{ id: string; score: number }[]> {
    const c = await this.open();
    const res = await c.query({ queryEmbeddings: [Array.from(vector)], nResults: n, include: ["distances"] });
    const ids = res.ids[0] ?? [];
    const distances = res.distances?.[0] ?? [];
    return ids.map((id, k) => ({ id, score: 1 - (distances[k] ?? 1) }));
  }
}
