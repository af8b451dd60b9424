/**
 * Cuts text into segments that no scripture reference can cross, and tells which words could open
 * one. Both the whole-text and the streaming link converters parse segment by segment from the
 * first candidate word, so their results can only agree: a segment's output depends on nothing
 * outside it, and a segment end is decided by at most two characters of lookahead.
 */
import { ALL_BOOKS, isOrdinalWord, normalizeBookName } from "./books.js";
import { foldMarks } from "../unicode.js";
import { TEXT_LIMITS } from "../limits.js";

/** The longest word a reference holds (a book's word, a number): a longer word is prose, never parsed. */
export const MAX_REFERENCE_WORD = 32;
/**
 * How far a segment runs past its first candidate word before it is cut: twice the longest reference
 * a caller may send, so a real list of references in prose is never cut, while a run of "John 3 John 3
 * ..." is parsed in pieces of bounded size (the parser's time grows faster than its input) and the
 * streaming converter never holds more than this.
 */
export const MAX_SEGMENT = 2 * TEXT_LIMITS.reference;

// Lowercase words that occur inside references the parser reads ("Song of Songs", "Juan 3:16 y 17",
// "John 3 verse 16", "Matthew 5 through 7"); any other lowercase word starts a new segment.
const CONNECTORS = new Set([
  "of", "the", "and", "through", "thru", "to", "verse", "verses", "ver", "vs", "vv", "v", "ff", "f",
  "ch", "chap", "chapter", "chapters", "de", "del", "los", "las", "la", "y", "e", "cap", "caps",
  "capitulo", "capitulos", "capítulo", "capítulos", "versiculo", "versiculos", "versículo",
  "versículos", "vers", "sig", "siguientes",
]);

// Characters that never occur inside a reference and mark markdown structure: each is a segment
// of its own, so links, code spans, tables and line breaks split references apart.
// By code ("\n", "\r", "[", "]", "(", ")", "`", "|", "<", ">"): segmentEnd asks for every character.
function isStopCode(code: number): boolean {
  return code === 10 || code === 13 || code === 91 || code === 93 || code === 40 || code === 41 || code === 96 || code === 124 || code === 60 || code === 62;
}

const URL_STARTS = ["http", "https", "ftp", "www"];

const ORDINAL_WORDS = [
  "i", "ii", "iii", "iv", "1st", "2nd", "3rd", "4th", "first", "second", "third", "fourth",
  "primer", "primero", "primera", "segundo", "segunda", "tercer", "tercero", "tercera",
  "1a", "1ª", "1ra", "1ro", "1o", "1º", "1er", "2a", "2ª", "2da", "2do", "2o", "2º", "3a", "3ª", "3ra", "3ro", "3o", "3º", "3er",
];

const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const LETTER = /[\p{L}\p{M}]/u;

function isAsciiWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

// Called for every character of every answer: ASCII is decided without a regex.
export function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  if (code < 128) return isAsciiWordCode(code);
  return WORD_CHAR.test(ch);
}

/** Whether text[from, to) is ASCII digits only (as /^\d+$/ without the u flag; from < to). */
function allDigits(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const code = text.charCodeAt(k);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function isLetter(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 128) return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  return LETTER.test(ch);
}

const ASCII = /^[\x00-\x7f]*$/;

function fold(word: string): string {
  return ASCII.test(word) ? word.toLowerCase() : foldMarks(word).toLowerCase();
}

// Names the parser reads that are not book labels of their own: the Letter of Jeremiah is Baruch 6.
const EXTRA_LABELS = ["Letter of Jeremiah", "Epistle of Jeremiah", "Ep Jer", "EpJer", "Carta de Jeremías"];

const LABELS = [...ALL_BOOKS.flatMap((book) => [book.id, book.osis, book.name, book.nameEs, ...book.abbreviations]), ...EXTRA_LABELS];

// Sorted lookup keys of every book label (books.ts folds "1 Cor." to "1cor"), for prefix tests.
const KEYS: readonly string[] = [...new Set([...ORDINAL_WORDS, ...LABELS.map(normalizeBookName)])].sort();

// Words a book name can open with: "song" (Song of Songs), "1" (1 Cor), "san" (San Juan), or a
// whole label written without spaces ("1cor").
const FIRST_WORDS = new Set([
  ...KEYS,
  ...LABELS.map((label) => fold(label).split(/[\s.]+/)[0] ?? ""),
]);

function isKeyPrefix(folded: string): boolean {
  let lo = 0;
  let hi = KEYS.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((KEYS[mid] as string) < folded) lo = mid + 1;
    else hi = mid;
  }
  return lo < KEYS.length && (KEYS[lo] as string).startsWith(folded);
}

/**
 * Whether a reference could start with this word. A word still being streamed (`complete` false)
 * is judged by what it could become, so "Jo" is a candidate as "John" is, but a finished "Son" is
 * not. In prose a book name must be capitalised ("is 2" is not Isaiah 2); queries may be lowercase.
 */
