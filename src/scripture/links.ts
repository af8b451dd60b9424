/**
 * Rewrites scripture references in an answer as markdown links to the reader, whole or streamed.
 * There is one implementation: convertLinks is a stream fed everything at once. Each step below
 * decides only on text it can see, waiting when a later character could change the decision, so
 * the output cannot depend on how the text was chunked.
 */
import { findReferences, parseBudget, type ParseBudget, readerPath, referencesInSegment, type ScriptureRef } from "./references.js";
import { firstCandidate, isWordChar, segmentEnd } from "./reference-segments.js";
import { type FenceMode, longMarkerRun, type MarkerRunMode, runLength, stepCode, stepFence, stepMarkerRun, type TextMode, verbatim } from "./markdown-spans.js";
import { DEFAULT_TRANSLATION_ID } from "./translations.js";

/** Where reader links point. The one place reader URLs are built: answers, citations, search results. */
export interface LinkOptions {
  /** The translation the link opens; the default translation adds nothing to the URL. */
  bibleId?: string | undefined;
  /** PUBLIC_BASE_URL: "https://bible.example.org" makes links absolute; unset keeps them root-relative. */
  baseUrl?: string | undefined;
}

/**
 * "/read/JHN/3?verse=16", "/read/JHN/3?verse=16&bible_id=eng-kjv",
 * "https://bible.example.org/read/PSA/23" (with baseUrl).
 */
export function readerUrl(ref: ScriptureRef, options: LinkOptions = {}): string {
  let url = readerPath(ref);
  if (options.bibleId !== undefined && options.bibleId !== DEFAULT_TRANSLATION_ID) {
    url += `${url.includes("?") ? "&" : "?"}bible_id=${encodeURIComponent(options.bibleId)}`;
  }
  return options.baseUrl ? `${options.baseUrl.replace(/\/+$/, "")}${url}` : url;
}

export interface LinkStream {
  /** Takes the next piece of the answer; returns the converted text that is now settled. */
  push(chunk: string): string;
  /** Ends the answer; returns everything still held back. */
  flush(): string;
  /** Characters received but not yet returned. */
  readonly held: number;
  /** The passages linked so far, in order of appearance (one entry per link). */
  readonly linked: readonly ScriptureRef[];
}

type Mode =
  | TextMode
  | { kind: "code"; ticks: number }
  | FenceMode
  | { kind: "url" }
  | { kind: "word" }
  | MarkerRunMode
  | { kind: "destination"; depth: number };

interface Step {
  consumed: number;
  out: string;
  mode?: Mode;
}

const TEXT: Mode = { kind: "text" };
const LINK_TEXT_LIMIT = 200;

function convertSegment(text: string, end: number, startsMidWord: boolean, options: LinkOptions, linked: ScriptureRef[], budget: ParseBudget): string {
  let out = "";
  let cursor = 0;
  for (const found of referencesInSegment(text, 0, end, startsMidWord, budget)) {
    linked.push(found.ref);
    out += `${text.slice(cursor, found.start)}[${found.text}](${readerUrl(found.ref, options)})`;
    cursor = found.end;
  }
  return out + text.slice(cursor, end);
}

// The "(...)" of a markdown link, copied up to its closing parenthesis or the end of the line. A "["
// inside goes back to text, where its own link is checked: if the outer link does not hold, a renderer
// reads the inner one.
function stepDestination(text: string, depth: number): Step {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\n" || text[i] === "[") return verbatim(i, text, TEXT);
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return verbatim(i + 1, text, TEXT);
  }
  return verbatim(text.length, text, { kind: "destination", depth });
}

// The rest of an overlong word (reference-segments.ts MAX_REFERENCE_WORD), copied as it streams.
function stepWord(text: string): Step {
  let end = 0;
  while (end < text.length && isWordChar(text[end])) end++;
  return end === text.length ? verbatim(end, text) : verbatim(end, text, TEXT);
}

