/**
 * The quotation check over an answer, whole or streamed. As for links there is one implementation:
 * checkQuotes(text) is a stream fed everything at once. Each step decides only on text it can see
 * (plus the output already sent, for the reference before a quotation) and waits while a later
 * character could change the decision, so the output cannot depend on how the text was chunked.
 * What it waits for is bounded: a quotation's closing mark (QUOTE_LIMIT characters), the
 * parenthesis after it, the rest of its sentence (AFTER_LIMIT), a block quote (BLOCK_LIMIT).
 */
import type { Bible } from "../corpus.js";
import { formatReference, type ScriptureRef } from "../references.js";
import { denies, lastSentenceStart, referencesIn, tieOf, type Attribution } from "./attribution.js";
import { foldingFor, type Folding } from "./normalize.js";
import { loadPassage } from "./passage.js";
import { firstNamedTranslation, lastNamedTranslation, type NamedTranslation } from "./translation-names.js";
import { faithfulSource, judge, presentedAsVerse, type Tie, type Verdict } from "./verdict.js";
import { type FenceMode, longMarkerRun, type MarkerRunMode, runLength, stepCode, stepFence, stepMarkerRun, type TextMode, verbatim } from "../markdown-spans.js";

/** "unverified": given in a translation we do not ship ("the NIV has ..."), left as written. */
export type QuoteStatus = "verified" | "corrected" | "unquoted" | "unverified";

/** One quotation presented as scripture, and what the check did with it. */
export interface QuoteOutcome {
  /** The passage it was attributed to; null when the reference names no existing passage. */
  ref: ScriptureRef | null;
  /** The reference as written in the answer. */
  reference: string;
  status: QuoteStatus;
  /** The words as the answer now shows them (between the marks, or left plain when unquoted). */
  quoted: string;
  /** The words as the model wrote them. */
  original: string;
  /** The translation the quotation was checked against (or, unverified, named in): when the answer names one. */
  translation?: NamedTranslation;
  /**
   * Set when the words were faithful to another verse than the one cited (John 3:16's words under John
   * 3:17): the reference as the answer gave it. The words stand; `ref`/`reference` name their source.
   */
  citedAs?: string;
}

export interface QuoteStream {
  /** Takes the next piece of the answer; returns the checked text that is now settled. */
  push(chunk: string): string;
  /** Ends the answer; returns everything still held back. */
  flush(): string;
  /** Characters received but not yet returned. */
  readonly held: number;
  /** The quotations found so far, in order. */
  readonly quotes: readonly QuoteOutcome[];
}

export interface QuoteCheckOptions {
  /** The translation the caller asked for: quotations are checked against its text. */
  bible: Bible;
  /** The shipped translations: a quotation the answer gives in one of them by name is checked against it. */
  bibles?: { get(id: string): Bible | undefined };
}

export const QUOTE_LIMIT = 600;
export const PAREN_LIMIT = 120;
export const AFTER_LIMIT = 200;
export const BLOCK_LIMIT = 1500;
const CONTEXT_LIMIT = 400;

type Mode =
  | TextMode
  | { kind: "code"; ticks: number }
  | MarkerRunMode
  | FenceMode;

interface Step {
  consumed: number;
  out: string;
  mode?: Mode;
  outcome?: QuoteOutcome;
  /**
   * Entering (true) or leaving (false) a block quote that is checked line by line as prose (too long
   * to hold, or quoting inside it): each line's "> " goes out as it is.
   */
  blockLines?: boolean;
}

