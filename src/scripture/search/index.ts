import { hostname } from "node:os";
import { ClaimBoard, type HeldClaim } from "../../chroma/claim.js";
import type { ChromaConnection } from "../../chroma/connection.js";
import { prepareCorpusInWorker, type PreparedCorpus } from "./corpus-thread.js";
import { lsaEmbedder, openAiEmbedder, type Embedder } from "./embedders.js";
import { IndexFiles, type Manifest } from "./index-files.js";
import { LsaModel } from "./lsa.js";
import { PassageRanker } from "./ranker.js";
import { ClaimLostError, PassageStore } from "./store.js";
import type { ChapterSource, WindowPlace } from "./types.js";
import { DEFAULT_WINDOWS } from "./windows.js";

export type { PreparedCorpus } from "./corpus-thread.js";
export { corpusPassages } from "./search-windows.js";

/** Bump when windows, tokens or vectors change meaning: the corpus hash then changes and re-indexes. */
const INDEX_VERSION = 2;
const LSA = { dim: 128, seed: 42 };
/** Every index collection starts so (the prune command lists them by it). */
export const COLLECTION_PREFIX = "scripture-";
export { INDEX_VERSION };

export type EmbedderConfig = { kind: "lsa" } | { kind: "openai"; baseURL: string; apiKey?: string; model: string };

export interface IndexLogger {
  info(obj: object, msg?: string): void;
}

/** Everything a query needs, in memory, plus the Chroma collection the unfiltered path queries. */
export interface SearchIndex {
  /** The windows' places, in index order (their texts stay in the corpus worker: PreparedCorpus.texts). */
  passages: readonly WindowPlace[];
  ranker: PassageRanker;
  embedder: Embedder;
  /** passages.length x embedder.dim, the same vectors Chroma holds. */
  vectors: Float32Array;
  positions: Map<string, number>;
  store: PassageStore;
  manifest: Manifest;
  /**
   * "warm": found valid, nothing rebuilt; "shared": the collection another replica built, its vectors
   * read from Chroma; "reupload"/"ingest": this replica built it from vectors on disk / embedded now.
   */
  mode: "warm" | "shared" | "reupload" | "ingest";
}

/**
 * The corpus side of the index (windows, keyword ranker, corpus hash; LSA training and passage vectors
 * on demand): pure CPU, run in a worker thread so requests keep being answered meanwhile, and so it can
 * overlap Chroma's boot. The caller releases it once the index is built.
 */
export function prepareCorpus(bible: ChapterSource, options: { dataDir?: string } = {}): Promise<PreparedCorpus> {
  // The windows' ids, texts and tags are hashed after this: what else changes an index's meaning.
  // The teaching signals are kept in the index's directory (IndexFiles) when there is a DATA_DIR.
  const signalsDir = options.dataDir === undefined ? undefined : new IndexFiles(options.dataDir).dir;
  return prepareCorpusInWorker(bible, `v${INDEX_VERSION}:${DEFAULT_WINDOWS.size}:${DEFAULT_WINDOWS.stride}\n`, signalsDir);
}

export interface IndexOptions {
  bible: ChapterSource;
  /** Already prepared from `bible` (start-up overlaps it with Chroma's boot); the caller releases it (with LSA the build ends its worker as soon as the vectors are in hand). */
  prepared?: PreparedCorpus;
  conn: ChromaConnection;
  dataDir: string;
  embedder: EmbedderConfig;
  logger: IndexLogger;
  /** Rebuild even when the manifest says the index is valid. */
  force?: boolean;
  /** The build claim's lease (DEFAULT_BUILD_LEASE_MS); tests shorten it. */
  leaseMs?: number;
  /** Names this replica in claims (host:pid by default). */
  owner?: string;
}

function specOf(e: EmbedderConfig): string {
  return e.kind === "lsa" ? `lsa:${LSA.dim}:${LSA.seed}` : `openai:${e.baseURL}:${e.model}`;
}

