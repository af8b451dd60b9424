/**
 * Stepping through markdown that scripture must not be read in: code spans and fenced blocks. Shared by
 * the link converter (links.ts) and the quotation check (quotes/stream.ts), which both walk an answer as
 * it streams and copy these spans through untouched.
 */

export type TextMode = { kind: "text" };
export type FenceMode = { kind: "fence"; marker: string; line: string; opening: boolean };
export type MarkerRunMode = { kind: "run"; ch: string };

/** How far a step got, what it lets out, and the mode that follows (unchanged when absent). */
export interface SpanStep<M> {
  consumed: number;
  out: string;
  mode?: M;
}

export const TEXT_MODE: TextMode = { kind: "text" };

export function verbatim<M>(consumed: number, text: string, mode?: M): SpanStep<M> {
  return mode === undefined ? { consumed, out: text.slice(0, consumed) } : { consumed, out: text.slice(0, consumed), mode };
}

export function runLength(text: string, from: number, ch: string): number {
  let end = from;
  while (text[end] === ch) end++;
  return end - from;
}

/**
 * Inside `code`: verbatim up to the closing run of the same length, or to the line's end, since an
 * unclosed code span is treated as code to the end of its line. Null while a trailing run of backticks
 * could still grow.
 */
export function stepCode(text: string, ticks: number, final: boolean): SpanStep<TextMode> | null {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\n") return verbatim(i, text, TEXT_MODE);
    if (text[i] !== "`") continue;
    const run = runLength(text, i, "`");
    if (i + run === text.length && !final) return i === 0 ? null : verbatim(i, text);
    if (run === ticks) return verbatim(i + run, text, TEXT_MODE);
    i += run - 1;
  }
  return verbatim(text.length, text);
}

/** Inside a fenced block: a line at a time, until a closing fence of the same character and length. */
export function stepFence(text: string, mode: FenceMode): SpanStep<TextMode | FenceMode> {
  const newline = text.indexOf("\n");
  if (newline < 0) return verbatim(text.length, text, { ...mode, line: mode.line + text });
  const line = mode.line + text.slice(0, newline);
  const fenceChar = mode.marker[0] as string;
  const closing = !mode.opening && new RegExp(`^ {0,3}\\${fenceChar}{${mode.marker.length},}\\s*$`).test(line);
  return verbatim(newline + 1, text, closing ? TEXT_MODE : { ...mode, line: "", opening: false });
}

/**
 * A run of backticks (or tildes at a line's start) longer than this opens no code span or fence worth
 * waiting for: it is copied as text. A stream waiting on a run that keeps growing re-read it at every
 * chunk (quadratic in the run's length); the whole-text form decides at the same point, so both agree.
 */
export const MAX_MARKER_RUN = 64;

/** Where a run of more than MAX_MARKER_RUN markers starts (after a line's indent), else -1. */
export function longMarkerRun(text: string, atLineStart: boolean): number {
  let i = 0;
  if (atLineStart) while (i < 3 && text[i] === " ") i++;
  const ch = text[i];
  if (ch !== "`" && !(ch === "~" && atLineStart)) return -1;
  let k = i;
  while (k < text.length && text[k] === ch && k - i <= MAX_MARKER_RUN) k++;
  return k - i > MAX_MARKER_RUN ? i : -1;
}

/** Inside a long marker run: verbatim up to the first other character. */
export function stepMarkerRun(text: string, ch: string): SpanStep<TextMode> {
  let end = 0;
  while (end < text.length && text[end] === ch) end++;
  return end === text.length ? verbatim(end, text) : verbatim(end, text, TEXT_MODE);
}
