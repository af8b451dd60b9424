/**
 * The bible-passage-reference-parser, configured for our two uses and wrapped so that callers see
 * only ScriptureRef with USFM ids. The package finds and interprets references; this module adds
 * the policies the package leaves to us (which book spellings count, case, ambiguous words).
 */
import { bcv_parser } from "bible-passage-reference-parser/esm/bcv_parser.js";
import * as en from "bible-passage-reference-parser/esm/lang/en.js";
import * as es from "bible-passage-reference-parser/esm/lang/es.js";
import { ALL_BOOKS, bookById, findBook, isValidRef, normalizeBookName, verseCount, type Book } from "./books.js";
import { isCandidateWord, isWordChar } from "./reference-segments.js";
import { foldMarks } from "../unicode.js";

/** A passage; book is a USFM id. Without verseStart it is the whole chapter (or chapters). */
export interface ScriptureRef {
  book: string;
  chapter: number;
  verseStart?: number;
  verseEnd?: number;
  chapterEnd?: number;
}

export interface FoundReference {
  ref: ScriptureRef;
  /** Offsets into the text searched; text.slice(start, end) is the reference as written. */
  start: number;
  end: number;
  text: string;
}

/** "prose": capitalised books, conservative; "query": a search box, lowercase and "jn 3 16" allowed. */
export type ParseMode = "prose" | "query";

interface Point { b: string; c: number; v: number; type?: string }
interface Entity {
  osis: string;
  type: string;
  indices: [number, number];
  entity_id: number;
  start: Point;
  end: Point;
  entities: { valid: { valid: boolean; messages: Record<string, unknown> } }[];
}
interface Parser {
  add_books(books: { books: { osis: string[]; regexp: RegExp }[] }): void;
  add_translations(data: { translations: { text: string; system: string }[]; systems: Record<string, { chapters: Record<string, number[]> }> }): void;
  translations: { systems: Record<string, { chapters?: Record<string, number[]> } | undefined> };
  parse(text: string): unknown;
  parsed_entities(): unknown[];
  set_options(options: Record<string, unknown>): unknown;
}
type LanguageModule = ConstructorParameters<typeof bcv_parser>[0];

const NEVER = /^\x1f\x1f\x1f/;

const BASE_OPTIONS = {
  osis_compaction_strategy: "bcv",
  sequence_combination_strategy: "separate",
  consecutive_combination_strategy: "separate",
  book_alone_strategy: "ignore",
  book_sequence_strategy: "ignore",
  book_range_strategy: "ignore",
  invalid_passage_strategy: "include",
  passage_existence_strategy: "bcv",
  // books.ts counts and the shipped SWORD texts follow KJV versification.
  versification_system: "kjv",
  // "a": the deuterocanon (apocrypha) too; books.ts decides which of its books we have.
  testaments: "ona",
  zero_chapter_strategy: "error",
  zero_verse_strategy: "error",
  single_chapter_1_strategy: "chapter",
};

const MODE_OPTIONS: Record<ParseMode, Record<string, unknown>> = {
  prose: {
    ...BASE_OPTIONS,
    captive_end_digits_strategy: "delete",
    // In prose "Mark 5 10 people" is not Mark 5:10, and a bare space does not chain "Mark 5 10".
    grammar: { cv_sep_weak: NEVER, sequence_us: /^(?:\s*(?:[,;]|&|and\s|y\s)\s*)+/i },
  },
  query: { ...BASE_OPTIONS, captive_end_digits_strategy: "include" },
};

const parsers = new Map<string, Parser>();

const VERSIFICATION = "biblical-chat";

/**
 * The package's KJV versification, with the deuterocanon numbered as the WEB numbers it (the package counts
 * Baruch without the Letter of Jeremiah as chapter 6, 2 Esdras 7 with 70 verses, Greek Esther in 16
 * chapters): so the package and books.ts agree on which verses exist.
 */
function useOurVersification(parser: Parser): void {
  const kjv = parser.translations.systems.kjv?.chapters ?? {};
  const deuterocanon = Object.fromEntries(
    ALL_BOOKS.filter((book) => book.canon === "deuterocanon" && book.id !== "PS2").map((book) => [book.osis, [...book.verseCounts]]),
  );
  parser.add_translations({
    translations: [{ text: "BIBLICALCHAT", system: VERSIFICATION }],
    systems: { [VERSIFICATION]: { chapters: { ...kjv, ...deuterocanon } } },
  });
  parser.set_options({ versification_system: VERSIFICATION });
}

