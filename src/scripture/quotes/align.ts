/**
 * Comparing a quotation's words with a passage's words (both already folded by normalize.ts).
 * Faithful: every fragment of the quotation (fragments are cut at an ellipsis) is a contiguous run
 * of the passage, in order. Otherwise the passage span the quotation aimed at is found by local
 * alignment (Smith-Waterman over words), widened by the quotation's unmatched words at either end so
 * that a changed first or last word ("only begotten" for "only born") is replaced too.
 */

const MATCH = 2;
const MISMATCH = -1;
const GAP = -1;

/** Largest alignment table (quotation words x passage words); a longer search is not attempted. */
export const MAX_CELLS = 600_000;

function runAt(passage: readonly string[], fragment: readonly string[], at: number): boolean {
  for (let k = 0; k < fragment.length; k++) if (passage[at + k] !== fragment[k]) return false;
  return true;
}

/** The fragments occur in order as contiguous runs of the passage (greedy leftmost is exact here). */
export function isFaithful(passage: readonly string[], fragments: readonly (readonly string[])[]): boolean {
  return faithfulSpan(passage, fragments) !== null;
}

/** Where the fragments run in the passage, [start, end) in passage words, or null when they do not. */
export function faithfulSpan(passage: readonly string[], fragments: readonly (readonly string[])[]): [number, number] | null {
  let from = 0;
  let start = -1;
  for (const fragment of fragments) {
    if (fragment.length === 0) continue;
    let found = -1;
    for (let at = from; at + fragment.length <= passage.length; at++) {
      if (runAt(passage, fragment, at)) {
        found = at;
        break;
      }
    }
    if (found < 0) return null;
    if (start < 0) start = found;
    from = found + fragment.length;
  }
  return [Math.max(start, 0), from];
}

export interface Aim {
  /** Passage word span [start, end). */
  start: number;
  end: number;
  /** Quotation words matched exactly along the alignment. */
  matches: number;
}

/**
 * The passage span the quotation aims at, or null when too few of its words occur there in order
 * (fewer than half, or fewer than two). `unit[j]` is the verse index of passage word j: widening
 * never crosses into another verse.
 */
export function aimAt(passage: readonly string[], quote: readonly string[], unit: readonly number[]): Aim | null {
  const n = quote.length;
  const m = passage.length;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_CELLS) return null;
  const width = m + 1;
  const score = new Int32Array((n + 1) * width);
  // 0 stop, 1 diagonal, 2 up (quotation word skipped), 3 left (passage word skipped)
  const from = new Uint8Array((n + 1) * width);
  let best = 0;
  let bestAt = 0;
  for (let i = 1; i <= n; i++) {
    const q = quote[i - 1];
    for (let j = 1; j <= m; j++) {
      const at = i * width + j;
      const diagonal = (score[at - width - 1] as number) + (passage[j - 1] === q ? MATCH : MISMATCH);
      const up = (score[at - width] as number) + GAP;
      const left = (score[at - 1] as number) + GAP;
      let value = 0;
      let step = 0;
      if (diagonal > value) { value = diagonal; step = 1; }
      if (up > value) { value = up; step = 2; }
      if (left > value) { value = left; step = 3; }
      score[at] = value;
      from[at] = step;
      if (value > best) { best = value; bestAt = at; }
    }
  }
  if (best === 0) return null;
  let i = Math.floor(bestAt / width);
  let j = bestAt % width;
  const quoteEnd = i;
  const passageEnd = j;
  let matches = 0;
  while (i > 0 && j > 0 && from[i * width + j] !== 0) {
    const step = from[i * width + j];
    if (step === 1) {
      if (passage[j - 1] === quote[i - 1]) matches++;
      i--;
      j--;
    } else if (step === 2) i--;
    else j--;
  }
  if (matches < 2 || matches * 2 < n) return null;
  return { start: widenStart(passage, quote, unit, j, i), end: widenEnd(passage, quote, unit, passageEnd, n - quoteEnd), matches };
}

// Up to REACH words beyond the unmatched count are searched for the quotation's first (last) word,
// so "Porque Dios amó..." reaches back over "de tal manera" to the verse's "Porque".
const REACH = 3;

function widenStart(passage: readonly string[], quote: readonly string[], unit: readonly number[], start: number, unmatched: number): number {
  if (unmatched === 0) return start;
  let limit = start;
  while (limit > 0 && start - limit < unmatched + REACH && unit[limit - 1] === unit[start]) limit--;
  for (let at = limit; at < start; at++) if (passage[at] === quote[0]) return at;
  // "Yahweh is my shepherd" for "The LORD is my shepherd": one word for two, at the verse's start.
  const verseStart = limit === 0 || unit[limit - 1] !== unit[start];
  if (verseStart && start - limit <= unmatched + 1) return limit;
  return Math.max(limit, start - unmatched);
}

function widenEnd(passage: readonly string[], quote: readonly string[], unit: readonly number[], end: number, unmatched: number): number {
  if (unmatched === 0) return end;
  let limit = end;
  while (limit < passage.length && limit - end < unmatched + REACH && unit[limit] === unit[end - 1]) limit++;
  for (let at = limit; at > end; at--) if (passage[at - 1] === quote[quote.length - 1]) return at;
  const verseEnd = limit === passage.length || unit[limit] !== unit[end - 1];
  if (verseEnd && limit - end <= unmatched + 1) return limit;
  return Math.min(limit, end + unmatched);
}
