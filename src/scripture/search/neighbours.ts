/**
 * Concepts near a short search in meaning (issue 27). "unkind words", "talking about people" or "bragging"
 * name no concept of the table (concepts.ts), yet each means what one of them teaches (speech; pride).
 * Such a search, when it names nothing else (no concept, no passage title), counts the concept nearest
 * to it in meaning as named, at a reduced weight (`DEFAULT_FUSION.neighbour`): its passages are the ones
 * that teach the subject, where the search's own words alone find the chapters that merely use them.
 *
 * Meaning comes from the Universal Sentence Encoder, offline, once (ingest/build-neighbours.ts): it embeds
 * every word of a generic vocabulary (the words of the WEB, the KJV and the shipped commentaries, and the
 * encoder's own whole words; never a test query) and every concept (the mean of its English terms). The
 * shipped file keeps, per word, its nearest concepts with their cosine. A search's content words average
 * their rows, which is the cosine of the concepts with the search's mean word vector up to its length: the
 * concept nearest the search as a whole, without the encoder (21 ms and 130 MB) on the request path.
 *
 * Never inferred: care concepts (distress is named by the person, not guessed), and concepts that teach
 * mostly from the texts of the end of the age and eternal fire (`DOOM`), which wound the people the care
 * concepts protect. The file keeps, per word, its highest cosine with any of them too: a search whose
 * words are nearer to those, on average, than to the best concept it may get ("end it all", "hopeless",
 * "the lake of fire") gets no concept at all rather than the next nearest.
 */
import { createHash } from "node:crypto";
import { DEFAULT_STUDY_DIR, readGzip } from "../../study/data.js";
import { CONCEPTS, type Concept } from "./concepts.js";
import { DOOM } from "./concepts-data.js";
import { tokenize, words } from "./tokenizer.js";

export const NEIGHBOURS_FILE = "concept-neighbours.bin.gz";
/** Nearest concepts kept per word (measured on the topics dev half: 4 -> 0.394, 8 -> 0.399, 16 -> 0.401 nDCG@10). */
export const NEIGHBOURS_PER_WORD = 16;
/** Cosines are stored as bytes: round(cosine x SCALE), clamped to [0, SCALE]. */
const SCALE = 250;
/** Bytes per word: its nearest concepts' indices (two bytes each, low byte first), their cosines, its highest cosine with a concept never inferred. */
const ROW = 3 * NEIGHBOURS_PER_WORD + 1;
/** Where a row's cosines start. */
export const COSINES_AT = 2 * NEIGHBOURS_PER_WORD;
/** The most inferable concepts a row can index. */
export const MAX_CONCEPTS = 65_535;

/**
 * The file (gzipped): a line of JSON (`model`, `conceptsKey`, `concepts`, the word count), the words one a
 * line, then ROW bytes per word in the same order. Binary rather than JSON: parsing 770,000 numbers of
 * JSON at start took 230 ms and left the service 20 MB larger.
 */
export interface NeighboursFile {
  /** The encoder that computed the table. */
  model: string;
  /** `conceptsKey()` of the table it was computed from: a changed concept makes the file stale (a test checks). */
  conceptsKey: string;
  /** Ids of the inferable concepts, in the order the rows index them. */
  concepts: string[];
  /** The vocabulary (lower-case ASCII words), sorted. */
  words: string[];
  /** Per word: NEIGHBOURS_PER_WORD inferable concept indices, nearest first; their cosines; its highest cosine with a concept never inferred. */
  rows: Uint8Array;
}

export interface Neighbours {
  concepts: readonly Concept[];
  /** Where each word's row starts in `rows`. */
  at: ReadonlyMap<string, number>;
  rows: Uint8Array;
}

export function encodeNeighbours(file: NeighboursFile): Buffer {
  const { words, rows, ...header } = file;
  return Buffer.concat([Buffer.from(`${JSON.stringify({ ...header, count: words.length })}\n${words.join("\n")}\n`, "latin1"), rows]);
}