const TEXT: Mode = { kind: "text" };
const CLOSE: Record<string, string> = { "“": "”", "«": "»", '"': '"' };
const OPENS_AFTER = /[\s([{\-—–/*_>]/u;
const BLOCK_PREFIX = /^ {0,3}> ?/;

/** Where the sentence that starts at text[0] ends, or null while more text could move it. */
function sentenceEnd(text: string, final: boolean): number | null {
  const window = text.slice(0, AFTER_LIMIT);
  const boundary = /[.!?]["'”’»)*_]*\s+(?=[\p{Lu}"“«¿¡*_(])|\n/u.exec(window);
  if (boundary !== null) return boundary.index;
  return final || text.length >= AFTER_LIMIT ? window.length : null;
}

interface Found {
  attribution: Attribution;
  tie: Tie;
  /** The sentence denies the passage says it: not a quotation. */
  denied?: boolean;
  /** A translation named before the quotation in its sentence, or in the parenthesis after it. */
  named?: NamedTranslation;
  /** Where the reference is in the pending text (it follows the quotation), so it can still be rewritten. */
  at?: number;
}

function nearestBefore(context: string): Found | undefined {
  const sentence = context.slice(lastSentenceStart(context));
  const found = referencesIn(sentence);
  const last = found[found.length - 1];
  if (last === undefined) return undefined;
  const between = sentence.slice(last.end);
  return { attribution: last, tie: tieOf(between), denied: denies(between), named: lastNamedTranslation(sentence) };
}

/** "John 3:17" -> "John 3:16", keeping the book as the answer wrote it ("Jn 3:17" -> "Jn 3:16"). */
function renumbered(written: string, ref: ScriptureRef, lang: "en" | "es"): string {
  const verses = ref.verseEnd !== undefined && ref.verseEnd !== ref.verseStart ? `${ref.verseStart}-${ref.verseEnd}` : `${ref.verseStart}`;
  const match = /^(.*\D)(\d+):\d+(?:\s*[-–—‑]\s*\d+)?[a-z]{0,2}$/u.exec(written);
  return match !== null && Number(match[2]) === ref.chapter ? `${match[1]}${match[2]}:${verses}` : formatReference(ref, lang);
}

interface Resolved {
  out: string;
  outcome: QuoteOutcome;
  /** The reference's new text, when the words are another verse's: it replaces the reference as written. */
  reference?: string;
}

class Checker {
  readonly quotes: QuoteOutcome[] = [];
  private readonly lang: "en" | "es";

  constructor(private readonly options: QuoteCheckOptions) {
    this.lang = options.bible.id.startsWith("spa") ? "es" : "en";
  }

  /** The text to send for a quotation (marks included) and its outcome, or null to leave it alone. */
  resolve(found: Found | undefined, words: string, open: string, close: string, canMove = true): Resolved | null {
    if (found === undefined || found.denied) return null;
    const ref = found.attribution.ref;
    const named = found.named;
    const base = { ref, reference: found.attribution.text, original: words, ...(named ? { translation: named } : {}) };
    const own = this.options.bible;
    const bible = named === undefined ? own : named.id === undefined ? undefined : named.id === own.id ? own : this.options.bibles?.get(named.id);
    const folding = foldingFor(bible?.id ?? own.id);
    // Only words presented as a verse's words are ever changed: never a title or a term ("Immortality").
    const presented = presentedAsVerse(words, folding);
    if (ref === null) {
      if (!presented || found.tie === "loose") return null;
      return { out: words, outcome: { ...base, status: "unquoted", quoted: words } };
    }
    if (named !== undefined && bible === undefined) {
      // A translation we do not ship ("the NIV has ..."): left as written, and said to be unchecked.
      return presented ? { out: open + words + close, outcome: { ...base, status: "unverified", quoted: words } } : null;
    }
    const checkBible = bible ?? own;
    const verdict: Verdict = judge(words, loadPassage(checkBible, ref, folding), found.tie, folding, open || undefined);
    if (verdict.kind === "ignored") return null;
    if (verdict.kind === "verified") return { out: open + words + close, outcome: { ...base, status: "verified", quoted: words } };
    // The right words under the wrong verse: the reference is what is wrong.
    const moved = canMove && presented && ref.verseStart !== undefined && ref.chapterEnd === undefined ? this.source(words, ref, checkBible, folding) : null;
    if (moved !== null) {
      const reference = found.at !== undefined ? renumbered(found.attribution.text, moved, this.lang) : formatReference(moved, this.lang);
      const outcome: QuoteOutcome = { ...base, ref: moved, reference, status: "corrected", quoted: words, citedAs: found.attribution.text };
      // A reference already sent (before the quotation) cannot change: the source follows the quotation.
      return found.at !== undefined ? { out: open + words + close, outcome, reference } : { out: `${open}${words}${close} (${reference})`, outcome };
    }
    if (verdict.kind === "unquoted") return { out: words, outcome: { ...base, status: "unquoted", quoted: words } };
    return { out: open + verdict.text + close, outcome: { ...base, status: "corrected", quoted: verdict.text } };
  }

  /** The verses of the cited chapter the words faithfully are, when they are not the cited ones. */
  private source(words: string, ref: ScriptureRef, bible: Bible, folding: Folding): ScriptureRef | null {
    const found = faithfulSource(words, loadPassage(bible, { book: ref.book, chapter: ref.chapter }, folding), folding);
    if (found === null) return null;
    const moved: ScriptureRef = { book: ref.book, chapter: ref.chapter, verseStart: found.verseStart };
    if (found.verseEnd !== found.verseStart) moved.verseEnd = found.verseEnd;
    return moved;
  }
}

// An inline quotation at text[0]: its closing mark, then the reference it is attributed to.
function stepQuote(text: string, final: boolean, context: string, checker: Checker): Step | null {
  const open = text[0] as string;
  const close = CLOSE[open] as string;
  let end = -1;
  for (let i = 1; i < text.length && i <= QUOTE_LIMIT; i++) {
    const ch = text[i];
    if (ch === close) {
      end = i;
      break;
    }
    if (ch === "`") return verbatim(1, text);
    if (ch === "\n") {
      if (i + 1 === text.length && !final) return null;
      if (text[i + 1] === "\n") return verbatim(1, text);
    }
  }
  if (end < 0) return final || text.length > QUOTE_LIMIT ? verbatim(1, text) : null;
  const words = text.slice(1, end);
  const rest = text.slice(end + 1);
  let found: Found | undefined;
  let parenNamed: NamedTranslation | undefined;
  const before = context.slice(lastSentenceStart(context));
  const lead = (/^[,.;:!?]?[ \t]*/.exec(rest) as RegExpExecArray)[0].length;
  if (lead === rest.length && !final) return null;
  if (rest[lead] === "(") {
    const tail = rest.slice(lead + 1, lead + 1 + PAREN_LIMIT);
    const closeAt = tail.search(/[)\n]/);
    if (closeAt < 0 && !final && rest.length - lead - 1 < PAREN_LIMIT) return null;
    if (closeAt >= 0 && tail[closeAt] === ")") {
      const inside = tail.slice(0, closeAt);
      parenNamed = firstNamedTranslation(inside);
      const first = referencesIn(inside)[0];
      if (first !== undefined) {
        found = { attribution: first, tie: "tight", at: end + 1 + lead + 1 + first.start, denied: denies(before), named: lastNamedTranslation(before) };
      }
    }
  }
  found ??= nearestBefore(context);
  if (found === undefined) {
    const stop = sentenceEnd(rest, final);
    if (stop === null) return null;
    const sentence = rest.slice(0, stop);
    const first = referencesIn(sentence)[0];
    if (first !== undefined) {
      const between = sentence.slice(0, first.start);
      found = {
        attribution: first, tie: tieOf(between), at: end + 1 + first.start, denied: denies(before) || denies(between),
        named: lastNamedTranslation(before) ?? firstNamedTranslation(between),
      };
    }
  }
  if (found !== undefined && parenNamed !== undefined) found.named = parenNamed;
  const resolved = checker.resolve(found, words, open, close);
  if (resolved === null) return verbatim(end + 1, text);
  if (resolved.reference !== undefined && found?.at !== undefined) {
    // The words stand; the reference after them is rewritten to the verse they come from.
    const refEnd = found.at + (found.attribution.end - found.attribution.start);
    return { consumed: refEnd, out: resolved.out + text.slice(end + 1, found.at) + resolved.reference, outcome: resolved.outcome };
  }
  return { consumed: end + 1, out: resolved.out, outcome: resolved.outcome };
}

interface Block {
  /** The block's lines, each with its newline (the last may lack one at the end of the answer). */
  lines: string[];
  length: number;
}

/** The block quote at text[0], or null while it may still grow; "long" when it exceeds BLOCK_LIMIT. */
function readBlock(text: string, final: boolean): Block | "long" | null {
  const lines: string[] = [];
  let at = 0;
  for (;;) {
    if (at > BLOCK_LIMIT) return "long";
    const newline = text.indexOf("\n", at);
    if (newline < 0) {
      if (!final) return text.length > BLOCK_LIMIT ? "long" : null;
      lines.push(text.slice(at));
      return { lines, length: text.length };
    }
    lines.push(text.slice(at, newline + 1));
    at = newline + 1;
    const next = text.slice(at);
    if (/^ {0,3}>/.test(next)) continue;
    if (!final && /^ {0,3}$/.test(next)) return text.length > BLOCK_LIMIT ? "long" : null;
    return at > BLOCK_LIMIT ? "long" : { lines, length: at };
  }
}

const ATTRIBUTION_LINE = /^\s*(?:[—–―~-]{1,2}\s*|\()/u;
const ATTRIBUTION_SUFFIX = /\s*(?:\(([^()]*)\)|[—–―]\s*([^—–―]*?))\s*\.?\s*$/u;
const WRAPPED = /^\s*([“"«])([^]*)([”"»])\s*$/u;
const INLINE_QUOTE = /[“«]|(?:^|[\s(])"\S/u;

function asLines(text: string): Step {
  const prefix = (BLOCK_PREFIX.exec(text) as RegExpExecArray)[0];
  return { consumed: prefix.length, out: prefix, blockLines: true };
}

function stepBlock(text: string, final: boolean, context: string, checker: Checker): Step | null {
  const block = readBlock(text, final);
  if (block === null) return null;
  if (block === "long") return asLines(text);
  const lines = block.lines.map((line) => {
    const prefix = (BLOCK_PREFIX.exec(line) as RegExpExecArray)[0];
    return { prefix, body: line.slice(prefix.length).replace(/\n$/, ""), newline: line.endsWith("\n") };
  });
  while (lines.length > 1 && (lines[lines.length - 1] as (typeof lines)[number]).body.trim() === "") lines.pop();
  const keep = block.lines.slice(0, block.lines.length).join("");
  let content = lines;
  let found: Found | undefined;
  let attributionLine = "";
  let suffix = "";
  const last = content[content.length - 1] as (typeof lines)[number];
  if (content.length > 1 && ATTRIBUTION_LINE.test(last.body)) {
    const first = referencesIn(last.body)[0];
    if (first !== undefined) {
      found = { attribution: first, tie: "tight" };
      attributionLine = block.lines[content.length - 1] as string;
      content = content.slice(0, -1);
    }
  }
  if (found === undefined) {
    const tail = ATTRIBUTION_SUFFIX.exec(last.body);
    const inside = tail?.[1] ?? tail?.[2];
    const first = inside === undefined ? undefined : referencesIn(inside)[0];
    if (tail !== null && first !== undefined) {
      found = { attribution: first, tie: "tight" };
      suffix = tail[0];
      content = [...content.slice(0, -1), { ...last, body: last.body.slice(0, tail.index) }];
    }
  }
  const joined = content.map((line) => line.body.trim()).filter(Boolean).join(" ");
  const wrapped = WRAPPED.exec(joined);
  const words = wrapped === null ? joined : (wrapped[2] as string);
  if (INLINE_QUOTE.test(words) || words.trim() === "") return asLines(text);
  if (found === undefined) {
    const after = text.slice(block.length);
    if (ATTRIBUTION_LINE.test(after)) {
      const newline = after.indexOf("\n");
      if (newline < 0 && !final && after.length < PAREN_LIMIT) return null;
      const line = after.slice(0, newline < 0 ? PAREN_LIMIT : Math.min(newline, PAREN_LIMIT));
      const first = referencesIn(line)[0];
      if (first !== undefined) found = { attribution: first, tie: "tight" };
    }
  }
  if (found === undefined) {
    const paragraph = context.replace(/\s+$/, "");
    const line = paragraph.slice(paragraph.lastIndexOf("\n") + 1);
    if (!BLOCK_PREFIX.test(line)) found = nearestBefore(line);
  }
  const open = wrapped?.[1] ?? "";
  const close = wrapped?.[3] ?? "";
  // A block quote's reference stands on its own line: its words are judged against the cited verse.
  const resolved = checker.resolve(found, words, open, close, false);
  if (resolved === null) return verbatim(block.length, text);
  const first = content[0] as (typeof lines)[number];
  let out: string;
  if (resolved.outcome.status === "unquoted") {
    out = block.lines.map((line) => line.replace(BLOCK_PREFIX, "")).join("");
  } else if (resolved.outcome.status === "verified") {
    out = keep;
  } else {
    const ending = attributionLine !== "" || block.lines[block.lines.length - 1]?.endsWith("\n") ? "\n" : "";
    out = `${first.prefix}${resolved.out}${suffix}${attributionLine !== "" ? `\n${attributionLine}` : ending}`;
  }
  return { consumed: block.length, out, outcome: resolved.outcome };
}

function isOpening(text: string, at: number, before: string | undefined, final: boolean): boolean | null {
  const ch = text[at] as string;
  if (ch === "“" || ch === "«") return true;
  if (ch !== '"') return false;
  const next = text[at + 1];
  if (next === undefined) return final ? false : null;
  return (before === undefined || OPENS_AFTER.test(before)) && !/\s/.test(next);
}

function stepText(text: string, final: boolean, context: string, checker: Checker, blockLines: boolean): Step | null {
  const atLineStart = context === "" || context.endsWith("\n");
  if (atLineStart && blockLines) {
    const prefix = /^ {0,3}>/.test(text) ? (BLOCK_PREFIX.exec(text) as RegExpExecArray)[0] : null;
    if (prefix !== null && (prefix.length < text.length || final)) return { consumed: prefix.length, out: prefix };
    if (!final && /^ {0,3}>?$/.test(text)) return null;
    return { consumed: 0, out: "", blockLines: false };
  }
  const run = longMarkerRun(text, atLineStart);
  if (run >= 0) return verbatim(run, text, { kind: "run", ch: text[run] as string });
  if (atLineStart) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(text);
    if (fence !== null && (fence[0].length < text.length || final)) {
      return { consumed: 0, out: "", mode: { kind: "fence", marker: fence[1] as string, line: "", opening: true } };
    }
    if (!final && /^ {0,3}[`~]*$/.test(text)) return null;
    if (/^ {0,3}>/.test(text)) return stepBlock(text, final, context, checker);
  }
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "\n" || ch === "`") {
      if (i > 0) return verbatim(i, text);
      if (ch === "\n") return verbatim(1, text);
      const ticks = runLength(text, 0, "`");
      if (ticks === text.length && !final) return null;
      return verbatim(ticks, text, { kind: "code", ticks });
    }
    const opening = isOpening(text, i, i > 0 ? text[i - 1] : context[context.length - 1], final);
    if (opening === null) return i > 0 ? verbatim(i, text) : null;
    if (opening) return i > 0 ? verbatim(i, text) : stepQuote(text, final, context, checker);
  }
  return verbatim(text.length, text);
}

export function createQuoteStream(options: QuoteCheckOptions): QuoteStream {
  const checker = new Checker(options);
  let pending = "";
  let context = "";
  let mode: Mode = TEXT;
  let blockLines = false;

  function step(final: boolean): Step | null {
    switch (mode.kind) {
      case "code": return stepCode(pending, mode.ticks, final);
      case "run": return stepMarkerRun(pending, mode.ch);
      case "fence": return stepFence(pending, mode);
      case "text": return stepText(pending, final, context, checker, blockLines);
    }
  }

  function drain(final: boolean): string {
    let out = "";
    while (pending.length > 0) {
      const next = step(final);
      if (next === null) break;
      if (next.mode !== undefined) mode = next.mode;
      if (next.blockLines !== undefined) blockLines = next.blockLines;
      if (next.outcome !== undefined) checker.quotes.push(next.outcome);
      if (next.consumed > 0) {
        out += next.out;
        context = (context + next.out).slice(-CONTEXT_LIMIT);
        pending = pending.slice(next.consumed);
      } else if (next.mode === undefined && next.blockLines === undefined) {
        break;
      }
    }
    return out;
  }

  return {
    push(chunk) {
      pending += chunk;
      return drain(false);
    },
    flush() {
      const out = drain(true);
      pending = "";
      mode = TEXT;
      blockLines = false;
      return out;
    },
    get held() {
      return pending.length;
    },
    get quotes() {
      return checker.quotes;
    },
  };
}

/** The answer with every quotation presented as scripture checked against options.bible. */
export function checkQuotes(text: string, options: QuoteCheckOptions): { text: string; quotes: QuoteOutcome[] } {
  const stream = createQuoteStream(options);
  const out = stream.push(text) + stream.flush();
  return { text: out, quotes: [...stream.quotes] };
}