export function isCandidateWord(word: string, requireCapital: boolean, complete = true): boolean {
  const first = word[0];
  if (first === undefined || word.length > MAX_REFERENCE_WORD) return false;
  if (requireCapital && first !== first.toUpperCase()) return false;
  return complete ? FIRST_WORDS.has(fold(word)) : isKeyPrefix(fold(word));
}

function couldStartUrl(word: string): boolean {
  const lower = word.toLowerCase();
  return URL_STARTS.some((start) => start.startsWith(lower));
}

export interface SegmentEnd {
  /** Exclusive end of the segment; meaningful only when complete. */
  end: number;
  /** False when more text could still move the end. */
  complete: boolean;
  /** A bare URL or an overlong word: copied verbatim, never parsed. */
  verbatim: boolean;
  /** The verbatim segment is one overlong word: it ends where the word does (a URL ends at a space). */
  word?: boolean;
}

/** Where the word at `from` ends, looking at most `limit` characters ahead. */
function wordEnd(text: string, from: number, limit = Infinity): number {
  const stop = Math.min(text.length, from + limit);
  let j = from;
  while (j < stop && isWordChar(text[j])) j++;
  return j;
}

function urlAt(text: string, from: number, final: boolean): "yes" | "no" | "unknown" {
  const initial = text.charCodeAt(from) | 0x20;
  if (initial !== 0x68 && initial !== 0x66 && initial !== 0x77) return "no"; // h, f, w
  const end = wordEnd(text, from, MAX_REFERENCE_WORD);
  const word = text.slice(from, end).toLowerCase();
  if (!URL_STARTS.includes(word)) return end === text.length && !final && couldStartUrl(word) ? "unknown" : "no";
  const marker = word === "www" ? "." : "://";
  const rest = text.slice(end, end + marker.length);
  if (rest === marker) return "yes";
  if (!final && marker.startsWith(rest) && end + rest.length === text.length) return "unknown";
  return "no";
}