function parserFor(lang: "en" | "es", mode: ParseMode): Parser {
  const key = `${lang}:${mode}`;
  let parser = parsers.get(key);
  if (parser === undefined) {
    parser = new bcv_parser((lang === "en" ? en : es) as LanguageModule) as unknown as Parser;
    parser.set_options(MODE_OPTIONS[mode]);
    useOurVersification(parser);
    if (lang === "es") parser.add_books({ books: [...spanishOrdinalBooks(), ...SPANISH_EXTRA_BOOKS] });
    parsers.set(key, parser);
  }
  return parser;
}

const ORDINAL_PATTERNS: Record<string, string> = {
  "1": "Primer[oa]?|1(?:a|ª|ra|ro|o|º|er)?\\.?",
  "2": "Segund[oa]|2(?:a|ª|da|do|o|º)?\\.?",
  "3": "Tercer[oa]?|3(?:a|ª|ra|ro|o|º|er)?\\.?",
};
const ACCENTED: Record<string, string> = { a: "[aá]", e: "[eé]", i: "[ií]", o: "[oó]", u: "[uú]", á: "[aá]", é: "[eé]", í: "[ií]", ó: "[oó]", ú: "[uú]" };

// The Spanish module reads "1 Juan" but not "Primera de Juan" or "1a Juan", and would then link the
// Gospel: numbered Spanish books are taught the ordinal forms.
function spanishOrdinalBooks(): { osis: string[]; regexp: RegExp }[] {
  return ALL_BOOKS.flatMap((book) => {
    const numbered = /^([123]) (.+)$/.exec(book.nameEs);
    if (numbered === null) return [];
    const [, digit, name] = numbered as unknown as [string, string, string];
    const tail = [...name].map((ch) => ACCENTED[ch] ?? ch).join("");
    return [{ osis: [book.osis], regexp: new RegExp(`(?:${ORDINAL_PATTERNS[digit]})\\s*(?:de\\s+)?(?:San\\s+)?${tail}`) }];
  });
}

// Spanish names of the deuterocanon the package's Spanish module does not read ("Tobías").
const SPANISH_EXTRA_BOOKS = [{ osis: ["Tob"], regexp: /Tob[ií]as/ }];

// Sequences, ranges and chapter runs, in both languages: the parser's grammar for them is otherwise first
// compiled by V8 inside a request (a few hundred ms once, on a text dense with references).
const WARM_UP = "John 3:16; Mark 5:1-6:2, 7 and Rom 8:28-30 John 3 John 4 Jn 3; 1 Cor 13:4-7 Juan 3:16 y 17, Salmo 23 Gen 1-Exod 2";

/** Builds the four parsers now (a few hundred ms of regex compilation) instead of on first use. */
export function prepareParsers(): void {
  for (const lang of ["en", "es"] as const) {
    for (const mode of ["prose", "query"] as const) parserFor(lang, mode).parse(WARM_UP);
  }
}

// The Letter of Jeremiah ("Letter of Jeremiah 1:5", "Carta de Jeremías 1:5") is Baruch 6 in the WEB.
const LETTER_OF_JEREMIAH = "EpJer";
const BARUCH = bookById("BAR");

const BY_OSIS = new Map<string, Book>([
  ...ALL_BOOKS.map((book): [string, Book] => [book.osis, book]),
  ...(BARUCH === undefined ? [] : [[LETTER_OF_JEREMIAH, BARUCH] as [string, Book]]),
]);

// Abbreviations that are everyday English or Spanish words ("Is 2 enough?", "Am 3 ok", "Mi 5 hijos",
// "Mar 3 veces"): with a verse they are references, with a chapter alone they are prose.
// So are the deuterocanon's names that are words or names of people ("Wisdom 7 ways", "Judith 3 times",
// "Tobit", "Baruch", "Sir 2"): "Wisdom 7:26" links, "Wisdom 7" does not.
// Nave's two-letter forms that are words or names ("So 2", "La 3", "Re 5", "Joe 2") count with a verse only too.
const WORD_ABBREVIATIONS = new Set(["is", "am", "mi", "os", "sal", "mar", "mal", "act", "song", "pro",
  "le", "es", "so", "la", "da", "ho", "joe", "na", "re",
  "wisdom", "wis", "sabiduria", "sab", "judith", "judit", "jdt", "tobit", "tobias", "tob", "baruch", "baruc", "bar", "ba", "sir"]);

