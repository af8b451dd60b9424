/**
 * The worker thread's side of corpus-thread.ts: cuts the Bible into windows, tokenizes them and builds the
 * keyword index, then trains LSA and embeds the windows when asked. These are seconds of CPU that would
 * otherwise stall every request the service answers during a first start.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { constants, setPriority } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { DEFAULT_STUDY_DIR } from "../../study/data.js";
import { buffersOf, readDerived, writeDerived } from "./derived-file.js";
import { lsaEmbedder } from "./embedders.js";
import { Bm25Index, type Bm25Data } from "./bm25.js";
import { BOOKS } from "../books.js";
import { CITING_COMMENTARIES, citationPriorOf, commentarySections, countCitations } from "./citations.js";
import { CommentaryFieldBuilder } from "./commentary-field.js";
import { addCommentaryLengths, COMMENTARY_SOURCES, commentaryPriorOf, loadExpansion, meanPrior, passageChapters } from "./expansion.js";
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
  /**
   * Where the teaching signals are kept between starts (DATA_DIR/search/SIGNALS_FILE): read when valid
   * for this corpus, code and commentary data, built and written otherwise. None: built every time.
   */
  signalsDir?: string;
}

/** Which windows teach and what the commentaries say of each chapter: ranking data, derived, never part of the corpus hash. */
export interface TeachingSignals {
  /** Per chapter (passageChapters order), in [0, 1] (expansion.ts passagePrior). */
  prior: Float32Array;
  /** Per window, the share of list words (listness.ts). */
  listShare: Float32Array;
  /** The chapters' commentary field (commentary-field.ts). */
  commentary: Bm25Data;
}

/** The file the signals are kept in, under CorpusWorkerInput.signalsDir. */
export const SIGNALS_FILE = "signals.bin";

export type CorpusRequest = { type: "train"; options: LsaOptions } | { type: "embed"; model: Uint8Array } | { type: "texts" };

export type CorpusReply =
  | { type: "prepared"; passages: WindowPlace[]; bm25: Bm25Data; signals: TeachingSignals; signalsFrom: "stored" | "built"; corpusHash: string }
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

/**
 * The signals, as the ranker reads them: expansion.ts passagePrior (the commentaries' length per chapter and
 * their citations, citations.ts), listness.ts listShares and commentary-field.ts commentaryField, computed
 * in one pass over the commentary files. Each file is read once and handed to every builder that uses it,
 * then dropped: one book's sections alive at a time, where holding every file for three separate passes
 * was ~25 MB of parsed sections and the first start's peak. Seconds of reading and tokenizing (6 MB gzipped).
 */
export function buildTeachingSignals(passages: readonly Passage[], dir = DEFAULT_STUDY_DIR): TeachingSignals {
  const chapters = passageChapters(passages);
  const inCorpus = new Set(chapters.map((c) => c.book));
  const citing = new Set<string>(CITING_COMMENTARIES);
  const cites = new Map<string, number>();
  const chars = new Map<string, number>();
  const field = new CommentaryFieldBuilder();
  const sources = [...new Set([...COMMENTARY_SOURCES.map((s) => s.id), ...CITING_COMMENTARIES])];
  // Citations count over every book (a verse is cited from anywhere); the rest read the corpus's books.
  for (const book of [...new Set([...BOOKS.map((b) => b.id), ...inCorpus])]) {
    for (const source of sources) {
      if (!citing.has(source) && !inCorpus.has(book)) continue;
      const sections = commentarySections(dir, source, book);
      if (!sections) continue;
      if (citing.has(source)) countCitations(cites, book, sections);
      if (inCorpus.has(book)) {
        addCommentaryLengths(chars, book, source, sections);
        field.add(book, source, sections);
      }
    }
  }
  const prior = meanPrior(commentaryPriorOf(chapters, chars), citationPriorOf(chapters, cites));
  return { prior, listShare: listShares(passages), commentary: field.build(chapters) };
}

const HERE = dirname(fileURLToPath(import.meta.url));