/** The embedder, and for LSA the serialized model too (the corpus worker embeds the passages with it). */
async function makeEmbedder(config: EmbedderConfig, corpus: PreparedCorpus, files: IndexFiles, train: boolean, log: IndexLogger): Promise<{ embedder: Embedder; lsa?: Buffer }> {
  if (config.kind === "openai") return { embedder: await openAiEmbedder(config) };
  const file = `lsa-${corpus.corpusHash}.bin`;
  const saved = train ? undefined : await files.readBuffer(file);
  if (saved) return { embedder: lsaEmbedder(LsaModel.deserialize(saved)), lsa: saved };
  const started = Date.now();
  log.info({ passages: corpus.passages.length, dim: LSA.dim }, "search index: training LSA");
  const { model, bytes } = await corpus.trainLsa(LSA);
  files.writeBuffer(file, bytes);
  log.info({ ms: Date.now() - started, vocabulary: model.vocab.length }, "search index: LSA trained");
  return { embedder: lsaEmbedder(model), lsa: bytes };
}

/** How long a build claim lives without renewal before another replica takes the build over. */
export const DEFAULT_BUILD_LEASE_MS = 60_000;
const WAIT_POLL_MS = 1000;

/** What every collection of one corpus (any embedder) starts with: the prune command keeps them all. */
export function corpusCollectionPrefix(corpusHash: string): string {
  return `${COLLECTION_PREFIX}${corpusHash.slice(0, 8)}-`;
}

/** The collection's name says what it holds: the corpus hash (it folds in INDEX_VERSION) and the embedder's exact space. */
export function collectionName(corpusHash: string, embedderId: string): string {
  return `${corpusCollectionPrefix(corpusHash)}${embedderId}`.slice(0, 200);
}

/**
 * The vectors of every passage, in passage order: the one place the index's embedding work is done
 * (LSA's in the corpus worker, an endpoint's over HTTP).
 */
export async function embedPassages(corpus: PreparedCorpus, embedder: Embedder, lsa: Buffer | undefined, log: IndexLogger): Promise<Float32Array> {
  const { passages } = corpus;
  log.info({ passages: passages.length, embedder: embedder.id }, "search index: embedding passages");
  if (lsa) return corpus.embedLsa(lsa);
  const list = await embedder.embedDocuments(
    await corpus.texts(),
    (done) => log.info({ done, of: passages.length }, "search index: embedded"),
  );
  const vectors = new Float32Array(passages.length * embedder.dim);
  list.forEach((v, i) => vectors.set(v, i * embedder.dim));
  return vectors;
}

/**
 * Makes the index present and valid, doing no more work than needed, with any number of replicas on one
 * Chroma: a collection marked complete is used as it is (warm, or "shared" when another replica built
 * it and this one reads its vectors); otherwise exactly one replica claims the build (src/chroma/claim.ts)
 * and writes it, from vectors on disk (reupload) or embedded now (ingest), while the others wait for
 * the mark. Nothing here deletes a complete collection: old ones go by `npm run index:prune`.
 * The service's first start and `npm run ingest:index` both run this.
 */
export async function ensureIndex(options: IndexOptions): Promise<SearchIndex> {
  const started = Date.now();
  const files = new IndexFiles(options.dataDir);
  const corpus = options.prepared ?? (await prepareCorpus(options.bible, { dataDir: options.dataDir }));
  try {
    return await buildIndex(options, corpus, files, started);
  } finally {
    if (!options.prepared) await corpus.release();
  }
}