export function decodeNeighbours(bytes: Buffer): NeighboursFile {
  const headerEnd = bytes.indexOf(10);
  const { count, ...header } = JSON.parse(bytes.toString("utf8", 0, headerEnd)) as Omit<NeighboursFile, "words" | "rows"> & { count: number };
  let end = headerEnd;
  for (let i = 0; i < count; i++) end = bytes.indexOf(10, end + 1);
  const words = bytes.toString("latin1", headerEnd + 1, end).split("\n");
  return { ...header, words, rows: bytes.subarray(end + 1, end + 1 + count * ROW) };
}

/** A concept with this share of its passages in `DOOM` or more is never inferred (hell, the end times, the second coming). */
const DOOM_SHARE = 0.4;

/** Concepts a search may be found near: no care concept, none that teaches mostly from the texts that wound. */
export function inferableConcepts(concepts: readonly Concept[] = CONCEPTS): Concept[] {
  const doom = new Set(DOOM.split(",").map((c) => c.trim()));
  return concepts.filter((c) => c.avoid.length === 0 && c.ranges.filter((r) => doom.has(`${r.book} ${r.chapter}`)).length < DOOM_SHARE * c.ranges.length);
}

/** What the table's meaning depends on: each concept's id, English terms and whether it may be inferred. */
export function conceptsKey(concepts: readonly Concept[] = CONCEPTS): string {
  const inferable = new Set(inferableConcepts(concepts));
  const text = concepts.map((c) => `${c.id}|${inferable.has(c)}|${c.terms.slice(0, c.english).join(",")}`).join("\n");
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** The shipped table, or undefined when it is missing or was computed from another concept table (then nothing is inferred). */
export function loadNeighbours(dir = DEFAULT_STUDY_DIR): Neighbours | undefined {
  const bytes = readGzip(dir, NEIGHBOURS_FILE);
  const file = bytes && decodeNeighbours(bytes);
  if (!file || file.conceptsKey !== conceptsKey()) return undefined;
  const byId = new Map(CONCEPTS.map((c) => [c.id, c]));
  return { concepts: file.concepts.map((id) => byId.get(id)!), at: new Map(file.words.map((w, i) => [w, i * ROW])), rows: file.rows };
}

/**
 * The concept nearest to the search's content words (their rows averaged; a word the table lacks counts
 * as nothing near), when its mean cosine reaches `min` and it may be inferred.
 */
export function nearestConcept(table: Neighbours, text: string, min: number): { concept: Concept; score: number } | undefined {
  const content = [...new Set(words(text).filter((w) => tokenize(w).length > 0))];
  if (content.length === 0) return undefined;
  const sum = new Float64Array(table.concepts.length);
  let distress = 0;
  const k = NEIGHBOURS_PER_WORD;
  const rows = table.rows;
  for (const w of content) {
    const at = table.at.get(w);
    if (at === undefined) continue;
    for (let i = 0; i < k; i++) sum[rows[at + 2 * i]! | (rows[at + 2 * i + 1]! << 8)]! += rows[at + COSINES_AT + i]! / SCALE;
    distress += rows[at + COSINES_AT + k]! / SCALE;
  }
  let best = -1;
  for (let i = 0; i < sum.length; i++) if (best < 0 || sum[i]! > sum[best]!) best = i;
  const score = sum[best]! / content.length;
  // Its words nearer, on average, to distress or doom (each word's nearest such concept) than to the best concept: nothing.
  return score >= min && score > distress / content.length ? { concept: table.concepts[best]!, score } : undefined;
}

/** A word's row for the file: its nearest inferable concepts' indices and cosines, then its highest cosine with the others. */
export function neighbourRow(cosines: readonly number[], others: readonly number[]): number[] {
  const byte = (c: number) => Math.min(SCALE, Math.max(0, Math.round(c * SCALE)));
  const nearest = cosines
    .map((c, i) => [i, byte(c)] as const)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, NEIGHBOURS_PER_WORD);
  return [...nearest.flatMap(([i]) => [i & 255, i >> 8]), ...nearest.map(([, c]) => c), byte(Math.max(...others))];
}