function urlEnd(text: string, from: number, final: boolean): SegmentEnd {
  const match = /[\s<>"`]/.exec(text.slice(from));
  if (match !== null) return { end: from + match.index, complete: true, verbatim: true };
  return { end: text.length, complete: final, verbatim: true };
}

const CONNECTOR_PREFIXES = new Set([...CONNECTORS].flatMap((word) => [...word].map((_, n) => word.slice(0, n + 1))));

// A word whose leading letters are lowercase and not a connector can never be inside a reference.
// Judged on the leading letters alone, so a streamed "tod" is already known to be prose.
function plainWordAt(text: string, from: number, final: boolean): "yes" | "no" | "unknown" {
  let end = from;
  while (end < text.length && isLetter(text[end] as string)) end++;
  if (end === from) return "no";
  // An ASCII first letter is lowercase exactly when it is a-z: decided without the slice and the regex.
  const first = text.charCodeAt(from);
  if (first < 128 ? first < 97 || first > 122 : !/^\p{Ll}/u.test(text.slice(from, end))) return "no";
  const lead = text.slice(from, end);
  if (end === text.length && !final) return CONNECTOR_PREFIXES.has(lead) ? "unknown" : "yes";
  return CONNECTORS.has(lead) ? "no" : "yes";
}

// After ", " "; " or " and ", a book name starts a new reference: "John 3:16, Romans 8:28" is two
// segments, so a list of references is released one by one while it streams. So it does after "to"
// or "through": "from Ge 37 to Ge 50" names two chapters (the parser would read one range, which a
// range in words is not).
function listedAt(text: string, from: number, at: number): boolean {
  let k = at - 1;
  while (k >= from && /\s/.test(text[k] as string)) k--;
  if (k < from) return false;
  if (",;&".includes(text[k] as string)) return true;
  return /(?:^|[^\p{L}\p{M}\p{N}])(?:and|y|to|through|thru)$/u.test(text.slice(Math.max(from, k - 8), k + 1));
}

function bookAt(text: string, at: number, final: boolean): "yes" | "no" | "unknown" {
  const end = wordEnd(text, at, MAX_REFERENCE_WORD + 1);
  const word = text.slice(at, end);
  // "Gen 1:1, 2:7" continues; "Gen 1:1, 2 Kings 2:11" starts anew: a number opens a book only
  // when a capitalised word follows it.
  if (/^\d+$/.test(word)) {
    let next = end;
    while (next < text.length && /\s/.test(text[next] as string)) next++;
    if (next === text.length) return final ? "no" : "unknown";
    const ch = text[next] as string;
    return next > end && isLetter(ch) && ch !== ch.toLowerCase() && isCandidateWord(word, true) ? "yes" : "no";
  }
  if (end === text.length && !final) return isCandidateWord(word, true, false) ? "unknown" : "no";
  return isCandidateWord(word, true) ? "yes" : "no";
}

/**
 * Finds the end of the segment that starts at `from`: the start of the next plain word, stop
 * character, URL or listed book name. `startsMidWord` says that `from` continues a word begun before it
 * (streaming), which therefore starts nothing. Two cuts keep the work on any text linear: a word longer
 * than MAX_REFERENCE_WORD is a verbatim segment of its own, and a segment ends MAX_SEGMENT characters
 * after its first candidate word (measured from that word, so the cut falls in the same place however
 * the text was chunked).
 */
export function segmentEnd(text: string, from: number, final: boolean, startsMidWord = false): SegmentEnd {
  const incomplete: SegmentEnd = { end: text.length, complete: false, verbatim: false };
  let i = from;
  if (startsMidWord) i = wordEnd(text, from);
  else if (isStopCode(text.charCodeAt(from))) return { end: from + 1, complete: true, verbatim: false };
  else if (isWordChar(text[from])) {
    const url = urlAt(text, from, final);
    if (url === "yes") return urlEnd(text, from, final);
    if (url === "unknown") return incomplete;
  }
  let anchor: number | undefined;
  while (i < text.length) {
    if (i - from >= MAX_SEGMENT) {
      anchor ??= firstCandidate(text, from, i, true, false, startsMidWord);
      if (anchor < 0 || i - anchor >= MAX_SEGMENT) return { end: i, complete: true, verbatim: false };
    }
    const code = text.charCodeAt(i);
    if (i > from && isStopCode(code)) return { end: i, complete: true, verbatim: false };
    if (code < 128 ? !isAsciiWordCode(code) : !isWordChar(text[i])) {
      i++;
      continue;
    }
    if (i > from) {
      const url = urlAt(text, i, final);
      if (url === "yes") return { end: i, complete: true, verbatim: false };
      const plain = plainWordAt(text, i, final);
      if (plain === "yes") return { end: i, complete: true, verbatim: false };
      if (url === "unknown" || plain === "unknown") return incomplete;
      if (listedAt(text, from, i)) {
        const book = bookAt(text, i, final);
        if (book === "yes") return { end: i, complete: true, verbatim: false };
        if (book === "unknown") return incomplete;
      }
    }
    // Looked at once: a word that stops within the limit ends where the unlimited look would end it.
    const j = wordEnd(text, i, MAX_REFERENCE_WORD + 1);
    if (j - i > MAX_REFERENCE_WORD) {
      if (i > from) return { end: i, complete: true, verbatim: false };
      const end = wordEnd(text, i);
      return { end, complete: end < text.length || final, verbatim: true, word: true };
    }
    // "1. John 3:16" in a numbered list is not 1 John: a number closed by a full stop ends a segment.
    if (text[j] === "." && allDigits(text, i, j)) {
      const next = text[j + 1];
      if (next === undefined && !final) return incomplete;
      if (next === undefined || /\s/.test(next)) return { end: j + 1, complete: true, verbatim: false };
    }
    i = j;
  }
  return final ? { end: text.length, complete: true, verbatim: false } : incomplete;
}

/**
 * The first word in text[from, to) where a reference could start, or -1. With `open` the last word
 * may still grow, so it is judged by what it could become (a candidate or a URL scheme).
 */
export function firstCandidate(text: string, from: number, to: number, requireCapital: boolean, open: boolean, startsMidWord = false): number {
  let i = startsMidWord ? wordEnd(text, from) : from;
  while (i < to) {
    if (!isWordChar(text[i])) {
      i++;
      continue;
    }
    const j = Math.min(wordEnd(text, i), to);
    const growing = open && j === text.length;
    if (isCandidateWord(text.slice(i, j), requireCapital, !growing)) return i;
    // "https:" may still become a URL, which would turn what follows verbatim.
    if (open && urlAt(text, i, false) === "unknown") return i;
    i = j;
  }
  return -1;
}

/**
 * Whether a passage query (references and filler alone) could open with this text's first word: a word
 * with a digit first ("1 Cor", "1Co"), an ordinal ("First", "Cuarta"), or one that begins a book label
 * with its spaces and dots taken out, as books.ts folds the name it is found by ("Cantar" of "Cantar de
 * los Cantares", "deute" of "Deute ronomy"). A reference the parser accepts opens with such a word, so
 * a query whose first word (its letters, "Gen" of "Gen3:16") is none of these ("What does John 3:16 mean?") is no passage query, and the
 * parser is not asked. The Letter of Jeremiah, accepted by any name holding "jerem", is always asked.
 */
export function mayOpenPassageQuery(text: string): boolean {
  let i = 0;
  while (i < text.length && !isWordChar(text[i])) i++;
  if (i === text.length || !isLetter(text[i] as string)) return true;
  // Its letters only: a number may follow the name unspaced ("Gen3:16").
  let end = i;
  while (end < text.length && isLetter(text[end] as string)) end++;
  const word = fold(text.slice(i, end));
  return isKeyPrefix(word) || isOrdinalWord(word) || /jerem/i.test(text);
}

/** Whether text[from, to) holds a digit after a letter: the least any reference needs. */
export function mayHoldReference(text: string, from: number, to: number): boolean {
  let sawLetter = false;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      if (sawLetter) return true;
    } else if (!sawLetter && /\p{L}/u.test(text[i] as string)) sawLetter = true;
  }
  return false;
}
