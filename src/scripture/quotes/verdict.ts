/**
 * The decision for one quotation attributed to one existing passage: it stands, it is replaced by
 * the passage's exact words, it loses its quotation marks, or it was not a quotation of scripture.
 */
import { aimAt, faithfulSpan, isFaithful } from "./align.js";
import { tokenize, type Folding } from "./normalize.js";
import type { Passage } from "./passage.js";

export type Verdict =
  | { kind: "verified" }
  | { kind: "corrected"; text: string }
  /** Presented as scripture, but the translation has no words to show for it. */
  | { kind: "unquoted" }
  /** Not a quotation of the passage (a term, a title, a short phrase): left alone. */
  | { kind: "ignored" };

/** Fewer words than this are checked but never replaced: "agape", "born again" are terms, not quotations. */
export const MIN_QUOTE_WORDS = 3;

/** A whole cited range longer than this is never pasted in as a replacement. */
export const MAX_FALLBACK_WORDS = 150;

// An ellipsis or an editorial insertion ("[God]") separates fragments quoted from the same passage.
const GAP = /\.\s?\.\s?\.|…|\[[^\]]*\]/u;

/** How the quotation is tied to its reference: tightly (a parenthesis, "John 3:16 says:") or only by sharing a sentence. */
export type Tie = "tight" | "loose";

const DOUBLE_OUTER = new Set(['"', "“", "”", "„"]);
const PAIRS: Record<string, string> = { "“": "”", "‘": "’", "«": "»" };
const CLOSERS = new Set(Object.values(PAIRS));

// A closing single mark between letters is an apostrophe ("didn’t"), not a quotation mark.
function isApostrophe(text: string, at: number): boolean {
  return text[at] === "’" && /\p{L}/u.test(text[at - 1] ?? "") && /\p{L}/u.test(text[at + 1] ?? "");
}

/** Drops the passage's own quotation marks whose partner lies outside the quoted span. */
function balance(text: string): string {
  const open: number[] = [];
  const drop = new Set<number>();
  for (let at = 0; at < text.length; at++) {
    const ch = text[at] as string;
    if (PAIRS[ch] !== undefined) open.push(at);
    else if (CLOSERS.has(ch) && !isApostrophe(text, at)) {
      const last = open[open.length - 1];
      if (last !== undefined && PAIRS[text[last] as string] === ch) open.pop();
      else drop.add(at);
    }
  }
  for (const at of open) drop.add(at);
  return text.split("").filter((_, at) => !drop.has(at)).join("");
}

// Inside double quotation marks the passage's own double marks become single ones.
function nest(text: string, outer: string | undefined): string {
  const balanced = balance(text).replace(/\s{2,}/g, " ").trim();
  if (outer === undefined || !DOUBLE_OUTER.has(outer)) return balanced;
  return balanced.replace(/“/g, "‘").replace(/”/g, "’");
}

function spanText(passage: Passage, start: number, end: number, original: string): string {
  const first = passage.tokens[start];
  const last = passage.tokens[end - 1];
  if (first === undefined || last === undefined) return "";
  let text = passage.text.slice(first.start, last.end);
  const after = /^[’”']*[.!?]/.exec(passage.text.slice(last.end));
  const ending = /[.!?,;:]$/.exec(original.trimEnd().replace(/["”»’']+$/, ""));
  if (after !== null && ending !== null) text += after[0];
  else if (ending !== null) text += ending[0];
  return text;
}

// Function words of English and Spanish: a title's capitals skip them ("Sermon on the Mount").
const FUNCTION_WORDS = new Set(("a an and as at by for from in into of on or the to with " +
  "a al con de del el en la las los o para por que un una y").split(" "));

/** "Sermon on the Mount", "The Parable of the Good Samaritan": every other word capitalised, a title. */
function isTitle(text: string): boolean {
  const words = text.match(/[\p{L}’']+/gu) ?? [];
  const content = words.filter((word) => !FUNCTION_WORDS.has(word.toLowerCase()));
  return words.length <= 8 && content.length >= 2 && content.every((word) => /^\p{Lu}/u.test(word));
}

const fragmentsOf = (original: string, folding: Folding) => original.split(GAP).map((part) => tokenize(part, folding).map((token) => token.key));

/**
 * Whether the words can be presented as a verse's words at all: three words or more and not a title.
 * A single word, a term ("born again") or a title ("Immortality", "Sermon on the Mount") never is, so
 * the check never changes it, whatever reference stands near it.
 */
export function presentedAsVerse(original: string, folding: Folding): boolean {
  return fragmentsOf(original, folding).flat().length >= MIN_QUOTE_WORDS && !isTitle(original);
}

/**
 * The verses of `chapter` (a whole chapter's passage) whose words the quotation is, faithfully, or null:
 * the source of a right quotation under a wrong verse number.
 */
export function faithfulSource(original: string, chapter: Passage, folding: Folding): { verseStart: number; verseEnd: number } | null {
  const span = faithfulSpan(chapter.keys, fragmentsOf(original, folding));
  if (span === null || span[1] <= span[0]) return null;
  const first = chapter.numbers[chapter.unit[span[0]] as number];
  const last = chapter.numbers[chapter.unit[span[1] - 1] as number];
  return first === undefined || last === undefined ? null : { verseStart: first, verseEnd: last };
}

export function judge(original: string, passage: Passage, tie: Tie, folding: Folding, outer?: string): Verdict {
  const fragments = fragmentsOf(original, folding);
  const words = fragments.flat();
  if (words.length === 0) return { kind: "ignored" };
  if (passage.keys.length > 0 && isFaithful(passage.keys, fragments)) return { kind: "verified" };
  if (!presentedAsVerse(original, folding)) return { kind: "ignored" };
  if (passage.keys.length === 0) return tie === "tight" ? { kind: "unquoted" } : { kind: "ignored" };
  const aim = aimAt(passage.keys, words, passage.unit);
  if (aim !== null) return { kind: "corrected", text: nest(spanText(passage, aim.start, aim.end, original), outer) };
  if (tie === "loose") return { kind: "ignored" };
  if (passage.wholeChapter || passage.keys.length > MAX_FALLBACK_WORDS) return { kind: "unquoted" };
  return { kind: "corrected", text: nest(spanText(passage, 0, passage.keys.length, original), outer) };
}
