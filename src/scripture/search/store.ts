import { ChromaNotFoundError, type Collection, type Metadata } from "chromadb";
import type { HeldClaim } from "../../chroma/claim.js";
import type { ChromaConnection } from "../../chroma/connection.js";
import type { WindowPlace } from "./types.js";

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
  indexVersion: number;
}

/** The collection was deleted under us (an operator's prune, or a Chroma that came back empty). */
export class IndexMissingError extends Error {
  override name = "IndexMissingError";
}

/** Another replica was presumed dead and took the build over: this one stops writing. */
export class ClaimLostError extends Error {
  override name = "ClaimLostError";
}

/**
 * The passages' vectors in one Chroma collection per (index version, corpus, embedder), so vectors are
 * never mixed and replicas of two configurations or two releases never touch each other's collection.
 * A collection is used only once its metadata says `complete` (written last, by the one replica that
 * claimed the build); nothing here ever deletes a complete collection.
 */
export class PassageStore {
  private collection: Collection | undefined;
  /** Called when a query finds the collection gone: the service resolves the index again. */
  onMissing: () => void = () => {};

  constructor(
    private readonly conn: ChromaConnection,
    readonly info: CollectionInfo,
  ) {}

  private metadata(complete: boolean, passages: number): Metadata {
    return {
      embedder: this.info.embedderId,
      corpus_hash: this.info.corpusHash,
      dim: this.info.dim,
      index_version: this.info.indexVersion,
      passages,
      complete,
      ...(complete ? { completed_at: new Date().toISOString() } : {}),
    };
  }

  private async get(): Promise<Collection | undefined> {
    try {
      return await this.conn.client.getCollection({ name: this.info.name });
    } catch (err) {
      if (err instanceof ChromaNotFoundError) return undefined;
      throw err;
    }
  }

  /** True when the collection is marked complete, from this embedder, with exactly these passages. */
  async isComplete(expected: number): Promise<boolean> {
    const c = await this.get();
    const meta = c?.metadata ?? {};
    const ok = meta.complete === true && meta.embedder === this.info.embedderId && meta.corpus_hash === this.info.corpusHash && (await c!.count()) === expected;
    if (ok) this.collection = c;
    return ok;
  }

  /**
   * Writes the collection from scratch under a held claim. An incomplete collection left by a builder
   * that died is nobody's (no replica uses an incomplete one), so it is cleared first. Upserts, so a
   * presumed-dead builder that wakes up and writes a batch more writes the same records.
   */
  async build(passages: readonly WindowPlace[], vectors: Float32Array, claim: HeldClaim, onProgress?: (done: number) => void) {
    const dim = this.info.dim;
    const lost = async () => {
      if (!(await claim.stillHeld())) throw new ClaimLostError(`the build of ${this.info.name} was taken over by another replica`);
    };
    if (await this.isComplete(passages.length)) return;
    await lost();
    const existing = await this.get();
    // Written by a release before the complete mark (whole by its own rule: same embedder, every passage),
    // maybe still in use by its replicas during a rolling upgrade: adopted as it is, never rewritten.
    const meta = existing?.metadata ?? {};
    if (existing && meta.complete === undefined && meta.embedder === this.info.embedderId && meta.corpus_hash === this.info.corpusHash && (await existing.count()) === passages.length) {
      await existing.modify({ metadata: this.metadata(true, passages.length) });
      this.collection = existing;
      return;
    }
    if (existing) await this.conn.client.deleteCollection({ name: this.info.name }).catch(() => undefined);
    this.collection = undefined;
    const c = await this.conn.client.createCollection({
      name: this.info.name,
      embeddingFunction: null,
      configuration: { hnsw: { space: "cosine" } },
      metadata: this.metadata(false, passages.length),
    });
    for (let i = 0; i < passages.length; i += BATCH) {
      await lost();
      const slice = passages.slice(i, i + BATCH);
      await c.upsert({
        ids: slice.map((p) => p.id),
        embeddings: slice.map((_, k) => Array.from(vectors.subarray((i + k) * dim, (i + k + 1) * dim))),
        metadatas: slice.map((p) => ({ book: p.book, chapter: p.chapter, testament: p.testament })),
      });
      onProgress?.(Math.min(passages.length, i + BATCH));
    }
    await lost();
    await c.modify({ metadata: this.metadata(true, passages.length) });
    this.collection = c;
  }

  /** The vectors another replica stored, in passage order: a replica that did not build needs them in memory. */
  async readVectors(passages: readonly WindowPlace[]): Promise<Float32Array> {
    const c = this.collection ?? (await this.get());
    if (!c) throw new IndexMissingError(`collection ${this.info.name} is missing`);
    const dim = this.info.dim;
    const positions = new Map(passages.map((p, i) => [p.id, i]));
    const out = new Float32Array(passages.length * dim);
    let filled = 0;
    for (let offset = 0; offset < passages.length; offset += BATCH) {
      const page = await c.get({ limit: BATCH, offset, include: ["embeddings"] });
      page.ids.forEach((id, k) => {
        const i = positions.get(id);
        const v = page.embeddings[k];
        if (i === undefined || !v || v.length !== dim) return;
        out.set(v, i * dim);
        filled += 1;
      });
    }
    if (filled !== passages.length) throw new IndexMissingError(`collection ${this.info.name} holds ${filled} of ${passages.length} passages`);
    return out;
  }

  /** Nearest passages by cosine: ids with similarity (1 - cosine distance). */
  async query(vector: Float32Array, n: number): Promise<{ id: string; score: number }[]> {
    try {
      const c = this.collection ?? (await this.get());
      if (!c) throw new ChromaNotFoundError(`collection ${this.info.name} is missing`);
      this.collection = c;
      // Chroma's query endpoint with the body the chromadb client's collection.query sends for these
      // arguments (the same vector, n and include), through the connection's lean POST.
      const body = `{"include":["distances"],"n_results":${n},"query_embeddings":[${JSON.stringify(Array.from(vector))}]}`;
      const res = (await this.conn.postJson(`/api/v2/tenants/${encodeURIComponent(c.tenant)}/databases/${encodeURIComponent(c.database)}/collections/${c.id}/query`, body)) as { ids?: string[][]; distances?: (number | null)[][] };
      const ids = res.ids?.[0] ?? [];
      const distances = res.distances?.[0] ?? [];
      return ids.map((id, k) => ({ id, score: 1 - (distances[k] ?? 1) }));
    } catch (err) {
      // A missing collection is not an unreachable Chroma: the handle is dropped and resolved again.
      if (err instanceof ChromaNotFoundError) {
        this.collection = undefined;
        this.onMissing();
        throw new IndexMissingError(`collection ${this.info.name} is missing`);
      }
      this.conn.markDown((err as Error).message);
      throw err;
    }
  }
}