// Short abbreviations that are no everyday word ("Ge 34", "Ex 8", "Ro 12", "Hab 1") link with a chapter
// alone when written as abbreviations are, capital then lowercase, with the book's number glued on as
// study tools and Nave's write it ("1Ch 22", "2Pe 3"): "AC 26" and "1CO 12" are not references.
const TITLE_CASE = /^[1-4]?\p{Lu}\p{Ll}{1,2}\.?$/u;

// Dashes the parser does not read as ranges, swapped one for one so offsets stay put.
const ODD_DASHES = /[\u2010\u2011\u2012\u2212\uFE63\uFF0D]/g;

// A suffix is an ordinal only before the book's name: "2Th" alone is Thessalonians, not "2th".
const ORDINAL_SUFFIX = /^([1234])(?:a|ª|ra|ro|o|º|er|da|do|st|nd|rd|th|to)\.?(?=\s)/i;
const ORDINAL_BEFORE = /(?:^|[^\p{L}\p{N}])(?:[123](?:a|ª|ra|ro|o|º|er|da|do|st|nd|rd)?\.?|I{1,3}|[Pp]rimer[oa]?|[Ss]egund[oa]|[Tt]ercer[oa]?|First|Second|Third)\s+(?:de\s+)?$/u;

const BANNED_MESSAGES = ["start_chapter_not_exist", "start_verse_not_exist", "end_chapter_not_exist", "end_verse_not_exist",
  "end_chapter_before_start", "end_verse_before_start", "start_chapter_is_zero", "start_verse_is_zero"];

/**
 * Where the package and the WEB number a book differently: "Psalm 151" is the single chapter of PS2,
 * and the Letter of Jeremiah is Baruch 6 in the WEB.
 */
function renumber(entity: Entity, book: Book): { book: Book; start: Point; end: Point } | undefined {
  const { start, end } = entity;
  if (entity.start.b === LETTER_OF_JEREMIAH) {
    if (start.c !== 1 || end.c !== 1) return undefined;
    return { book, start: { ...start, c: 6 }, end: { ...end, c: 6 } };
  }
  if (book.id === "PSA" && (start.c === 151 || end.c === 151)) {
    const ps151 = bookById("PS2");
    if (ps151 === undefined || start.c !== 151 || end.c !== 151) return undefined;
    return { book: ps151, start: { ...start, c: 1 }, end: { ...end, c: 1 } };
  }
  return { book, start, end };
}

function toRef(entity: Entity, found: Book): ScriptureRef | undefined {
  // A range across books ("John 3:16-Romans 3:23") is no passage of one book: read as one it would be cut
  // to another passage (John 3:16-23). Callers refuse it by name (crossBookRange).
  if (BY_OSIS.get(entity.end.b) !== BY_OSIS.get(entity.start.b)) return undefined;
  const renumbered = renumber(entity, found);
  if (renumbered === undefined) return undefined;
  const { book, start, end } = renumbered;
  const shape = start.type ?? entity.type;
  const explicitVerse = ["bcv", "cv", "v", "bv"].includes(shape);
  const wholeChapters = !explicitVerse && start.v === 1 && end.v === verseCount(book, end.c);
  const ref: ScriptureRef = { book: book.id, chapter: start.c };
  if (end.c !== start.c) ref.chapterEnd = end.c;
  if (!wholeChapters) {
    ref.verseStart = start.v;
    if (end.v !== start.v || end.c !== start.c) ref.verseEnd = end.v;
  }
  if (!isValidRef(book, start.c, wholeChapters ? undefined : start.v)) return undefined;
  if (!isValidRef(book, end.c, wholeChapters ? undefined : end.v)) return undefined;
  return ref;
}

// The link text ends at the last digit (plus "16a"/"16ff"), so "John 3:16 NIV" links "John 3:16".
function trimEnd(text: string, start: number, end: number): number {
  let last = end;
  while (last > start && !/\d/.test(text[last - 1] as string)) last--;
  const suffix = /^(?:ff?|[a-e])(?![\p{L}\p{N}])/u.exec(text.slice(last, end));
  return suffix === null ? last : last + suffix[0].length;
}

