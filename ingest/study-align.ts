/**
 * Realigns the WEB's Strong's tags on its own words, from the KJV's hand-made tags of the same verse
 * (docs/study.md, "Word tags"). The WEB module's tags were placed by machine and often sit one word off
 * (John 21:15: "had" carried G2424 Jesus, "of" G2962 Lord, "affection" nothing). Here each KJV tag
 * (a Strong's number on KJV words) is given to the WEB word that renders it, found by evidence:
 *   3    the same word as the KJV's, after the KJV's archaic forms are read ("lovest" love, "thee" you);
 *   2.5  a proper name spelled alike ("Jonas" / "Jonah");
 *   2    a word the KJV renders this number with anywhere in the Bible, one of the lexicon's KJV usage words,
 *        or a word the WEB module tags with this number again and again (at least 5 times and 30% of the word's
 *        tags: "Yahweh" is H3068 throughout, where a misplaced "had" -> G2424 is rare);
 *   1.5  a content word of the lexicon's definition ("affection" in G5368's "have affection for");
 * plus 0.5 when the module's own tag agrees (a tie-breaker, never evidence alone). Word order is kept
 * (the two translations follow the same original closely) and each tag and each word is used once.
 * A WEB word without such evidence stays untagged: a missing link is better than a wrong one.
 */
import type { Segment } from "./study-markup.js";

/** Scores below this are not evidence: the word stays untagged. */
export const MIN_EVIDENCE = 1.5;

// Function words match only the same word in the KJV, never a gloss or a definition.
const FUNCTION_WORDS = new Set(
  (
    "a an the and or but nor of to in into on upon at by for from with without as than that this these those " +
    "is are was were be been being am do does did has have had will shall would should can could may might must " +
    "not no he she it they them him her his its their theirs we us our ours i me my mine you your yours who whom " +
    "whose which what when where why how all any each every some such there here then so also even if yet up out " +
    "over under about after before again let one"
  ).split(" "),
);

// The KJV's archaic forms, read as the WEB writes them.
const ARCHAIC = new Map<string, string>(Object.entries({
  thou: "you", thee: "you", ye: "you", thy: "your", thine: "your", hath: "has", doth: "does", art: "are",
  saith: "says", unto: "to", shalt: "shall", wilt: "will", hast: "have", didst: "did", wast: "were", spake: "spoke",
  yea: "yes", nay: "no", whoso: "whoever", whosoever: "whoever", brethren: "brothers", sware: "swore", begat: "became",
}));