function stepUrl(text: string): Step {
  const end = /[\s<>"`]/.exec(text);
  return end === null ? verbatim(text.length, text) : verbatim(end.index, text, TEXT);
}

// Where a link in an answer may point: the reader, an http(s) address, or a relative one (which resolves
// on the page's own http(s) origin). Clients render the answer's markdown, so a model-written
// "javascript:" or "data:" link would run or load in the reader's page: any other scheme stays text.
const DESTINATION_LEAD = /^[ \t]*<?/;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]{0,31}):/;
const SCHEME_SO_FAR = /^[A-Za-z][A-Za-z0-9+.-]{0,31}$/;
/** How far an autolink or a "<...>" destination is looked for before it is read as text. */
const AUTOLINK_LIMIT = 300;

/** Whether a link destination is safe; "unknown" while more text could still decide it. */
function safeDestination(rest: string, final: boolean): "yes" | "no" | "unknown" {
  const lead = DESTINATION_LEAD.exec(rest)![0].length;
  // "<...>" holds no "<" or line end: "[](<<javascript:...>" is no link at all, and the "<javascript:...>"
  // in it would render as an autolink, so such text is read step by step instead of copied as a link.
  if (rest[lead - 1] === "<") {
    const body = rest.slice(lead, lead + AUTOLINK_LIMIT);
    const stop = /[<>\n]/.exec(body);
    if (stop === null) {
      if (!final && body.length < AUTOLINK_LIMIT) return "unknown";
    } else if (body[stop.index] !== ">") return "no";
  }
  const head = rest.slice(lead, lead + 34);
  const scheme = SCHEME.exec(head);
  if (scheme !== null) return /^https?$/i.test(scheme[1]!) ? "yes" : "no";
  const open = !final && lead + head.length === rest.length && lead < 16;
  return open && (head === "" || SCHEME_SO_FAR.test(head)) ? "unknown" : "yes";
}

// CommonMark's autolink "<scheme:...>": one of another scheme than http(s) stays text ("\<javascript:...>").
const AUTOLINK_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]{1,31}:/;

function stepAngle(text: string, final: boolean): Step | null | undefined {
  const end = /[\s<>]/.exec(text.slice(1, AUTOLINK_LIMIT));
  if (end === null) return !final && text.length < AUTOLINK_LIMIT ? null : undefined;
  if (text[1 + end.index] !== ">") return undefined;
  const inner = text.slice(1, 1 + end.index);
  return AUTOLINK_SCHEME.test(inner) && !/^https?:/i.test(inner) ? { consumed: 1, out: "\\<" } : undefined;
}

// A link whose destination is not safe stays text: its "[" is escaped, so no renderer reads a link.
const ESCAPED_BRACKET: Step = { consumed: 1, out: "\\[" };

// A markdown link, an image, a reference-style link or a link definition is copied as it is when it
// points at the reader or an http(s) address, else it stays text;
// "[John 3:16]" alone becomes the link "[John 3:16](/read/JHN/3?verse=16)"; any other "[" is text.
function stepBracket(text: string, final: boolean, options: LinkOptions, linked: ScriptureRef[], budget: ParseBudget): Step | null {
  const close = /[\]\n]/.exec(text.slice(1, LINK_TEXT_LIMIT + 1));
  // A "[" left open this long is prose, not link text: stop holding the answer back for it.
  if (close === null) return final || text.length > LINK_TEXT_LIMIT ? verbatim(1, text) : null;
  const k = close.index + 1;
  if (text[k] === "\n") return verbatim(1, text);
  if (k + 1 === text.length && !final) return null;
  const after = text[k + 1];
  if (after === "(" || after === ":") {
    const safe = safeDestination(text.slice(k + 2), final);
    if (safe === "unknown") return null;
    if (safe === "no") return ESCAPED_BRACKET;
    // Link text holding a "[" or "<" is read step by step, so a link or autolink inside it is checked too.
    if (/[[<]/.test(text.slice(1, k))) return verbatim(1, text);
  }
  if (after === "(") return verbatim(k + 2, text, { kind: "destination", depth: 1 });
  if (after === "[") return verbatim(k + 1, text);
  if (after === ":") {
    const newline = text.indexOf("\n", k);
    if (newline >= 0) return verbatim(newline, text);
    return final ? verbatim(text.length, text) : null;
  }
  const content = text.slice(1, k);
  const refs = findReferences(content, budget);
  const only = refs[0];
  if (refs.length === 1 && only !== undefined && only.start === 0 && only.end === content.length) {
    linked.push(only.ref);
    return { consumed: k + 1, out: `[${content}](${readerUrl(only.ref, options)})` };
  }
  return verbatim(1, text);
}