// "Revelation of John 1:1" is Revelation: the words before a match must not make a longer book name.
function partOfLongerName(text: string, start: number, bookText: string, book: Book): boolean {
  const before = text.slice(Math.max(0, start - 40), start).split(/\s+/).filter(Boolean);
  for (let words = 1; words <= 3 && words <= before.length; words++) {
    const longer = findBook(`${before.slice(-words).join(" ")} ${bookText}`);
    if (longer !== undefined && longer !== book) return true;
  }
  return false;
}

interface Candidate extends FoundReference { entityId: number }

function accept(text: string, entities: Entity[], mode: ParseMode): Candidate[] {
  const found: Candidate[] = [];
  let previous: { entityId: number; accepted: boolean } | undefined;
  for (const entity of entities) {
    const [start, rawEnd] = entity.indices;
    const span = text.slice(start, rawEnd);
    // "1a Juan", "2º Reyes": books.ts knows the ordinal words and digits, not these suffixes.
    const bookText = (/^(?:[1234]\s*)?[^\d]*/.exec(span)?.[0] ?? "").trim().replace(ORDINAL_SUFFIX, "$1");
    const continuation = !/\p{L}/u.test(bookText);
    let ok = entity.osis !== "" && entity.entities.every((part) => part.valid.valid &&
      !Object.keys(part.valid.messages).some((message) => BANNED_MESSAGES.includes(message)));
    const book = BY_OSIS.get(entity.start.b);
    if (continuation) {
      ok &&= previous !== undefined && previous.entityId === entity.entity_id && previous.accepted;
    } else {
      const letter = /\p{L}/u.exec(bookText.replace(/^[1234]\s*de\s+/, ""))?.[0] ?? "";
      const letter6 = entity.start.b === LETTER_OF_JEREMIAH && /jerem/i.test(bookText);
      ok &&= (letter6 || findBook(bookText) === book) && book !== undefined;
      // An unread ordinal before an unnumbered book ("3 Juan" misread as "Juan") means another book.
      ok &&= book === undefined || /^[1234]/.test(book.id) || !ORDINAL_BEFORE.test(text.slice(Math.max(0, start - 12), start));
      ok &&= book === undefined || !partOfLongerName(text, start, bookText, book);
      if (mode === "prose") {
        ok &&= !/\p{Ll}/u.test(letter) && (start === 0 || !isWordChar(text[start - 1]));
      }
    }
    const ref = ok && book !== undefined ? toRef(entity, book) : undefined;
    if (ref !== undefined && ref.verseStart === undefined && mode === "prose") {
      // "Numbers 1 through 10 are prime": chapter ranges in words read as prose.
      if (/\b(?:through|thru|to)\b/i.test(span)) ok = false;
      if (!continuation && WORD_ABBREVIATIONS.has(normalizeBookName(bookText))) ok = false;
      if (!continuation && bookText.replace(/\.$/, "").length <= 3 && !TITLE_CASE.test(bookText)) ok = false;
    }
    const accepted = ok && ref !== undefined;
    previous = { entityId: entity.entity_id, accepted };
    if (!accepted || ref === undefined) continue;
    const end = trimEnd(text, start, rawEnd);
    found.push({ ref, start, end, text: text.slice(start, end), entityId: entity.entity_id });
  }
  return found;
}

interface Reading { found: Candidate[]; spans: [number, number][] }

function run(lang: "en" | "es", text: string, mode: ParseMode): Reading {
  const parser = parserFor(lang, mode);
  parser.parse(text);
  const entities = parser.parsed_entities() as Entity[];
  return { found: accept(text, entities, mode), spans: entities.map((entity) => entity.indices) };
}

const fold = (word: string) => foldMarks(word).toLowerCase();
const firstWord = (label: string) => fold(label).split(/[\s.]+/)[0] ?? "";
const ENGLISH_FIRST = new Set(ALL_BOOKS.flatMap((book) => [book.name, book.osis].map(firstWord)));
// Words that open only a Spanish name ("Juan", "Hechos"): such a text is read in Spanish first.
const SPANISH_FIRST = new Set(ALL_BOOKS.map((book) => firstWord(book.nameEs)).filter((word) => !ENGLISH_FIRST.has(word)));

