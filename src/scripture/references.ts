/**
 * Scripture references: find them in prose, recognise a search query that is one passage, and
 * write them back as text or as reader paths. Policies are documented in docs/references.md.
 */
import { fits } from "../limits.js";
import { bookById } from "./books.js";
import { crossBookRange as crossBookRangeIn, parseReferences, prepareParsers, type FoundReference, type ScriptureRef } from "./reference-parser.js";
import { firstCandidate, mayHoldReference, mayOpenPassageQuery, segmentEnd } from "./reference-segments.js";

export type { FoundReference, ScriptureRef } from "./reference-parser.js";

export type Lang = "en" | "es";

/** Call at start-up: the first reference otherwise pays for building the parsers. */
export function prepareReferences(): void {
  prepareParsers();
}

/**
 * How many characters of one text (an answer, whole or streamed) the reference parser reads. The parser
 * costs about 0.1 ms a character on text dense with references ("John 3 John 3 ..."), so this bounds
 * one answer's parsing to a few hundred ms; an ordinary answer parses a few hundred characters.
 */
export const PARSE_BUDGET = 4000;

/** What is left of one text's PARSE_BUDGET; spent segment by segment, the same whatever the chunking. */
export interface ParseBudget {
  left: number;
}

export const parseBudget = (): ParseBudget => ({ left: PARSE_BUDGET });

/**
 * References in text[from, to), one segment as cut by segmentEnd. Parsing starts at the segment's
 * first candidate word, so the result depends on the segment alone (the streaming converter
 * relies on this). `startsMidWord`: text[from] continues a word already sent. A segment the budget
 * cannot pay for stays text, and so does every later one.
 */
export function referencesInSegment(text: string, from: number, to: number, startsMidWord = false, budget?: ParseBudget): FoundReference[] {
  const start = firstCandidate(text, from, to, true, false, startsMidWord);
  if (start < 0 || !mayHoldReference(text, start, to)) return [];
  if (budget !== undefined) {
    if (budget.left < to - start) {
      budget.left = 0;
      return [];
    }
    budget.left -= to - start;
  }
  return parseReferences(text.slice(start, to), "prose").map((found) => ({
    ref: { ...found.ref },
    start: found.start + start,
    end: found.end + start,
    text: found.text,
  }));
}

/** Every existing passage referred to in prose, with offsets into text, in order. */
export function findReferences(text: string, budget: ParseBudget = parseBudget()): FoundReference[] {
  const found: FoundReference[] = [];
  let from = 0;
  while (from < text.length) {
    const segment = segmentEnd(text, from, true);
    if (!segment.verbatim) found.push(...referencesInSegment(text, from, segment.end, false, budget));
    from = segment.end;
  }
  return found;
}

// What may surround or separate the references of a passage query ("John 3:16?", "Rom 8:28, 31").
const QUERY_FILLER = /^[\s,;.:!?&¿¡"'“”-]*$/;

/**
 * The passage when the whole query is a reference ("John 3:16", "gen 1", "jn 3 16",
 * "1 Cor 13:4-7"), else null. Several references count only when they share one chapter.
 */
export function parsePassageQuery(query: string): ScriptureRef | null {
  // No reference is longer: a longer text is a question, and the parser's time grows faster than its input.
  if (!fits(query, "reference")) return null;
  // Most search queries are questions: without a digit after a letter none can be a reference, and the
  // parser (about 0.3 ms per new text) is not asked.
  if (!mayHoldReference(query, 0, query.length)) return null;
  // Nor can a question that opens with a word no book's name opens with: a chat asks this of its
  // question twice and its search once more (about 0.3 ms a new text otherwise).
  if (!mayOpenPassageQuery(query)) return null;
  const found = parseReferences(query, "query");
  const first = found[0];
  if (first === undefined) return null;
  let cursor = 0;
  for (const item of found) {
    if (!QUERY_FILLER.test(query.slice(cursor, item.start))) return null;
    if (item.ref.book !== first.ref.book || item.ref.chapter !== first.ref.chapter) return null;
    cursor = item.end;
  }
  return QUERY_FILLER.test(query.slice(cursor)) ? { ...first.ref } : null;
}

/**
 * When the query names a range across books ("John 3:16-Romans 3:23", "Genesis 1:1-Revelation 22:21"),
 * the sentence that refuses it; undefined otherwise. Such a range is never read as a passage of its first
 * book (that would silently serve another passage).
 */
export function crossBookProblem(query: string): string | undefined {
  if (!fits(query, "reference") || !mayHoldReference(query, 0, query.length)) return undefined;
  const range = crossBookRangeIn(query);
  if (range === undefined) return undefined;
  return `"${query.trim()}" runs from ${range.from.name} into ${range.to.name}; a passage stays within one book. Ask for each book's part separately (for example the end of ${range.from.name}, then the start of ${range.to.name}).`;
}

function bookName(ref: ScriptureRef, lang: Lang): string {
  const book = bookById(ref.book);
  if (book === undefined) return ref.book;
  // "Psalm 23" names one psalm; "Psalms 120-134" several.
  if (book.id === "PSA") {
    const several = ref.chapterEnd !== undefined && ref.verseStart === undefined;
    if (lang === "es") return several ? "Salmos" : "Salmo";
    return several ? "Psalms" : "Psalm";
  }
  return lang === "es" ? book.nameEs : book.name;
}

/** "John 3:16", "Romans 8:28-30", "Genesis 1:1-2:3", "Psalm 23", "Juan 3:16", "Psalm 151:4". */
export function formatReference(ref: ScriptureRef, lang: Lang = "en"): string {
  const name = bookName(ref, lang);
  // Psalm 151 is a book of one chapter whose name ends in a number: "Psalm 151:4", not "Psalm 151 1:4".
  if (ref.book === "PS2") {
    if (ref.verseStart === undefined) return name;
    const end = ref.verseEnd !== undefined && ref.verseEnd !== ref.verseStart ? `-${ref.verseEnd}` : "";
    return `${name}:${ref.verseStart}${end}`;
  }
  if (ref.verseStart === undefined) {
    return ref.chapterEnd === undefined ? `${name} ${ref.chapter}` : `${name} ${ref.chapter}-${ref.chapterEnd}`;
  }
  const head = `${name} ${ref.chapter}:${ref.verseStart}`;
  if (ref.chapterEnd !== undefined) return `${head}-${ref.chapterEnd}:${ref.verseEnd ?? 1}`;
  return ref.verseEnd !== undefined && ref.verseEnd !== ref.verseStart ? `${head}-${ref.verseEnd}` : head;
}

/**
 * The reader path: "/read/JHN/3?verse=16", "/read/ROM/8?verse=28-30", "/read/PSA/23". A passage
 * that crosses chapters opens its first chapter at its first verse.
 */
export function readerPath(ref: ScriptureRef): string {
  const base = `/read/${ref.book}/${ref.chapter}`;
  if (ref.verseStart === undefined) return base;
  const range = ref.chapterEnd === undefined && ref.verseEnd !== undefined && ref.verseEnd !== ref.verseStart;
  return `${base}?verse=${ref.verseStart}${range ? `-${ref.verseEnd}` : ""}`;
}
