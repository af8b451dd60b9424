/**
 * Which windows are lists: censuses, genealogies, itineraries, inventories and boundary lists. Learned from
 * the text itself: the share of a window's words that are rare proper names (capitalized wherever the corpus
 * uses them, in few windows: "Parosh", "Rithmah", not "God" or "Israel") or numbers. Such a window holds a
 * topic's word ("the children of Parosh", "they traveled from Rithmah") without teaching it, so its score is
 * damped in proportion (ranker.ts `windowPrior`). Computed once in the corpus worker, never per request.
 */
import type { Passage } from "./types.js";

const NUMBER_WORDS = new Set(
  ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen " +
    "nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands first second third " +
    "fourth fifth sixth seventh eighth ninth tenth eleventh twelfth").split(" "),
);

/** A name in fewer windows than this is a list's name (a clan, a camp, a border town), not a main figure. */
export const RARE_NAME_WINDOWS = 40;

const WORD = /[A-Za-z][A-Za-z]*/g;

/** Per window, the share of its words that are rare names or numbers, in [0, 1]. */
export function listShares(passages: readonly Passage[]): Float32Array {
  // Per word (lower case): in how many windows it appears, and whether it is ever written in lower case
  // mid-sentence (then it is a word, not a name: "Lord"/"lord" is not counted as a name either way).
  const df = new Map<string, number>();
  const lower = new Set<string>();
  const split = passages.map((p) => {
    const ws: { w: string; cap: boolean }[] = [];
    for (const m of p.text.matchAll(WORD)) {
      const w = m[0];
      ws.push({ w: w.toLowerCase(), cap: w[0] !== w[0]!.toLowerCase() });
      if (w[0] === w[0]!.toLowerCase()) lower.add(w.toLowerCase());
    }
    for (const w of new Set(ws.map((x) => x.w))) df.set(w, (df.get(w) ?? 0) + 1);
    return ws;
  });
  return Float32Array.from(split, (ws) => {
    if (ws.length === 0) return 0;
    let n = 0;
    for (const { w, cap } of ws) {
      if (NUMBER_WORDS.has(w) || (cap && !lower.has(w) && (df.get(w) ?? 0) < RARE_NAME_WINDOWS)) n++;
    }
    return n / ws.length;
  });
}
