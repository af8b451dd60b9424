import { createHash } from "node:crypto";
import type { ChromaConnection } from "../../chroma/connection.js";
import { lsaEmbedder, openAiEmbedder, type Embedder } from "./embedders.js";
import { IndexFiles, type Manifest } from "./index-files.js";
import { LsaModel, trainLsa } from "./lsa.js";
import { PassageRanker } from "./ranker.js";
import { PassageStore } from "./store.js";
import { CONCEPTS } from "./concepts.js";
import { TITLES } from "./titles.js";
import { tokenize } from "./tokenizer.js";
import type { ChapterSource, Passage } from "./types.js";
import { buildPassages, DEFAULT_WINDOWS } from "./windows.js";
import { commentaryPrior, loadExpansion } from "./expansion.js";

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

/** The corpus side of the index: pure CPU, so it can run while Chroma boots in its own process. */
export interface PreparedCorpus {
  passages: Passage[];
  tokens: string[][];
  ranker: PassageRanker;
  corpusHash: string;
}

/** The search windows of a Bible, titles appended and concepts tagged. */
export function corpusPassages(bible: ChapterSource): Passage[] {
  return buildPassages(bible, TITLES, DEFAULT_WINDOWS, CONCEPTS.map((c) => c.entry));
}

export function prepareCorpus(bible: ChapterSource): PreparedCorpus {
  const passages = corpusPassages(bible);
  const tokens = passages.map((p) => tokenize(p.text));
  const expansion = loadExpansion(passages);
  // Concept tags and commentary words (expansion.ts) are keyword terms of the window that do not make
  // it "longer" for BM25, and are kept out of its text (what the model reads, what LSA learns).
  const keywordTokens = passages.map((p, i) => {
    const extra = [...(p.tags ? tokenize(p.tags) : []), ...expansion[i]!];
    return extra.length > 0 ? [...tokens[i]!, ...extra] : tokens[i]!;
  });
  const ranker = new PassageRanker(passages, keywordTokens, tokens.map((t) => t.length));
  const verses = new Map<string, number>();
  for (const p of passages) verses.set(`${p.book}.${p.chapter}`, Math.max(verses.get(`${p.book}.${p.chapter}`) ?? 0, p.verseEnd));
  ranker.prior = commentaryPrior(ranker.chapters.map((c) => ({ ...c, verses: verses.get(`${c.book}.${c.chapter}`)! })));
  return { passages, tokens, ranker, corpusHash: corpusHashOf(passages, expansion) };
}

export interface IndexOptions {
  bible: ChapterSource;
  /** Already prepared from `bible` (start-up overlaps it with Chroma's boot). */
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

function corpusHashOf(passages: readonly Passage[], expansion: readonly string[][]): string {
  const h = createHash("sha256").update(`v${INDEX_VERSION}:${DEFAULT_WINDOWS.size}:${DEFAULT_WINDOWS.stride}\n`);
  passages.forEach((p, i) => h.update(`${p.id}\t${p.text}\t${p.tags ?? ""}\t${expansion[i]!.join(" ")}\n`));
  return h.digest("hex").slice(0, 16);
}

async function makeEmbedder(config: EmbedderConfig, tokens: readonly string[][], files: IndexFiles, corpusHash: string, train: boolean, log: IndexLogger) {
  if (config.kind === "openai") return openAiEmbedder(config);
  const file = `lsa-${corpusHash}.bin`;
  const saved = train ? undefined : files.readBuffer(file);
  if (saved) return lsaEmbedder(LsaModel.deserialize(saved));
  const started = Date.now();
  log.info({ passages: tokens.length, dim: LSA.dim }, "search index: training LSA");
  const model = trainLsa(tokens, LSA);
  files.writeBuffer(file, model.serialize());
  log.info({ ms: Date.now() - started, vocabulary: model.vocab.length }, "search index: LSA trained");
  return lsaEmbedder(model);
}

/**
 * Makes the index present and valid, doing no more work than needed: warm (manifest, files and
 * collection all match: nothing rebuilt), reupload (vectors on disk, collection lost: re-add them), or
 * ingest (embed everything). The service's first start and `npm run ingest:index` both run this.
 */
export async function ensureIndex(options: IndexOptions): Promise<SearchIndex> {
  const log = options.logger;
  const started = Date.now();
  const files = new IndexFiles(options.dataDir);
  const { passages, tokens, ranker, corpusHash } = options.prepared ?? prepareCorpus(options.bible);
  const spec = specOf(options.embedder);
  const prior = options.force ? undefined : files.readManifest();
  const priorValid = prior?.corpusHash === corpusHash && prior.embedderSpec === spec && prior.passages === passages.length;

  const embedder = await makeEmbedder(options.embedder, tokens, files, corpusHash, !priorValid, log);
  const collection = `${COLLECTION_PREFIX}${corpusHash.slice(0, 8)}-${embedder.id}`.slice(0, 200);
  const vectorsFile = `${collection}.f32`;
  const store = new PassageStore(options.conn, { name: collection, embedderId: embedder.id, corpusHash, dim: embedder.dim });
  let vectors = priorValid && prior.embedderId === embedder.id ? files.readVectors(vectorsFile) : undefined;
  if (vectors && vectors.length !== passages.length * embedder.dim) vectors = undefined;

  let mode: SearchIndex["mode"] = "warm";
  if (!vectors) {
    mode = "ingest";
    log.info({ passages: passages.length, embedder: embedder.id }, "search index: embedding passages");
    const list = await embedder.embedDocuments(
      passages.map((p) => p.text),
      (done) => log.info({ done, of: passages.length }, "search index: embedded"),
    );
    vectors = new Float32Array(passages.length * embedder.dim);
    list.forEach((v, i) => vectors!.set(v, i * embedder.dim));
    files.writeVectors(vectorsFile, vectors);
  }
  if (mode === "ingest" || !(await store.isComplete(passages.length))) {
    if (mode === "warm") mode = "reupload";
    log.info({ collection, passages: passages.length }, "search index: writing vectors to Chroma");
    await store.rewrite(passages, vectors, embedder.dim, (done) => log.info({ done, of: passages.length }, "search index: stored"));
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
