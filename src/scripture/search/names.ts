/**
 * Names across languages, learnt from the parallel texts: the RV1909 and the WEB number their verses
 * alike, so a Spanish name and its English form turn up in the same verses ("Rut" and "Ruth", "Moisés"
 * and "Moses", "Josué" and "Joshua"). No hand list: each Spanish name is paired with the English name
 * that shares the most of its verses (Dice coefficient), when they share enough of them.
 *
 * A word counts as a name when it is capitalised (nearly) wherever it stands inside a sentence; a
 * sentence's first word says nothing either way ("Entonces", "Then").
 */
import { ALL_BOOKS, chapterCount } from "../books.js";
import type { Bible } from "../corpus.js";
import { DEFAULT_STUDY_DIR, readGzipJson } from "../../study/data.js";
import { words } from "./tokenizer.js";

/** A name must share at least this many verses with its counterpart, and this share of both (Dice). */
const MIN_SHARED = 2;
const MIN_DICE = 0.5;
/** Capitalised in at least this share of its occurrences inside sentences. */
const NAME_SHARE = 0.9;

export type NameTable = ReadonlyMap<string, string>;

/** Lower case, accents folded, apostrophes dropped: as the tokenizer's words() folds, faster for a whole Bible. */
function fold(raw: string): string {
  const lower = raw.toLowerCase().replace(/['’].*$/, "");
  return /[^\x00-\x7f]/.test(lower) ? lower.normalize("NFD").replace(/\p{M}/gu, "") : lower;
}

/** Word and sentence-mark pieces of a verse. */
const PIECES = /[\p{L}'’]+|[.!?:¡¿«"“(]/gu;

/**
 * Reads a verse: every word (folded) to `each`, with whether it stands inside a sentence and is
 * capitalised. No objects per word: three Bibles' words pass through here at start.
 */
function read(text: string, each: (word: string, inside: boolean, capital: boolean) => void): void {
  let inside = false;
  for (const m of text.matchAll(PIECES)) {
    const raw = m[0];
    if (raw.length === 1 && !/\p{L}/u.test(raw)) {
      inside = false;
      continue;
    }
    const lower = raw.toLowerCase();
    each(fold(lower), inside, raw[0] !== lower[0]);
    inside = true;
  }
}

/** Per word: how often it stands capitalised, and in lower case, inside a sentence. */
class Casing {
  readonly capital = new Map<string, number>();
  readonly lower = new Map<string, number>();
  add(word: string, inside: boolean, capital: boolean) {
    if (!inside) return;
    const m = capital ? this.capital : this.lower;
    m.set(word, (m.get(word) ?? 0) + 1);
  }
  /** Words capitalised (nearly) wherever they stand inside a sentence, with how often they occur so. */
  names(): Map<string, number> {
    const names = new Map<string, number>();
    for (const [w, n] of this.capital) if (n / (n + (this.lower.get(w) ?? 0)) >= NAME_SHARE) names.set(w, n);
    return names;
  }
}

/** What the alignment learns: the Spanish -> English names, and the words each side knows. */
export interface Names {
  /** Spanish name (folded: lower case, no accents) -> English name (folded), e.g. "moises" -> "moses". */
  table: NameTable;
  /** Every English name and every Spanish one (folded), with how often they stand capitalised inside a sentence. */
  names: ReadonlyMap<string, number>;
  /** Every word of the Spanish text (folded): a word it holds is Spanish, not a name spelt another way. */
  spanishWords: ReadonlySet<string>;
}

/** Pairs the Spanish Bible's names with the English one's from the verses they share. */
export function alignNames(spanish: Bible, english: Bible): Names {
  // Pass 1: casing (which words are names) and every Spanish word; the capitalised words of each verse pair kept.
  const esCase = new Casing();
  const enCase = new Casing();
  const spanishWords = new Set<string>();
  const pairs: [string[], string[]][] = [];
  for (const book of ALL_BOOKS) {
    if (!spanish.hasBook(book.id) || !english.hasBook(book.id)) continue;
    for (let c = 1; c <= chapterCount(book); c++) {
      const other = new Map((english.chapter(book.id, c)?.verses ?? []).map((v) => [v.verse, v.text]));
      for (const v of spanish.chapter(book.id, c)?.verses ?? []) {
        const text = other.get(v.verse);
        if (text === undefined) continue;
        const es: string[] = [];
        const en: string[] = [];
        read(v.text, (w, inside, capital) => (spanishWords.add(w), esCase.add(w, inside, capital), capital && es.push(w)));
        read(text, (w, inside, capital) => (enCase.add(w, inside, capital), capital && en.push(w)));
        pairs.push([es, en]);
      }
    }
  }
  const esNames = esCase.names();
  const enNames = enCase.names();
  // Pass 2: per verse pair, the names each side holds (any position now: a name opening a sentence is still a name).
  const esCount = new Map<string, number>();
  const enCount = new Map<string, number>();
  const joint = new Map<string, Map<string, number>>();
  for (const [es, en] of pairs) {
    const se = new Set(es.filter((w) => esNames.has(w)));
    const sn = new Set(en.filter((w) => enNames.has(w)));
    for (const e of sn) enCount.set(e, (enCount.get(e) ?? 0) + 1);
    for (const s of se) {
      esCount.set(s, (esCount.get(s) ?? 0) + 1);
      let row = joint.get(s);
      if (!row) joint.set(s, (row = new Map()));
      for (const e of sn) row.set(e, (row.get(e) ?? 0) + 1);
    }
  }
  const table = new Map<string, string>();
  for (const [s, row] of joint) {
    let best: string | undefined;
    let bestDice = 0;
    for (const [e, n] of row) {
      if (n < MIN_SHARED) continue;
      const dice = (2 * n) / (esCount.get(s)! + enCount.get(e)!);
      if (dice > bestDice) (bestDice = dice), (best = e);
    }
    if (best && bestDice >= MIN_DICE && best !== s) table.set(s, best);
  }
  const names = new Map(esNames);
  for (const [w, n] of enNames) names.set(w, (names.get(w) ?? 0) + n);
  return { table, names, spanishWords };
}

/**
 * The English form of a name a Spanish query spells: the aligned one ("moises" -> "moses"), or, for a
 * word the Spanish text never uses, the name one letter away from it, as modern Spanish spells names the
 * 1909 text spells otherwise ("rut" -> "ruth", "ester" -> "esther", "goliat" -> "goliath").
 */
export function englishName(word: string, names: Names): string | undefined {
  const aligned = names.table.get(word);
  if (aligned) return aligned;
  if (word.length < 3 || names.spanishWords.has(word)) return undefined;
  // Of the names one letter away, the most frequent ("esther", not the place "ether").
  let found: string | undefined;
  let most = 0;
  for (const [n, count] of names.names) {
    if (n[0] === word[0] && count > most && oneEditApart(word, n)) (found = n), (most = count);
  }
  return found === undefined ? undefined : (names.table.get(found) ?? found);
}

/** Whether a and b differ by one inserted, deleted or replaced letter. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length < b.length ? a.slice(i) === b.slice(i + 1) : a.slice(i + 1) === b.slice(i);
}

/** The query with every Spanish name replaced by its English form; the query itself when none is. */
export function glossNames(query: string, names: Names): string {
  const ws = words(query);
  let changed = false;
  const out = ws.map((w) => {
    const en = englishName(w, names);
    if (en) changed = true;
    return en ?? w;
  });
  return changed ? out.join(" ") : query;
}

/** The shipped alignment (npm run ingest:expansion writes it from the RV1909 and the WEB). */
export const NAMES_FILE = "names-spa-eng.json.gz";

interface NamesFile {
  table: [string, string][];
  names: [string, number][];
  spanishWords: string[];
}

export function namesToJson(names: Names): NamesFile {
  return { table: [...names.table], names: [...names.names], spanishWords: [...names.spanishWords].sort() };
}

/** The shipped alignment, or undefined when the file is missing (the caller aligns the texts itself, a second or two). */
export function loadNames(dir = DEFAULT_STUDY_DIR): Names | undefined {
  const file = readGzipJson<NamesFile>(dir, NAMES_FILE);
  return file && { table: new Map(file.table), names: new Map(file.names), spanishWords: new Set(file.spanishWords) };
}
