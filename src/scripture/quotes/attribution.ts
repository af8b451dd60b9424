/**
 * Which reference a quotation is attributed to: the parenthesis right after it, else the nearest
 * reference before it in the same sentence, else the first one after it in the same sentence.
 * A reference-shaped text that names no existing passage ("Hezekiah 3:16", "John 22:5",
 * "Psalm 151") counts as a reference here, so that a quotation attributed to it can lose its marks.
 */
import { chapterCount, findBook } from "../books.js";
import { findReferences, type ScriptureRef } from "../references.js";
import type { Tie } from "./verdict.js";

export interface Attribution {
  /** The existing passage, or null for a reference to one that does not exist. */
  ref: ScriptureRef | null;
  /** The reference as written. */
  text: string;
  start: number;
  end: number;
}

// "Name 3:16" with any capitalised name, and "Book 151" with a known book whose chapter does not exist.
const VERSE_SHAPED = /(?<![\p{L}\p{N}])(?:[123] ?)?\p{Lu}\p{Ll}+\.? \d{1,3}:\d{1,3}(?:[-–]\d{1,3})?/gu;
const CHAPTER_SHAPED = /(?<![\p{L}\p{N}])((?:[123] ?)?\p{Lu}\p{Ll}+)\.? (\d{1,3})(?![\d:])/gu;
// Capitalised words that are followed by a time or a number in prose.
const NOT_NAMES = new Set(["At", "By", "On", "In", "Since", "Until", "Till", "From", "To", "About", "Around", "Before",
  "After", "Chapter", "Verse", "Step", "Page", "Section", "Version", "Part", "Day", "Week", "Year", "Room", "Ratio"]);

function missing(text: string, valid: Attribution[]): Attribution[] {
  const found: Attribution[] = [];
  const overlaps = (start: number, end: number) => valid.some((item) => start < item.end && item.start < end);
  for (const match of text.matchAll(VERSE_SHAPED)) {
    const name = match[0].replace(/^[123] ?/, "").split(/[ .]/)[0] ?? "";
    if (NOT_NAMES.has(name) || overlaps(match.index, match.index + match[0].length)) continue;
    found.push({ ref: null, text: match[0], start: match.index, end: match.index + match[0].length });
  }
  for (const match of text.matchAll(CHAPTER_SHAPED)) {
    const book = findBook(match[1] as string);
    if (book === undefined || Number(match[2]) <= chapterCount(book)) continue;
    if (overlaps(match.index, match.index + match[0].length)) continue;
    found.push({ ref: null, text: match[0], start: match.index, end: match.index + match[0].length });
  }
  return found;
}

/** Every reference in text, existing or not, in order of position. */
export function referencesIn(text: string): Attribution[] {
  if (!/\d/.test(text)) return [];
  const valid: Attribution[] = findReferences(text).map((item) => ({ ref: item.ref, text: item.text, start: item.start, end: item.end }));
  return [...valid, ...missing(text, valid)].sort((a, b) => a.start - b.start);
}

// A sentence ends at . ! or ? (closing marks allowed) followed by a space and a capital or an
// opening mark ("Jn. 3:16" and "1 Cor. 13" go on), and at every line break.
const BOUNDARY = /[.!?]["'”’»)*_]*\s+(?=[\p{Lu}"“«¿¡*_(])|\n/gu;

/** Where the last sentence of text begins. */
export function lastSentenceStart(text: string): number {
  let start = 0;
  for (const match of text.matchAll(BOUNDARY)) start = match.index + match[0].length;
  return start;
}

// Words that name or define rather than quote: "John 3:16 is called "the gospel in miniature"".
// A copula describes rather than quotes: "John 3:16 is "the heart of the gospel"".
const NAMING = /\b(?:is|are|was|were|called|calls|named|known|nicknamed|term|terms|word|words|phrase|title|titled|means|meaning|translated|translates|rendered|renders|summed|summarized|summarised|es|son|era|llamad[oa]s?|conocid[oa]s?|palabras?|frase|significa|traducid[oa]s?)\b/i;

// A sentence that denies a quotation is not quoting: "Romans 8:28 does not say "all things are good"",
// ""All things are good" is not what Romans 8:28 says", "Romanos 8:28 no dice "todo es bueno"".
const DENIAL = /(?:\b(?:does|do|did|is|was)\s*(?:not|n['’]t)|\bnever|\bnowhere)\s+(?:\p{L}+\s+)?(?:say|says|said|saying|read|reads|teach|teaches|taught|state|states|promise|promises|mean|means|claim|claims)\b|\bnot\s+what\b|\b(?:no|nunca)\s+(?:dice|dijo|enseña|promete|afirma)\b|\bno\s+es\s+lo\s+que\b/iu;

/** Whether the words between a reference and a quotation deny that the passage says it. */
export function denies(between: string): boolean {
  return DENIAL.test(between);
}

/** A quotation is tied tightly to a reference when at most three words stand between them, none of them naming words, or only a colon. */
export function tieOf(between: string): Tie {
  const trimmed = between.trim();
  if (trimmed.endsWith(":") && trimmed.split(/\s+/).length <= 6) return "tight";
  const words = trimmed.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length <= 3 && !NAMING.test(trimmed) ? "tight" : "loose";
}
