import { connectChroma, type ChromaConnection } from "../../chroma/connection.js";
import { embeddedChromaPath, freePort, startEmbeddedChroma, type EmbeddedChroma } from "../../chroma/embedded.js";
import type { BibleLibrary } from "../corpus.js";
import { prepareReferences } from "../references.js";
import { DEFAULT_TRANSLATION_ID } from "../translations.js";
import { ensureIndex, prepareCorpus, restoreCollection, type EmbedderConfig, type PreparedCorpus, type SearchIndex } from "./index.js";
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
  /** The build claim's lease (index.ts DEFAULT_BUILD_LEASE_MS); tests shorten it. */
  buildLeaseMs?: number | undefined;
}

/** What /readyz's body and /metrics say about search (the replica answers chat either way). */
export interface SearchStatus {
  ready: boolean;
  /** starting | waiting for Chroma | indexing | ready | failed */
  state: string;
  chroma: "up" | "down" | "unknown";
  /** The collection in use, once one is. */
  index?: string;
  index_version?: number;
  embedder?: string;
}

export interface SearchService {
  search: ScriptureSearch;
  /** Resolves when the index is first ready (after a first ingest, that can take a minute); rejects only on a fault no retry can mend. */
  indexed: Promise<SearchIndex>;
  /** For /readyz and /metrics. */
  readiness: { ready(): boolean; detail(): Record<string, unknown>; status(): SearchStatus };
  /** The embedded Chroma, when this service started one. */
  embedded(): EmbeddedChroma | undefined;
  stop(): Promise<void>;
}

export function embedderConfig(embeddings: SearchServiceOptions["embeddings"]): EmbedderConfig {
  if (!embeddings) return { kind: "lsa" };
  return { kind: "openai", baseURL: embeddings.baseURL, model: embeddings.model, ...(embeddings.apiKey ? { apiKey: embeddings.apiKey } : {}) };
}

const RETRY_MS = { first: 500, max: 5000 };

/**
 * Starts what search needs: the vector store (embedded unless CHROMA_URL is set) and the index
 * (warm when valid, else shared with or built for the other replicas: index.ts). The HTTP server
 * listens meanwhile and chat answers without search. Nothing here gives up: a Chroma that is down at
 * start, goes away, or comes back without our collection is waited for and resolved again, so a
 * replica recovers without a restart. Each change of state is logged once.
 */