const WORDS = /[\p{L}\p{M}\p{N}]+/gu;

function candidateWords(text: string, mode: ParseMode): { at: number; word: string }[] {
  return [...text.matchAll(WORDS)]
    .filter((match) => isCandidateWord(match[0], mode === "prose"))
    .map((match) => ({ at: match.index, word: match[0] }));
}

function readReferences(input: string, mode: ParseMode): FoundReference[] {
  const text = input.replace(ODD_DASHES, "-");
  const candidates = candidateWords(text, mode);
  const spanishFirst = SPANISH_FIRST.has(fold(candidates[0]?.word ?? ""));
  const first = run(spanishFirst ? "es" : "en", text, mode);
  const all = first.found;
  // The other language runs only for a word that could open a reference outside every match.
  if (candidates.some(({ at }) => !all.some((found) => at >= found.start && at < found.end))) {
    // "3 John 15" (no such verse) must not come back as the Spanish reading "John 15".
    const inside = (found: Candidate) => first.spans.some(([start, end]) => start < found.start && found.start < end);
    all.push(...run(spanishFirst ? "en" : "es", text, mode).found.filter((found) => !inside(found)));
  }
  all.sort((a, b) => a.start - b.start || (b.end - b.start) - (a.end - a.start));
  const kept: FoundReference[] = [];
  for (const found of all) {
    const last = kept[kept.length - 1];
    if (last !== undefined && found.start < last.end) {
      if (found.end - found.start <= last.end - last.start) continue;
      kept.pop();
    }
    kept.push({ ref: found.ref, start: found.start, end: found.end, text: input.slice(found.start, found.end) });
  }
  return kept;
}

/**
 * The two books of the first range across books in a query ("John 3:16-Romans 3:23" -> John, Romans), so
 * callers can say why it is not read; undefined when there is none.
 */
export function crossBookRange(query: string): { from: Book; to: Book } | undefined {
  for (const lang of ["en", "es"] as const) {
    const parser = parserFor(lang, "query");
    parser.parse(query.replace(ODD_DASHES, "-"));
    for (const entity of parser.parsed_entities() as Entity[]) {
      const from = BY_OSIS.get(entity.start.b);
      const to = BY_OSIS.get(entity.end.b);
      if (from !== undefined && to !== undefined && from !== to) return { from, to };
    }
  }
  return undefined;
}

// A parse costs about 0.3 ms, mostly fixed per call, and answers keep citing the same few
// passages; results are frozen so the memo cannot be changed through them. Bounded in bytes, not only in
// entries: an entry costs its key (two bytes a character) and its results (about 200 bytes each).
const MEMO_LIMIT = 4096;
export const MEMO_BYTES = 2 * 1024 * 1024;
const ENTRY_OVERHEAD = 100;
const RESULT_BYTES = 200;
const memo = new Map<string, { found: readonly FoundReference[]; bytes: number }>();
let memoBytes = 0;

/** What the memo holds now (tests and docs/reliability.md). */
export function memoSize(): { entries: number; bytes: number } {
  return { entries: memo.size, bytes: memoBytes };
}

/**
 * Every reference in `input` (one segment of prose, or a whole query), in order, none overlapping.
 * English and Spanish are both read when needed; where they overlap the longer reading wins.
 */
export function parseReferences(input: string, mode: ParseMode): readonly FoundReference[] {
  const key = `${mode}\u0000${input}`;
  const known = memo.get(key);
  if (known !== undefined) return known.found;
  const found = Object.freeze(readReferences(input, mode).map((item) => Object.freeze({ ...item, ref: Object.freeze(item.ref) })));
  const bytes = ENTRY_OVERHEAD + 2 * key.length + RESULT_BYTES * found.length;
  // One text too large for the memo is not kept; otherwise the oldest entries make room.
  if (bytes > MEMO_BYTES / 16) return found;
  while (memo.size > 0 && (memo.size >= MEMO_LIMIT || memoBytes + bytes > MEMO_BYTES)) {
    const oldest = memo.keys().next().value as string;
    memoBytes -= memo.get(oldest)!.bytes;
    memo.delete(oldest);
  }
  memo.set(key, { found, bytes });
  memoBytes += bytes;
  return found;
}

