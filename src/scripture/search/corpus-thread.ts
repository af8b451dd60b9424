import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { ALL_BOOKS, chapterCount } from "../books.js";
import type { CorpusReply, CorpusRequest, CorpusWorkerInput, ChapterData } from "./corpus-worker.js";
import { LsaModel, type LsaOptions } from "./lsa.js";
import { Bm25Index } from "./bm25.js";
import { PassageRanker } from "./ranker.js";
import type { ChapterSource, WindowPlace } from "./types.js";

/**
 * The corpus side of the index, built in a worker thread: passages, keyword ranker and corpus hash at
 * once, LSA training and passage vectors on demand. The worker holds the windows' tokens until
 * `release()`, so training and embedding never send them across.
 */
export interface PreparedCorpus {
  /** The windows' places (their texts stay in the worker: `texts()`). */
  passages: WindowPlace[];
  ranker: PassageRanker;
  corpusHash: string;
  /** Whether the teaching signals were read from DATA_DIR or built now (always built without a DATA_DIR). */
  signalsFrom: "stored" | "built";
  /** Trains LSA on the windows; the model and its serialized bytes (what the index file holds). Kept: asked again (a retried build), it answers without the worker. */
  trainLsa(options: LsaOptions): Promise<{ model: LsaModel; bytes: Buffer }>;
  /** The windows' texts, in passage order (embedding them with an endpoint). */
  texts(): Promise<string[]>;
  /** The passages' vectors under a serialized model (LsaModel.serialize), passages.length x dim, row-major. The last ones are kept, as trainLsa's model. */
  embedLsa(model: Uint8Array): Promise<Float32Array>;
  /** Ends the worker (what trainLsa and embedLsa computed stays available); idempotent. */
  release(): Promise<void>;
}

// Production runs the compiled dist/ (.js beside .js). `npm run dev`, the scripts and vitest run the
// TypeScript sources, and a worker does not inherit the tsx loader hooks of the thread that starts it
// (Node 20): there a small bootstrap registers tsx in the worker before importing the entry.
const SELF = import.meta.url;
const TS = SELF.endsWith(".ts");
const ENTRY = new URL(TS ? "./corpus-worker.ts" : "./corpus-worker.js", SELF);

function startWorker(workerData: CorpusWorkerInput): Worker {
  if (!TS) return new Worker(ENTRY, { workerData });
  const tsxApi = pathToFileURL(createRequire(SELF).resolve("tsx/esm/api")).href.replace(/\.cjs$/, ".mjs");
  const boot = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(ENTRY.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

function chaptersOf(bible: ChapterSource): ChapterData[] {
  const out: ChapterData[] = [];
  for (const book of ALL_BOOKS) {
    for (let c = 1; c <= chapterCount(book); c++) {
      const ch = bible.chapter(book.id, c);
      if (!ch) continue;
      out.push({
        book: book.id,
        chapter: c,
        ...(ch.superscription !== undefined ? { superscription: ch.superscription } : {}),
        verses: ch.verses.map((v) => ({ verse: v.verse, text: v.text })),
      });
    }
  }
  return out;
}

/**
 * Starts the worker on `bible` and resolves once passages and ranker are ready. The main thread only
 * copies the chapters out and adopts the built arrays (tens of milliseconds), so requests keep being
 * served while the seconds of tokenizing, training and embedding run beside them.
 */
export function prepareCorpusInWorker(bible: ChapterSource, hashSalt: string, signalsDir?: string): Promise<PreparedCorpus> {
  const worker = startWorker({ chapters: chaptersOf(bible), hashSalt, ...(signalsDir !== undefined ? { signalsDir } : {}) });
  let failure: Error | undefined;
  let waiting: { resolve(reply: CorpusReply): void; reject(err: Error): void } | undefined;
  const fail = (err: Error) => {
    failure ??= err;
    waiting?.reject(err);
    waiting = undefined;
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the corpus worker exited (code ${code})`)));
  worker.on("message", (reply: CorpusReply) => {
    const w = waiting;
    waiting = undefined;
    if (reply.type === "error") w?.reject(new Error(`corpus worker: ${reply.message}`));
    else w?.resolve(reply);
  });
  const next = () =>
    new Promise<CorpusReply>((resolve, reject) => {
      if (failure) reject(failure);
      else waiting = { resolve, reject };
    });
  // One request at a time: ensureIndex awaits each step before the next.
  let queue: Promise<unknown> = Promise.resolve();
  const ask = <T extends CorpusReply["type"]>(req: CorpusRequest, want: T): Promise<Extract<CorpusReply, { type: T }>> => {
    const result = queue.then(async () => {
      const reply = next();
      worker.postMessage(req);
      const got = await reply;
      if (got.type !== want) throw new Error(`corpus worker answered ${got.type} to ${req.type}`);
      return got as Extract<CorpusReply, { type: T }>;
    });
    queue = result.catch(() => undefined);
    return result;
  };
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    if (!failure) {
      failure = new Error("the corpus worker was released");
      // Format the stack now. Until it is read, an error holds its call sites, and with them the
      // closures of its callers: here the index build's scope (its serialized LSA model, 4.8 MB, and the
      // vectors) for the service's life, since `failure` lives as long as the prepared corpus.
      void failure.stack;
    }
    await worker.terminate();
  };

  // What the worker computed is kept, so the index build can end the worker (its heap: the windows' texts,
  // the training's arrays) as soon as it has the vectors, and a retry of the build is still answered.
  // The model and the vectors are what the built index holds anyway.
  const trained = new Map<string, Promise<{ model: LsaModel; bytes: Buffer }>>();
  let embedded: { key: string; vectors: Promise<Float32Array> } | undefined;
  const keyOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

  return next().then(
    (reply) => {
      if (reply.type !== "prepared") throw new Error(`corpus worker answered ${reply.type} first`);
      return {
        passages: reply.passages,
        ranker: Object.assign(new PassageRanker(reply.passages, reply.bm25), { prior: reply.signals.prior, listShare: reply.signals.listShare, commentaryField: new Bm25Index(reply.signals.commentary) }),
        corpusHash: reply.corpusHash,
        signalsFrom: reply.signalsFrom,
        trainLsa: (options) => {
          const key = JSON.stringify(options);
          let result = trained.get(key);
          if (!result) {
            result = ask({ type: "train", options }, "trained").then(({ model }) => {
              const bytes = Buffer.from(model.buffer, model.byteOffset, model.byteLength);
              return { model: LsaModel.deserialize(bytes), bytes };
            });
            trained.set(key, result);
            result.catch(() => trained.delete(key));
          }
          return result;
        },
        texts: async () => (await ask({ type: "texts" }, "texts")).texts,
        embedLsa: (model) => {
          const key = keyOf(model);
          if (embedded?.key !== key) {
            const vectors = ask({ type: "embed", model }, "embedded").then((r) => r.vectors);
            embedded = { key, vectors };
            vectors.catch(() => {
              if (embedded?.vectors === vectors) embedded = undefined;
            });
          }
          return embedded.vectors;
        },
        release,
      };
    },
    async (err: Error) => {
      await release();
      throw err;
    },
  );
}