export function startSearchService(options: SearchServiceOptions): SearchService {
  const search = new ScriptureSearch(options.library, options.metrics, options.baseUrl);
  let embedded: EmbeddedChroma | undefined;
  let conn: ChromaConnection | undefined;
  let index: SearchIndex | undefined;
  let state: "starting" | "waiting for Chroma" | "indexing" | "ready" | "failed" = "starting";
  let releaseCorpus = async () => {};
  let stopped = false;
  const log = options.logger;
  const lifecycle = { leaseMs: options.buildLeaseMs };

  // Logged once per change of state: a retry that fails the same way again says nothing new.
  const setState = (next: typeof state, problem?: string) => {
    if (next === state) return;
    const was = state;
    state = next;
    if (problem) log.warn({ was, state: next, err: problem }, "scripture search unavailable");
    else log.info({ was, state: next, ...(index ? { index: index.store.info.name } : {}) }, "scripture search state");
  };

  /** Runs `attempt` until it succeeds, backing off; every failure is a state, logged when it changes. */
  async function retrying<T>(attempt: () => Promise<T>): Promise<T> {
    let delay = RETRY_MS.first;
    for (;;) {
      // After stop() nothing starts again (an embedded Chroma spawned now would outlive the service).
      if (stopped) throw new Error("scripture search stopped");
      try {
        return await attempt();
      } catch (err) {
        if (stopped) throw err;
        setState(isChromaFault(err, conn) ? "waiting for Chroma" : "failed", (err as Error).message);
        await new Promise((r) => setTimeout(r, delay).unref());
        delay = Math.min(RETRY_MS.max, delay * 2);
      }
    }
  }

  let pendingEmbedded = options.embeddedChroma;
  let startingEmbedded: Promise<EmbeddedChroma> | undefined;
  // Called until it succeeds, before any connection exists; afterwards an embedded Chroma restarts itself.
  async function chromaUrl(): Promise<string> {
    if (options.chromaUrl) return options.chromaUrl;
    const starting = pendingEmbedded ?? startEmbeddedChroma({ path: embeddedChromaPath(options.dataDir), logger: log, port: await freePort() });
    pendingEmbedded = undefined;
    startingEmbedded = starting;
    embedded = await starting;
    return embedded.url;
  }

  // A query that found the collection gone: resolve it again (found complete, or rebuilt by one replica).
  let restoring = false;
  const restore = () => {
    if (!index || !conn || restoring || stopped) return;
    restoring = true;
    const idx = index;
    const c = conn;
    setState("indexing");
    log.warn({ collection: idx.store.info.name }, "search index: collection missing in Chroma; resolving it again");
    void retrying(() => restoreCollection(idx, { conn: c, logger: log, ...lifecycle }))
      .then(() => (c.markUp(), setState("ready")), () => undefined)
      .finally(() => (restoring = false));
  };

  const indexed = (async () => {
    const bible = options.rankingBible ?? options.library.get(DEFAULT_TRANSLATION_ID);
    if (!bible) throw new Error(`search ranks on ${DEFAULT_TRANSLATION_ID}, which is not loaded`);
    // Spawn Chroma first: it boots in its own process while this one cuts and tokenizes the corpus.
    let booting: Promise<string> | undefined = chromaUrl();
    booting.catch(() => undefined);
    // Let the caller finish starting (the HTTP server listens) before a second of corpus work.
    await new Promise((resolve) => setImmediate(resolve));
    // The corpus work runs in a worker thread while Chroma boots; requests are answered meanwhile.
    // `let`, dropped below: the closures made in this function live as long as the service and would keep
    // it, and with it the windows' texts (about 17 MB the built index does not need).
    let prepared: PreparedCorpus | undefined = await prepareCorpus(bible, { dataDir: options.dataDir });
    releaseCorpus = prepared.release;
    if (stopped) await prepared.release();
    // Direct-passage detection parses every query; build its parsers now, not on the first request.
    prepareReferences();
    const first = await retrying(() => {
      const url = booting ?? chromaUrl();
      booting = undefined;
      return url;
    });
    conn = connectChroma(first);
    const c = conn;
    c.onChange((up) => {
      if (up) log.info({ url: c.url }, "Chroma reachable again");
      else log.warn({ url: c.url }, "Chroma unreachable: search not ready");
    });
    setState("indexing");
    const built = await retrying(() =>
      ensureIndex({ bible, prepared: prepared!, conn: c, dataDir: options.dataDir, embedder: embedderConfig(options.embeddings), logger: log, ...lifecycle }),
    ).finally(releaseCorpus);
    prepared = undefined;
    index = built;
    // It just answered: search is ready now, not at the next heartbeat.
    c.markUp();
    built.store.onMissing = restore;
    // The store marks Chroma down itself, and only for a lost connection (not a missing collection).
    search.attach(built, { healthy: () => c.healthy() && state === "ready", markDown: () => undefined, onChange: (l) => c.onChange(l) });
    setState("ready");
    // Search answers meanwhile; `indexed` means every signal is in place, the remembered lines included.
    await search.phrasesReady;
    return built;
  })();
  indexed.catch((err: Error) => {
    if (stopped) return;
    state = "failed";
    log.error({ err: err.message }, "scripture search failed to start");
  });

  const status = (): SearchStatus => {
    const ready = search.ready();
    return {
      ready,
      state: state === "ready" && !ready ? "vector store down" : state,
      chroma: conn ? (conn.healthy() ? "up" : "down") : "unknown",
      ...(index ? { index: index.store.info.name, index_version: index.store.info.indexVersion, embedder: index.embedder.id } : {}),
    };
  };

  return {
    search,
    indexed,
    readiness: { ready: () => search.ready(), detail: () => ({ search: status() }), status },
    embedded: () => embedded,
    async stop() {
      stopped = true;
      await releaseCorpus();
      conn?.close();
      // One still booting is stopped once up, so it never outlives the service.
      await (embedded ?? (await startingEmbedded?.catch(() => undefined)))?.stop();
    },
  };
}

/** A failure of Chroma itself (down, restarting, refusing) rather than of the embedder or the corpus. */
function isChromaFault(err: unknown, conn: ChromaConnection | undefined): boolean {
  const name = (err as Error | undefined)?.name ?? "";
  return name.startsWith("Chroma") || name === "IndexMissingError" || (conn !== undefined && !conn.healthy()) || /Chroma/i.test((err as Error)?.message ?? "");
}