/** Every file under `dir` (sorted, recursive), or none when it is missing. */
function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * What the stored signals are valid for: the corpus (its hash covers the windows, their tags and
 * expansion), the code that computes them (every file of this directory, where the builders, the
 * tokenizer and BM25 live, the book list and the study data reader: a changed formula rebuilds them,
 * with no version to bump by hand) and the commentary data they read.
 */
export function signalsKey(corpusHash: string, studyDir = DEFAULT_STUDY_DIR): string {
  const h = createHash("sha256").update(`${corpusHash}\n`);
  const named = (root: string, files: string[]) => files.map((file) => [relative(root, file), file] as const);
  const inputs = [
    ...named(HERE, filesUnder(HERE)),
    ...named(HERE, filesUnder(join(HERE, "..")).filter((f) => /[/\\]books\.[jt]s$/.test(f))),
    ...named(HERE, filesUnder(join(HERE, "../../study")).filter((f) => /[/\\]data\.[jt]s$/.test(f))),
    ...named(studyDir, filesUnder(join(studyDir, "commentaries"))),
  ];
  for (const [name, file] of inputs) h.update(`${name}\n`).update(readFileSync(file));
  return h.digest("hex");
}

/** The stored signals when valid for `key`, else built and stored (a file that cannot be written only costs the next start the build). */
function teachingSignals(passages: readonly Passage[], dir: string | undefined, key: () => string): { signals: TeachingSignals; from: "stored" | "built" } {
  const path = dir === undefined ? undefined : join(dir, SIGNALS_FILE);
  const k = path === undefined ? "" : key();
  const stored = path === undefined ? undefined : (readDerived(path, k) as TeachingSignals | undefined);
  if (stored) return { signals: stored, from: "stored" };
  const signals = buildTeachingSignals(passages);
  if (path !== undefined) {
    try {
      writeDerived(path, k, signals);
    } catch {
      // A read-only DATA_DIR: the next start builds them again.
    }
  }
  return { signals, from: "built" };
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
  // One window's tokens at a time (Bm25Index reads a generator once, in order): all windows' tokens held
  // at once were ~20 MB of live strings, and the heap the next collection let grow was sized on them.
  const lengths: number[] = [];
  const keywordTokens = function* () {
    for (const [i, p] of passages.entries()) {
      const tokens = tokenize(p.text);
      lengths.push(tokens.length);
      if (p.tags) tokens.push(...tokenize(p.tags));
      tokens.push(...expansion[i]!);
      yield tokens;
    }
  };
  const bm25 = new Bm25Index(keywordTokens(), { lengths }).toData();
  const corpusHash = corpusHashOf(input.hashSalt, passages, expansion);
  // Which windows teach (the chapter prior, the list share) and what the commentaries say about each
  // chapter: derived from the corpus and the shipped commentaries, so kept beside the index and only
  // read on a warm start (building them read 6 MB of commentary: about a second and 35 MB at start-up).
  const { signals, from } = teachingSignals(passages, input.signalsDir, () => signalsKey(corpusHash));
  // The windows' places only: the service keeps nothing else of them, and their texts (about 17 MB) are
  // sent only when asked for (an embedding endpoint embeds them in the service's thread).
  const places = passages.map(({ id, book, chapter, verseStart, verseEnd, testament }): WindowPlace => ({ id, book, chapter, verseStart, verseEnd, testament }));
  const prepared: CorpusReply = { type: "prepared", passages: places, bm25, signals, signalsFrom: from, corpusHash };
  port.postMessage(prepared, buffersOf([bm25, signals]));

  port.on("message", async (req: CorpusRequest) => {
    try {
      if (req.type === "texts") {
        port.postMessage({ type: "texts", texts: passages.map((p) => p.text) } satisfies CorpusReply);
      } else if (req.type === "train") {
        // One window's tokens at a time (trainLsa keeps term ids): all of them at once were ~50 MB of strings at the first start's peak.
        const model = trainLsa((function* () { for (const p of passages) yield tokenize(p.text); })(), req.options).serialize();
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