const WORD = /[\p{L}\p{N}]+(?:[’'][\p{L}]+)*/gu;

function normal(word: string): string {
  const lower = word.toLowerCase().replace(/[’']s$/u, "");
  return ARCHAIC.get(lower) ?? lower;
}

/** A rough stem: "lovest", "loved", "loveth", "loves" and "love" meet at "lov". */
export function stem(word: string): string {
  let w = normal(word);
  for (const suffix of ["eth", "est", "ing", "ed", "es", "s"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w.replace(/e$/, "");
}

const isName = (word: string) => /^\p{Lu}\p{Ll}/u.test(word);

/** What is known of one Strong's number: the KJV's words for it, the lexicon's usage and definition words. */
export interface Glossary {
  kjvWords(id: string): ReadonlySet<string>;
  definitionWords(id: string): ReadonlySet<string>;
  /** The lexicon's KJV usage words, function words included (normalised, not stemmed). */
  usageWords(id: string): ReadonlySet<string>;
}

/** A KJV tag in a verse: the words it sits on and its ids ("G25" or "H1 H2"). */
interface Unit {
  words: string[];
  ids: string;
}

function units(kjv: readonly Segment[]): Unit[] {
  return kjv.flatMap((segment) => (typeof segment === "string" ? [] : [{ words: segment[0].match(WORD) ?? [], ids: segment[1] }]));
}

export function evidence(unit: Unit, word: string, glossary: Glossary): number {
  const n = normal(word);
  const s = stem(word);
  const ids = unit.ids.split(" ");
  // In "lovest thou" (G5368) the number is on "lovest": the function words of a longer tag are not its match.
  const content = unit.words.filter((w) => !FUNCTION_WORDS.has(normal(w)));
  const own = content.length > 0 ? content : unit.words;
  if (FUNCTION_WORDS.has(n)) {
    // A function word matches only the same word, and only where the lexicon lets the number mean it
    // (the KJV tags "Lovest thou" with G5368 on "thou" alone: "you" is not φιλέω).
    const usage = ids.map((id) => glossary.usageWords(id));
    const allowed = usage.every((u) => u.size === 0) || usage.some((u) => u.has(n));
    return own.some((w) => normal(w) === n) && allowed ? 3 : 0;
  }
  if (own.some((w) => normal(w) === n || (stem(w) === s && s.length >= 3))) return 3;
  if (isName(word) && unit.words.some((w) => isName(w) && w.length >= 4 && word.length >= 4 && w.slice(0, 4) === word.slice(0, 4))) return 2.5;
  if (ids.some((id) => glossary.kjvWords(id).has(s))) return 2;
  if (ids.some((id) => glossary.definitionWords(id).has(s))) return 1.5;
  return 0;
}

/**
 * The WEB verse's segments with tags moved onto the words the KJV's tags support. `web` is the module's
 * machine-aligned segmentation (its texts join to the verse); `kjv` the KJV's of the same verse.
 */
export function realign(web: readonly Segment[], kjv: readonly Segment[], glossary: Glossary): Segment[] {
  const text = web.map((segment) => (typeof segment === "string" ? segment : segment[0])).join("");
  // The module's own tag of each word, by the word's position in the text.
  const moduleTag = new Map<number, string>();
  let offset = 0;
  for (const segment of web) {
    if (typeof segment !== "string") for (const m of segment[0].matchAll(WORD)) moduleTag.set(offset + m.index, segment[1]);
    offset += (typeof segment === "string" ? segment : segment[0]).length;
  }
  const words = [...text.matchAll(WORD)].map((m) => ({ word: m[0], at: m.index }));
  const tags = units(kjv);
  const m = tags.length;
  const n = words.length;
  // best[i][j]: the most evidence aligning tags i.. with words j.., in order, each used once.
  const score = (i: number, j: number) => {
    const base = evidence(tags[i]!, words[j]!.word, glossary);
    if (base < MIN_EVIDENCE) return 0;
    const agrees = (moduleTag.get(words[j]!.at) ?? "").split(" ").some((id) => tags[i]!.ids.split(" ").includes(id));
    return base + (agrees ? 0.5 : 0);
  };
  const best: Float64Array[] = Array.from({ length: m + 1 }, () => new Float64Array(n + 1));
  for (let i = m - 1; i >= 0; i--) {
    for (let j = n - 1; j >= 0; j--) {
      const pair = score(i, j);
      best[i]![j] = Math.max(best[i + 1]![j]!, best[i]![j + 1]!, pair > 0 ? pair + best[i + 1]![j + 1]! : 0);
    }
  }
  const assigned = new Map<number, string>();
  for (let i = 0, j = 0; i < m && j < n; ) {
    const pair = score(i, j);
    if (pair > 0 && best[i]![j] === pair + best[i + 1]![j + 1]!) {
      assigned.set(j, tags[i]!.ids);
      i += 1;
      j += 1;
    } else if (best[i]![j] === best[i + 1]![j]) i += 1;
    else j += 1;
  }
  const out: Segment[] = [];
  let at = 0;
  const pushText = (piece: string) => {
    if (piece === "") return;
    const last = out.at(-1);
    if (typeof last === "string") out[out.length - 1] = last + piece;
    else out.push(piece);
  };
  words.forEach(({ word, at: start }, j) => {
    const ids = assigned.get(j);
    if (ids === undefined) return;
    pushText(text.slice(at, start));
    out.push([word, ids]);
    at = start + word.length;
  });
  pushText(text.slice(at));
  return out;
}

const DEFINITION_STOP = new Set(["hebrew", "greek", "origin", "from", "i.e", "e.g", "compare", "prim", "root", "properly", "figuratively", "literally", "especially", "probably", "used", "word", "apparently", "derivative", "particle", "primary", "verb", "noun", "name", "israelite", "israelites", "place", "other", "another", "certain", "person", "thing", "things", "kind", "sense", "make", "made", "give", "given", "denoting", "specially", "also", "chiefly", "latter", "former", "being", "two", "three"]);

/**
 * The glossary from the KJV's tags (every word the KJV renders each number with) and the lexicon
 * (its KJV usage and the content words of its definition).
 */
export function buildGlossary(
  kjvBooks: Record<string, (Segment[] | null)[][]>,
  lexicon: Record<string, { kjv_usage?: string | undefined; definition?: string | undefined }>,
  webBooks: Record<string, (Segment[] | null)[][]> = {},
): Glossary {
  const kjv = new Map<string, Set<string>>();
  const usage = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, id: string, word: string) => {
    const n = normal(word);
    if (FUNCTION_WORDS.has(n)) return;
    (map.get(id) ?? map.set(id, new Set()).get(id)!).add(stem(word));
  };
  for (const chapters of Object.values(kjvBooks)) {
    for (const verses of chapters) {
      for (const segments of verses ?? []) {
        for (const segment of segments ?? []) {
          if (typeof segment === "string") continue;
          for (const id of segment[1].split(" ")) for (const word of segment[0].match(WORD) ?? []) add(kjv, id, word);
        }
      }
    }
  }
  const definitions = new Map<string, Set<string>>();
  // The WEB module's own tags, counted: a word it gives one number again and again renders that number.
  const webCounts = new Map<string, Map<string, number>>();
  for (const chapters of Object.values(webBooks)) {
    for (const verses of chapters) {
      for (const segments of verses ?? []) {
        for (const segment of segments ?? []) {
          if (typeof segment === "string") continue;
          for (const word of segment[0].match(WORD) ?? []) {
            const counts = webCounts.get(stem(word)) ?? webCounts.set(stem(word), new Map()).get(stem(word))!;
            for (const id of segment[1].split(" ")) counts.set(id, (counts.get(id) ?? 0) + 1);
          }
        }
      }
    }
  }
  for (const [word, counts] of webCounts) {
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    for (const [id, count] of counts) if (count >= 5 && count >= 0.3 * total && !FUNCTION_WORDS.has(word)) (kjv.get(id) ?? kjv.set(id, new Set()).get(id)!).add(word);
  }
  for (const [id, entry] of Object.entries(lexicon)) {
    for (const word of (entry.kjv_usage ?? "").match(WORD) ?? []) {
      if (word === "X") continue;
      add(kjv, id, word);
      (usage.get(id) ?? usage.set(id, new Set()).get(id)!).add(normal(word));
    }
    for (const word of (entry.definition ?? "").match(WORD) ?? []) {
      if (word.length >= 3 && !DEFINITION_STOP.has(word.toLowerCase()) && !/^[GH]\d+$/.test(word)) add(definitions, id, word);
    }
  }
  const empty = new Set<string>();
  return { kjvWords: (id) => kjv.get(id) ?? empty, definitionWords: (id) => definitions.get(id) ?? empty, usageWords: (id) => usage.get(id) ?? empty };
}
