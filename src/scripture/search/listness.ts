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

/** Per window, the share of its words that are rare names or numbers, in [0, 1]. One pass to gather, one to count. */
export function listShares(passages: readonly Passage[]): Float32Array {
  // Per distinct word (lower case): in how many windows it appears, and whether it is ever written in lower
  // case (then it is a word, not a name: "Lord" and "lord" are not counted either way).
  const ids = new Map<string, number>();
  const df: number[] = [];
  const seenIn: number[] = [];
  const lowerSeen: boolean[] = [];
  const words: Int32Array[] = [];
  const capital: Uint8Array[] = [];
  // One window's word ids and capitals are gathered in scratch arrays (grown when a window needs more)
  // and copied out at their size: per-window JS arrays grown by push were tens of MB of garbage at the
  // first start's peak (the corpus worker's signal build).
  let idsOf = new Int32Array(1024);
  let caps = new Uint8Array(1024);
  passages.forEach((p, wi) => {
    const text = p.text;
    let n = 0;
    for (let i = 0; i < text.length; ) {
      let c = text.charCodeAt(i);
      if (!isLetter(c)) {
        i++;
        continue;
      }
      const start = i;
      while (i < text.length && isLetter((c = text.charCodeAt(i)))) i++;
      const word = text.slice(start, i);
      const lower = word.toLowerCase();
      let id = ids.get(lower);
      if (id === undefined) (id = df.length), ids.set(lower, id), df.push(0), seenIn.push(-1), lowerSeen.push(false);
      const cap = word.charCodeAt(0) <= 90;
      if (!cap) lowerSeen[id] = true;
      if (seenIn[id] !== wi) (seenIn[id] = wi), df[id]!++;
      if (n === idsOf.length) {
        const more = new Int32Array(n * 2);
        more.set(idsOf);
        idsOf = more;
        const moreCaps = new Uint8Array(n * 2);
        moreCaps.set(caps);
        caps = moreCaps;
      }
      idsOf[n] = id;
      caps[n++] = cap ? 1 : 0;
    }
    words.push(idsOf.slice(0, n));
    capital.push(caps.slice(0, n));
  });
  const numberIds = new Set([...NUMBER_WORDS].flatMap((w) => ids.get(w) ?? []));
  return Float32Array.from(words, (ws, wi) => {
    if (ws.length === 0) return 0;
    const caps = capital[wi]!;
    let n = 0;
    for (let k = 0; k < ws.length; k++) {
      const id = ws[k]!;
      if (numberIds.has(id) || (caps[k] === 1 && !lowerSeen[id] && df[id]! < RARE_NAME_WINDOWS)) n++;
    }
    return n / ws.length;
  });
}

/** ASCII letters (the WEB's names and numbers are ASCII; other letters end a word, as the old regex did). */
function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