async function buildIndex(options: IndexOptions, corpus: PreparedCorpus, files: IndexFiles, started: number): Promise<SearchIndex> {
  const log = options.logger;
  const { passages, ranker, corpusHash } = corpus;
  const spec = specOf(options.embedder);
  const prior = options.force ? undefined : files.readManifest();
  const priorValid = prior?.corpusHash === corpusHash && prior.embedderSpec === spec && prior.passages === passages.length;

  const { embedder, lsa } = await makeEmbedder(options.embedder, corpus, files, !priorValid, log);
  const collection = collectionName(corpusHash, embedder.id);
  const vectorsFile = `${collection}.f32`;
  const store = new PassageStore(options.conn, { name: collection, embedderId: embedder.id, corpusHash, dim: embedder.dim, indexVersion: INDEX_VERSION });
  let vectors = priorValid && prior.embedderId === embedder.id ? await files.readVectors(vectorsFile) : undefined;
  if (vectors && vectors.length !== passages.length * embedder.dim) vectors = undefined;
  // With LSA the corpus worker has nothing left to do once the model and the vectors are in hand (a
  // retried build is answered from what the corpus kept: PreparedCorpus.trainLsa, embedLsa). Ending it
  // then frees its heap (the windows' texts, the training's arrays) before Chroma is written: on a
  // first start that heap beside the upload was the start's peak. An endpoint's embedding asks the
  // worker for the texts, so it keeps the worker until the caller releases it.
  const doneWithWorker = async () => {
    if (lsa) await corpus.release();
  };
  if (vectors) await doneWithWorker();

  const built = await acquireCollection(store, passages.length, options, async (claim) => {
    const fresh = !vectors;
    vectors ??= await embedPassages(corpus, embedder, lsa, log);
    if (fresh) files.writeVectors(vectorsFile, vectors);
    await doneWithWorker();
    log.info({ collection, passages: passages.length, claim: claim.generation }, "search index: writing vectors to Chroma");
    let logged = 0;
    await store.build(passages, vectors, claim, (done) => {
      // A line every 2,000 or so: the store writes in smaller batches than are worth a line each.
      if (done - logged < 2000 && done < passages.length) return;
      logged = done;
      log.info({ done, of: passages.length }, "search index: stored");
    });
    return fresh ? "ingest" : "reupload";
  });
  let mode: SearchIndex["mode"] = built ?? "warm";
  if (!vectors) {
    mode = "shared";
    vectors = await store.readVectors(passages);
    files.writeVectors(vectorsFile, vectors);
  }
  const manifest: Manifest =
    mode === "warm" && prior
      ? prior
      : {
          version: INDEX_VERSION,
          corpusHash,
          embedderSpec: spec,
          embedderId: embedder.id,
          collection,
          passages: passages.length,
          dim: embedder.dim,
          builtAt: new Date().toISOString(),
          ingestMs: Date.now() - started,
        };
  if (mode !== "warm" || !priorValid) files.writeManifest(manifest);
  log.info({ mode, ms: Date.now() - started, collection, passages: passages.length, signals: corpus.signalsFrom }, "search index ready");
  const positions = new Map(passages.map((p, i) => [p.id, i]));
  return { passages, ranker, embedder, vectors, positions, store, manifest, mode };
}

/**
 * Makes a loaded index's collection present again after it went missing (an operator removed it, or a
 * Chroma came back empty): the same claim as a first build, from the vectors already in memory.
 */
export async function restoreCollection(index: SearchIndex, options: Pick<IndexOptions, "conn" | "logger" | "leaseMs" | "owner">): Promise<void> {
  await acquireCollection(index.store, index.passages.length, options, async (claim) => {
    options.logger.info({ collection: index.store.info.name, claim: claim.generation }, "search index: writing vectors to Chroma again");
    await index.store.build(index.passages, index.vectors, claim);
  });
}

/**
 * Waits until the collection is complete, building it when this replica wins the claim. Returns what
 * the build did, or undefined when a complete collection was found (built earlier or by another replica).
 */
export async function acquireCollection<T>(
  store: PassageStore,
  expected: number,
  options: Pick<IndexOptions, "conn" | "logger" | "leaseMs" | "owner">,
  build: (claim: HeldClaim) => Promise<T>,
): Promise<T | undefined> {
  const log = options.logger;
  const board = new ClaimBoard(options.conn.client, store.info.name, {
    owner: options.owner ?? `${hostname()}:${process.pid}`,
    leaseMs: options.leaseMs ?? DEFAULT_BUILD_LEASE_MS,
  });
  let waitingOn: string | undefined;
  for (;;) {
    if (await store.isComplete(expected)) return undefined;
    const claim = await board.tryClaim();
    if (claim) {
      try {
        // The replica that built it may have finished since the check above: it clears its claims when
        // done, so this claim can be a fresh generation over a complete collection. Build only if not.
        if (await store.isComplete(expected)) {
          await board.clear();
          return undefined;
        }
        const result = await build(claim);
        // Claims of a finished build mean nothing; left behind they would slow Chroma's start.
        await board.clear();
        return result;
      } catch (err) {
        if (!(err instanceof ClaimLostError)) throw err;
        log.info({ collection: store.info.name }, "search index: another replica took the build over; waiting for it");
      } finally {
        claim.stop();
      }
      continue;
    }
    const holder = (await board.current())?.owner;
    if (holder && holder !== waitingOn) log.info({ collection: store.info.name, builder: holder }, "search index: another replica is building it; waiting");
    waitingOn = holder;
    await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
  }
}
