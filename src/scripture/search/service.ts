import { connectChroma, type ChromaConnection } from "../../chroma/connection.js";
import { embeddedChromaPath, freePort, startEmbeddedChroma, type EmbeddedChroma } from "../../chroma/embedded.js";
import type { BibleLibrary } from "../corpus.js";
import { prepareReferences } from "../references.js";
import { DEFAULT_TRANSLATION_ID } from "../translations.js";
import { ensureIndex, prepareCorpus, type EmbedderConfig, type SearchIndex } from "./index.js";
import { ScriptureSearch, type SearchMetrics } from "./search.js";
import type { ChapterSource } from "./types.js";

export interface SearchServiceLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface SearchServiceOptions {
  dataDir: string;
  /** An external Chroma; unset starts an embedded one under dataDir/chroma. */
  chromaUrl?: string | undefined;
  /** An embedded Chroma the caller already started (main.ts spawns it first, so it boots while the rest loads). */
  embeddedChroma?: Promise<EmbeddedChroma> | undefined;
  embeddings?: { baseURL: string; apiKey?: string | undefined; model: string } | undefined;
  library: BibleLibrary;
  /** What is indexed; eng-web from the library by default (tests index a few books to stay quick). */
  rankingBible?: ChapterSource;
  logger: SearchServiceLogger;
  metrics?: SearchMetrics;
  /** PUBLIC_BASE_URL: results' reader links become absolute. */
  baseUrl?: string | undefined;
}

export interface SearchService {
  search: ScriptureSearch;
  /** Resolves when the index is ready (after a first ingest, that can take a minute); rejects on failure. */
  indexed: Promise<SearchIndex>;
  /** For /readyz. */
  readiness: { ready(): boolean; detail(): Record<string, unknown> };
  /** The embedded Chroma, when this service started one. */
  embedded(): EmbeddedChroma | undefined;
  stop(): Promise<void>;
}

export function embedderConfig(embeddings: SearchServiceOptions["embeddings"]): EmbedderConfig {
  if (!embeddings) return { kind: "lsa" };
  return { kind: "openai", baseURL: embeddings.baseURL, model: embeddings.model, ...(embeddings.apiKey ? { apiKey: embeddings.apiKey } : {}) };
}

/**
 * Starts what search needs: the vector store (embedded unless CHROMA_URL is set) and the index
 * (warm when valid, else ingested in the background). The HTTP server can listen meanwhile; search
 * answers 503 and /readyz reports "indexing" until the index is ready, and "vector store down" while
 * Chroma is unreachable (chat keeps working).
 */
export function startSearchService(options: SearchServiceOptions): SearchService {
  const search = new ScriptureSearch(options.library, options.metrics, options.baseUrl);
  let embedded: EmbeddedChroma | undefined;
  let conn: ChromaConnection | undefined;
  let state: "starting" | "indexing" | "ready" | "failed" = "starting";
  let releaseCorpus = async () => {};
  let stopped = false;
  const log = options.logger;

  const indexed = (async () => {
    const bible = options.rankingBible ?? options.library.get(DEFAULT_TRANSLATION_ID);
    if (!bible) throw new Error(`search ranks on ${DEFAULT_TRANSLATION_ID}, which is not loaded`);
    // Spawn Chroma first: it boots in its own process while this one cuts and tokenizes the corpus.
    const booting = options.chromaUrl
      ? undefined
      : (options.embeddedChroma ?? startEmbeddedChroma({ path: embeddedChromaPath(options.dataDir), logger: log, port: await freePort() }));
    // The corpus work runs in a worker thread while Chroma boots; requests are answered meanwhile.
    const prepared = await prepareCorpus(bible);
    releaseCorpus = prepared.release;
    if (stopped) await prepared.release();
    // Direct-passage detection parses every query; build its parsers now, not on the first request.
    prepareReferences();
    const url = booting ? (embedded = await booting).url : options.chromaUrl!;
    conn = connectChroma(url);
    const c = conn;
    c.onChange((up) => (up ? log.info({ url }, "Chroma reachable again") : log.error({ url }, "Chroma unreachable: search not ready")));
    state = "indexing";
    const index = await ensureIndex({ bible, prepared, conn: c, dataDir: options.dataDir, embedder: embedderConfig(options.embeddings), logger: log }).finally(
      prepared.release,
    );
    search.attach(index, c);
    state = "ready";
    return index;
  })();
  indexed.catch((err: Error) => {
    state = "failed";
    log.error({ err: err.message }, "scripture search failed to start");
  });

  return {
    search,
    indexed,
    readiness: {
      ready: () => search.ready(),
      detail: () => ({ search: state === "ready" && conn && !conn.healthy() ? "vector store down" : state }),
    },
    embedded: () => embedded,
    async stop() {
      stopped = true;
      await releaseCorpus();
      conn?.close();
      await embedded?.stop();
    },
  };
}
