/**
 * The worker thread's side of corpus-thread.ts: cuts the Bible into windows, tokenizes them and builds the
 * keyword index, then trains LSA and embeds the windows when asked. These are seconds of CPU that would
 * otherwise stall every request the service answers during a first start.
 */
import { createHash } from "node:crypto";
import { constants, setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { lsaEmbedder } from "./embedders.js";
import { Bm25Index, type Bm25Data } from "./bm25.js";
import { withCommentaryCache } from "./citations.js";
import { commentaryField } from "./commentary-field.js";
import { loadExpansion, passageChapters, passagePrior } from "./expansion.js";
import { listShares } from "./listness.js";
import { LsaModel, trainLsa, type LsaOptions } from "./lsa.js";
import { corpusPassages } from "./search-windows.js";
import { tokenize } from "./tokenizer.js";
import type { ChapterSource, Passage, WindowPlace } from "./types.js";

/** A chapter as plain data (a ChapterSource holds functions, which cannot cross to a thread). */
export interface ChapterData {
  book: string;
  chapter: number;
  superscription?: string;
  verses: { verse: number; text: string }[];
}

export interface CorpusWorkerInput {
  chapters: ChapterData[];
  /** Hashed before the windows: what else makes an index differ (its version, the window sizes). */
  hashSalt: string;
}

export type CorpusRequest = { type: "train"; options: LsaOptions } | { type: "embed"; model: Uint8Array } | { type: "texts" };

export type CorpusReply =
  | { type: "prepared"; passages: WindowPlace[]; bm25: Bm25Data; prior: Float32Array; listShare: Float32Array; commentary: Bm25Data; corpusHash: string }
  | { type: "texts"; texts: string[] }
  | { type: "trained"; model: Uint8Array }
  | { type: "embedded"; vectors: Float32Array }
  | { type: "error"; message: string };

function sourceOf(chapters: readonly ChapterData[]): ChapterSource {
  const byKey = new Map(chapters.map((c) => [`${c.book}.${c.chapter}`, c]));
  return { chapter: (book, chapter) => byKey.get(`${book}.${chapter}`) };
}

function corpusHashOf(salt: string, passages: readonly Passage[], expansion: readonly string[][]): string {
  const h = createHash("sha256").update(salt);
  passages.forEach((p, i) => h.update(`${p.id}\t${p.text}\t${p.tags ?? ""}\t${expansion[i]!.join(" ")}\n`));
  return h.digest("hex").slice(0, 16);
}

function run(port: NonNullable<typeof parentPort>, input: CorpusWorkerInput) {
  const passages = corpusPassages(sourceOf(input.chapters));
  // The chapters are in the passages now; workerData would keep them for the worker's life.
  input.chapters.length = 0;
  const expansion = loadExpansion(passages);
  // Concept tags and commentary words (expansion.ts) are keyword terms of the window that do not make
  // it "longer" for BM25, and are kept out of its text (what the model reads, what LSA learns): each
  // window's text tokens with its extra terms after them, in one array, and the text's token count apart.
  // Memory: this is the start-up's peak (the worker beside the service), so nothing is held twice, and
  // the tokens are not kept for LSA (a first start tokenizes again to train: about a second, once).
  const lengths: number[] = [];
  const keywordTokens = passages.map((p, i) => {
    const tokens = tokenize(p.text);
    lengths.push(tokens.length);
    if (p.tags) tokens.push(...tokenize(p.tags));
    tokens.push(...expansion[i]!);
    return tokens;
  });
  const bm25 = new Bm25Index(keywordTokens, { lengths }).toData();
  keywordTokens.length = 0;
  // Which windows teach (the chapter prior, the list share) and what the commentaries say about each
  // chapter: ranking data derived from the corpus and the shipped commentaries, not part of the corpus hash.
  const { prior, commentary } = withCommentaryCache(() => ({ prior: passagePrior(passages), commentary: commentaryField(passageChapters(passages)) }));
  const listShare = listShares(passages);
  // The windows' places only: the service keeps nothing else of them, and their texts (about 17 MB) are
  // sent only when asked for (an embedding endpoint embeds them in the service's thread).
  const places = passages.map(({ id, book, chapter, verseStart, verseEnd, testament }): WindowPlace => ({ id, book, chapter, verseStart, verseEnd, testament }));
  const prepared: CorpusReply = { type: "prepared", passages: places, bm25, prior, listShare, commentary, corpusHash: corpusHashOf(input.hashSalt, passages, expansion) };
  const buffers = (d: Bm25Data) => [d.norms.buffer, d.idf.buffer, d.offsets.buffer, d.docs.buffer, d.tfs.buffer];
  port.postMessage(prepared, [...buffers(bm25), ...buffers(commentary), prior.buffer, listShare.buffer] as ArrayBuffer[]);

  port.on("message", async (req: CorpusRequest) => {
    try {
      if (req.type === "texts") {
        port.postMessage({ type: "texts", texts: passages.map((p) => p.text) } satisfies CorpusReply);
      } else if (req.type === "train") {
        const model = trainLsa(passages.map((p) => tokenize(p.text)), req.options).serialize();
        port.postMessage({ type: "trained", model } satisfies CorpusReply);
      } else {
        const embedder = lsaEmbedder(LsaModel.deserialize(Buffer.from(req.model.buffer, req.model.byteOffset, req.model.byteLength)));
        const list = await embedder.embedDocuments(passages.map((p) => p.text));
        const vectors = new Float32Array(list.length * embedder.dim);
        list.forEach((v, i) => vectors.set(v, i * embedder.dim));
        port.postMessage({ type: "embedded", vectors } satisfies CorpusReply, [vectors.buffer as ArrayBuffer]);
      }
    } catch (err) {
      port.postMessage({ type: "error", message: err instanceof Error ? err.message : String(err) } satisfies CorpusReply);
    }
  });
}

/**
 * On Linux a nice value belongs to a thread, and setpriority(pid 0) sets the caller's: the build yields the
 * cores to the thread that answers requests whenever both want one. Elsewhere it would lower the whole
 * process, so it is left alone there.
 */
function yieldToRequests() {
  if (process.platform !== "linux") return;
  try {
    setPriority(0, constants.priority.PRIORITY_LOW);
  } catch {
    // Not permitted: the build runs at the service's priority, as before.
  }
}

if (parentPort) {
  yieldToRequests();
  run(parentPort, workerData as CorpusWorkerInput);
}
