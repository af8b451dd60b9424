/**
 * The quotation check over an answer, whole or streamed. As for links there is one implementation:
 * checkQuotes(text) is a stream fed everything at once. Each step decides only on text it can see
 * (plus the output already sent, for the reference before a quotation) and waits while a later
 * character could change the decision, so the output cannot depend on how the text was chunked.
 * What it waits for is bounded: a quotation's closing mark (QUOTE_LIMIT characters), the
 * parenthesis after it, the rest of its sentence (AFTER_LIMIT), a block quote (BLOCK_LIMIT).
 */
import type { Bible } from "../corpus.js";
import type { ScriptureRef } from "../references.js";
import { lastSentenceStart, referencesIn, tieOf, type Attribution } from "./attribution.js";
import { foldingFor, type Folding } from "./normalize.js";
import { loadPassage } from "./passage.js";
import { judge, type Tie, type Verdict } from "./verdict.js";
import { type FenceMode, runLength, stepCode, stepFence, type TextMode, verbatim } from "../markdown-spans.js";

export type QuoteStatus = "verified" | "corrected" | "unquoted";

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
}

export const QUOTE_LIMIT = 600;
export const PAREN_LIMIT = 120;
export const AFTER_LIMIT = 200;
export const BLOCK_LIMIT = 1500;
const CONTEXT_LIMIT = 400;

type Mode =
  | TextMode
  | { kind: "code"; ticks: number }
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
}

function nearestBefore(context: string): Found | undefined {
  const sentence = context.slice(lastSentenceStart(context));
  const found = referencesIn(sentence);
  const last = found[found.length - 1];
  return last === undefined ? undefined : { attribution: last, tie: tieOf(sentence.slice(last.end)) };
}

class Checker {
  readonly quotes: QuoteOutcome[] = [];
  private readonly folding: Folding;

  constructor(private readonly bible: Bible) {
    this.folding = foldingFor(bible.id);
  }

  verdict(found: Found, words: string, outer: string | undefined): Verdict | null {
    const ref = found.attribution.ref;
    if (ref === null) return null;
    return judge(words, loadPassage(this.bible, ref, this.folding), found.tie, this.folding, outer);
  }

  /** The text to send for a quotation (marks included) and its outcome, or null to leave it alone. */
  resolve(found: Found | undefined, words: string, open: string, close: string): { out: string; outcome: QuoteOutcome } | null {
    if (found === undefined) return null;
    const base = { ref: found.attribution.ref, reference: found.attribution.text, original: words };
    const verdict = this.verdict(found, words, open || undefined);
    if (verdict === null || verdict.kind === "unquoted") {
      return { out: words, outcome: { ...base, status: "unquoted", quoted: words } };
    }
    if (verdict.kind === "ignored") return null;
    if (verdict.kind === "verified") return { out: open + words + close, outcome: { ...base, status: "verified", quoted: words } };
    return { out: open + verdict.text + close, outcome: { ...base, status: "corrected", quoted: verdict.text } };
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
  const lead = (/^[,.;:!?]?[ \t]*/.exec(rest) as RegExpExecArray)[0].length;
  if (lead === rest.length && !final) return null;
  if (rest[lead] === "(") {
    const tail = rest.slice(lead + 1, lead + 1 + PAREN_LIMIT);
    const closeAt = tail.search(/[)\n]/);
    if (closeAt < 0 && !final && rest.length - lead - 1 < PAREN_LIMIT) return null;
    if (closeAt >= 0 && tail[closeAt] === ")") {
      const first = referencesIn(tail.slice(0, closeAt))[0];
      if (first !== undefined) found = { attribution: first, tie: "tight" };
    }
  }
  found ??= nearestBefore(context);
  if (found === undefined) {
    const stop = sentenceEnd(rest, final);
    if (stop === null) return null;
    const sentence = rest.slice(0, stop);
    const first = referencesIn(sentence)[0];
    if (first !== undefined) found = { attribution: first, tie: tieOf(sentence.slice(0, first.start)) };
  }
  const resolved = checker.resolve(found, words, open, close);
  if (resolved === null) return verbatim(end + 1, text);
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
  const resolved = checker.resolve(found, words, open, close);
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
  const checker = new Checker(options.bible);
  let pending = "";
  let context = "";
  let mode: Mode = TEXT;
  let blockLines = false;

  function step(final: boolean): Step | null {
    switch (mode.kind) {
      case "code": return stepCode(pending, mode.ticks, final);
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
