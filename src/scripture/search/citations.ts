/**
 * Which passages teach, learned from the commentaries' own cross-references: when Scofield, Matthew Henry
 * or the Treasury of David explain one passage, they cite the passages that teach the same thing
 * ("Psalms 121:8", "Romans 2:11; 3:29"). A verse many commentary sections point to is one readers are sent
 * to; a census, a genealogy or an itinerary is cited for little but itself. Counted once at start in the
 * corpus worker (a regex pass over the shipped commentaries), never per request.
 */
import { BOOKS } from "../books.js";
import { DEFAULT_STUDY_DIR, readGzipJson } from "../../study/data.js";

/** [chapter, verseStart, verseEnd, title, text] (expansion.ts, src/study/commentary.ts). */
export type SectionRow = [number, number, number, string | null, string];

/**
 * A commentary's sections on a book, read (gunzipped, parsed) afresh on each call: nothing keeps them. The
 * corpus worker's teaching signals read each file once and hand it to every builder (corpus-worker.ts
 * buildTeachingSignals), so only one book's sections are alive at a time.
 */
export function commentarySections(dir: string, source: string, book: string): SectionRow[] | undefined {
  return readGzipJson<SectionRow[]>(dir, `commentaries/${source}/${book}.json.gz`);
}

/** The commentaries whose citations count (their ids under data/study/commentaries). */
export const CITING_COMMENTARIES = ["scofield", "mhcc", "tdavid"] as const;

/** Full names (and the singular "Psalm") as the commentaries spell them -> book id. */
const NAME_TO_ID = new Map<string, string>();
for (const b of BOOKS) {
  NAME_TO_ID.set(b.name.toLowerCase(), b.id);
  NAME_TO_ID.set(b.name.replace(/^([1-3]) /, "$1").toLowerCase(), b.id);
}
NAME_TO_ID.set("psalm", "PSA");
NAME_TO_ID.set("song of songs", "SNG");
NAME_TO_ID.set("canticles", "SNG");
NAME_TO_ID.set("revelations", "REV");

const NAMES = [...NAME_TO_ID.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/ /g, "\\s+"));
/** A book name, then chapter:verse, then any "; 3:29" / ", 12" continuations in the same book. */
const CITATION = new RegExp(`\\b(${NAMES.join("|")})\\.?\\s+(\\d{1,3}):(\\d{1,3})((?:\\s*[;,]\\s*\\d{1,3}(?::\\d{1,3})?)*)`, "gi");

export interface Citation {
  book: string;
  chapter: number;
  verse: number;
}

/** The verses a commentary text cites, in order (a range counts its first verse; "v. 3" style local references are not read). */
export function citationsIn(text: string): Citation[] {
  const out: Citation[] = [];
  for (const m of text.matchAll(CITATION)) {
    const book = NAME_TO_ID.get(m[1]!.replace(/\s+/g, " ").toLowerCase());
    if (!book) continue;
    let chapter = Number(m[2]);
    out.push({ book, chapter, verse: Number(m[3]) });
    for (const part of (m[4] ?? "").split(/[;,]/)) {
      const p = part.trim();
      if (!p) continue;
      const cv = /^(\d+):(\d+)$/.exec(p);
      if (cv) (chapter = Number(cv[1])), out.push({ book, chapter, verse: Number(cv[2]) });
      else out.push({ book, chapter, verse: Number(p) });
    }
  }
  return out;
}

/**
 * Inbound citations per verse ("GEN.1.1" -> count) over the shipped commentaries: each commentary section
 * counts a cited verse once, and a section never counts the chapter it is written on (its own verses are
 * what it explains, not a pointer from elsewhere).
 */
export function inboundCitations(dir = DEFAULT_STUDY_DIR, books: readonly string[] = BOOKS.map((b) => b.id)): Map<string, number> {
  const counts = new Map<string, number>();
  for (const source of CITING_COMMENTARIES) {
    for (const book of books) countCitations(counts, book, commentarySections(dir, source, book) ?? []);
  }
  return counts;
}

/** Adds the citations of one citing commentary's sections on `book` to `counts` (inboundCitations' rule). Counts are integers, so the order books and sources are added in does not matter. */
export function countCitations(counts: Map<string, number>, book: string, sections: readonly SectionRow[]): void {
  for (const [chapter, , , , text] of sections) {
    const seen = new Set<string>();
    for (const c of citationsIn(text)) {
      if (c.book === book && c.chapter === chapter) continue;
      const key = `${c.book}.${c.chapter}.${c.verse}`;
      if (seen.has(key)) continue;
      seen.add(key);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
}

/** Inbound citations per chapter ("PSA.121" -> count), summed over its verses. */
export function chapterCitations(verseCounts: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, n] of verseCounts) {
    const ch = key.slice(0, key.lastIndexOf("."));
    out.set(ch, (out.get(ch) ?? 0) + n);
  }
  return out;
}

/** Values as ranks in [0, 1] (0 = the smallest); equal values share their mean rank. */
export function rankShares(values: readonly number[]): Float32Array {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Float32Array(values.length);
  const last = Math.max(1, values.length - 1);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) out[order[k]![1]] = (i + j) / 2 / last;
    i = j + 1;
  }
  return out;
}

/**
 * The citation prior of each chapter (same order), in [0, 1]: its inbound citations as a rank among the
 * chapters (1 = the most cited; chapters no section cites share the lowest).
 */
export function citationPrior(chapters: readonly { book: string; chapter: number }[], dir = DEFAULT_STUDY_DIR): Float32Array {
  return citationPriorOf(chapters, inboundCitations(dir));
}

/** citationPrior from inbound citations already counted (inboundCitations' per-verse counts). */
export function citationPriorOf(chapters: readonly { book: string; chapter: number }[], verseCounts: ReadonlyMap<string, number>): Float32Array {
  const cites = chapterCitations(verseCounts);
  return rankShares(chapters.map((c) => cites.get(`${c.book}.${c.chapter}`) ?? 0));
}
