/**
 * Unicode normalisation in time linear in the text, whatever it holds. V8's normalize() reorders each
 * run of combining marks by canonical class with a quadratic sort, so a long run of marks with
 * descending classes ("a" + "\u0301\u0316\u0334\u0345" x n) takes seconds (docs/reliability.md).
 * UAX #15's stream-safe text format allows at most 30 combining marks in a row; no script needs more,
 * so longer runs are cut to 30 before any normalisation. Every normalize() of user or model text goes
 * through here.
 */

/** Most combining marks kept in a row (UAX #15 stream-safe text format). */
export const MAX_MARK_RUN = 30;

// One quantifier over one class: the engine never retries inside a run.
const LONG_MARK_RUN = new RegExp(`(\\p{M}{${MAX_MARK_RUN}})\\p{M}+`, "gu");
const MARKS = /\p{M}/gu;

/** The text with every run of combining marks cut to MAX_MARK_RUN. */
export function capMarkRuns(text: string): string {
  return text.replace(LONG_MARK_RUN, "$1");
}

/** String.prototype.normalize on the text with its mark runs capped. */
export function normalizeText(text: string, form: "NFC" | "NFD" | "NFKC" | "NFKD" = "NFC"): string {
  return capMarkRuns(text).normalize(form);
}

/** Decomposed with its combining marks removed: accents folded ("Génesis" -> "Genesis"). */
export function foldMarks(text: string, form: "NFD" | "NFKD" = "NFD"): string {
  return normalizeText(text, form).replace(MARKS, "");
}
