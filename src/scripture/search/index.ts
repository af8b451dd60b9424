import type { ChromaConnection } from "../../chroma/connection.js";
import { prepareCorpusInWorker, type PreparedCorpus } from "./corpus-thread.js";
import { lsaEmbedder, openAiEmbedder, type Embedder } from "./embedders.js";
import { IndexFiles, type Manifest } from "./index-files.js";
import { LsaModel } from "./lsa.js";
import { PassageRanker } from "./ranker.js";
import { PassageStore } from "./store.js";
import type { ChapterSource, Passage } from "./types.js";
import { DEFAULT_WINDOWS } from "./windows.js";

export type { PreparedCorpus } from "./corpus-thread.js";

/** Bump when windows, tokens or vectors change meaning: the corpus hash then changes and re-indexes. */
const INDEX_VERSION = 2;
const LSA = { dim: 128, seed: 42 };
const COLLECTION_PREFIX = "scripture-";

export type EmbedderConfig = { kind: "lsa" } | { kind: "openai"; baseURL: string; apiKey?: string; model: string };

export interface IndexLogger {
  info(obj: object, msg?: string): void;
}

/** Everything a query needs, in memory, plus the Chroma collection the unfiltered path queries. */
export interface SearchIndex {
  passages: readonly Passage[];
  ranker: PassageRanker;
  embedder: Embedder;
  /** passages.length x embedder.dim, the same vectors Chroma holds. */
  vectors: Float32Array;
  positions: Map<string, number>;
  store: PassageStore;
  manifest: Manifest;
  /** "warm" when the index was found valid and nothing was rebuilt. */
  mode: "warm" | "reupload" | "ingest";
}

/**
 * The corpus side of the index (windows, keyword ranker, corpus hash; LSA training and passage vectors
 * on demand): pure CPU, run in a worker thread so requests keep being answered meanwhile, and so it can
 * overlap Chroma's boot. The caller releases it once the index is built.
 */
export function prepareCorpus(bible: ChapterSource): Promise<PreparedCorpus> {
  // The windows' ids, texts and tags are hashed after this: what else changes an index's meaning.
  return prepareCorpusInWorker(bible, `v${INDEX_VERSION}:${DEFAULT_WINDOWS.size}:${DEFAULT_WINDOWS.stride}\n`);
}

export interface IndexOptions {
  bible: ChapterSource;
  /** Already prepared from `bible` (start-up overlaps it with Chroma's boot); the caller releases it. */
  prepared?: PreparedCorpus;
  conn: ChromaConnection;
  dataDir: string;
  embedder: EmbedderConfig;
  logger: IndexLogger;
  /** Rebuild even when the manifest says the index is valid. */
  force?: boolean;
}

function specOf(e: EmbedderConfig): string {
  return e.kind === "lsa" ? `lsa:${LSA.dim}:${LSA.seed}` : `openai:${e.baseURL}:${e.model}`;
}

/** The embedder, and for LSA the serialized model too (the corpus worker embeds the passages with it). */
async function makeEmbedder(config: EmbedderConfig, corpus: PreparedCorpus, files: IndexFiles, train: boolean, log: IndexLogger): Promise<{ embedder: Embedder; lsa?: Buffer }> {
  if (config.kind === "openai") return { embedder: await openAiEmbedder(config) };
  const file = `lsa-${corpus.corpusHash}.bin`;
  const saved = train ? undefined : files.readBuffer(file);
  if (saved) return { embedder: lsaEmbedder(LsaModel.deserialize(saved)), lsa: saved };
  const started = Date.now();
  log.info({ passages: corpus.passages.length, dim: LSA.dim }, "search index: training LSA");
  const { model, bytes } = await corpus.trainLsa(LSA);
  files.writeBuffer(file, bytes);
  log.info({ ms: Date.now() - started, vocabulary: model.vocab.length }, "search index: LSA trained");
  return { embedder: lsaEmbedder(model), lsa: bytes };
}

/** The passages' vectors: LSA's in the corpus worker, an endpoint's over HTTP. */
async function embedPassages(corpus: PreparedCorpus, embedder: Embedder, lsa: Buffer | undefined, log: IndexLogger): Promise<Float32Array> {
  const { passages } = corpus;
  if (lsa) return corpus.embedLsa(lsa);
  const list = await embedder.embedDocuments(
    passages.map((p) => p.text),
    (done) => log.info({ done, of: passages.length }, "search index: embedded"),
  );
  const vectors = new Float32Array(passages.length * embedder.dim);
  list.forEach((v, i) => vectors.set(v, i * embedder.dim));
  return vectors;
}

/**
 * Makes the index present and valid, doing no more work than needed: warm (manifest, files and
 * collection all match: nothing rebuilt), reupload (vectors on disk, collection lost: re-add them), or
 * ingest (embed everything). The service's first start and `npm run ingest:index` both run this.
 */
export async function ensureIndex(options: IndexOptions): Promise<SearchIndex> {
  const started = Date.now();
  const files = new IndexFiles(options.dataDir);
  const corpus = options.prepared ?? (await prepareCorpus(options.bible));
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
  const collection = `${COLLECTION_PREFIX}${corpusHash.slice(0, 8)}-${embedder.id}`.slice(0, 200);
  const vectorsFile = `${collection}.f32`;
  const store = new PassageStore(options.conn, { name: collection, embedderId: embedder.id, corpusHash, dim: embedder.dim });
  let vectors = priorValid && prior.embedderId === embedder.id ? files.readVectors(vectorsFile) : undefined;
  if (vectors && vectors.length !== passages.length * embedder.dim) vectors = undefined;

  let mode: SearchIndex["mode"] = "warm";
  if (!vectors) {
    mode = "ingest";
    log.info({ passages: passages.length, embedder: embedder.id }, "search index: embedding passages");
    vectors = await embedPassages(corpus, embedder, lsa, log);
    files.writeVectors(vectorsFile, vectors);
  }
  if (mode === "ingest" || !(await store.isComplete(passages.length))) {
    if (mode === "warm") mode = "reupload";
    log.info({ collection, passages: passages.length }, "search index: writing vectors to Chroma");
    let logged = 0;
    await store.rewrite(passages, vectors, embedder.dim, (done) => {
      // A line every 2,000 or so: the store writes in smaller batches than are worth a line each.
      if (done - logged < 2000 && done < passages.length) return;
      logged = done;
      log.info({ done, of: passages.length }, "search index: stored");
    });
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
  if (mode !== "warm") {
    files.writeManifest(manifest);
    const dropped = await store.dropOthers(COLLECTION_PREFIX);
    if (dropped.length > 0) log.info({ dropped }, "search index: dropped stale collections");
  }
  log.info({ mode, ms: Date.now() - started, collection, passages: passages.length }, "search index ready");
  const positions = new Map(passages.map((p, i) => [p.id, i]));
  return { passages, ranker, embedder, vectors, positions, store, manifest, mode };
}