function stepText(text: string, final: boolean, atLineStart: boolean, midWord: boolean, options: LinkOptions, linked: ScriptureRef[], budget: ParseBudget): Step | null {
  const run = longMarkerRun(text, atLineStart);
  if (run >= 0) return verbatim(run, text, { kind: "run", ch: text[run] as string });
  if (atLineStart) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(text);
    if (fence !== null && (fence[0].length < text.length || final)) {
      return { consumed: 0, out: "", mode: { kind: "fence", marker: fence[1] as string, line: "", opening: true } };
    }
    if (!final && /^ {0,3}[`~]*$/.test(text)) return null;
  }
  if (text[0] === "`") {
    const ticks = runLength(text, 0, "`");
    if (ticks === text.length && !final) return null;
    return verbatim(ticks, text, { kind: "code", ticks });
  }
  if (text[0] === "[") return stepBracket(text, final, options, linked, budget);
  if (text[0] === "<") {
    const angle = stepAngle(text, final);
    if (angle !== undefined) return angle;
  }
  const segment = segmentEnd(text, 0, final, midWord);
  if (segment.verbatim) return verbatim(segment.end, text, segment.complete ? undefined : { kind: segment.word ? "word" : "url" });
  if (segment.complete) return { consumed: segment.end, out: convertSegment(text, segment.end, midWord, options, linked, budget) };
  // The segment may still grow: send what precedes its first possible reference start now.
  const hold = firstCandidate(text, 0, text.length, true, true, midWord);
  if (hold === 0) return null;
  return verbatim(hold < 0 ? text.length : hold, text);
}

export function createLinkStream(options: LinkOptions = {}): LinkStream {
  let pending = "";
  let mode: Mode = TEXT;
  let atLineStart = true;
  let midWord = false;
  const linked: ScriptureRef[] = [];
  let budget = parseBudget();

  function step(final: boolean): Step | null {
    switch (mode.kind) {
      case "code": return stepCode(pending, mode.ticks, final);
      case "fence": return stepFence(pending, mode);
      case "url": return stepUrl(pending);
      case "word": return stepWord(pending);
      case "run": return stepMarkerRun(pending, mode.ch);
      case "destination": return stepDestination(pending, mode.depth);
      case "text": return stepText(pending, final, atLineStart, midWord, options, linked, budget);
    }
  }

  function drain(final: boolean): string {
    let out = "";
    while (pending.length > 0) {
      const next = step(final);
      if (next === null) break;
      if (next.mode !== undefined) mode = next.mode;
      if (next.consumed > 0) {
        const last = pending[next.consumed - 1];
        atLineStart = last === "\n";
        midWord = isWordChar(last);
        out += next.out;
        pending = pending.slice(next.consumed);
      } else if (next.mode === undefined) {
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
      atLineStart = true;
      midWord = false;
      budget = parseBudget();
      return out;
    },
    get held() {
      return pending.length;
    },
    get linked() {
      return linked;
    },
  };
}

/** The answer with every existing scripture reference outside code, links and URLs linked. */
export function convertLinks(text: string, options: LinkOptions = {}): string {
  const stream = createLinkStream(options);
  return stream.push(text) + stream.flush();
}
