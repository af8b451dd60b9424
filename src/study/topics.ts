/**
 * Nave's Topical Bible (data/study/naves.json.gz): topic search by name, a topic's references, the
 * topics that cite a verse, and "related passages" (verses that share topics with it). It is its own
 * index: scripture search does not rank from it.
 */
import type { LinkOptions } from "../scripture/links.js";
import { lazy, readGzipJson } from "./data.js";
import { compactItem, parseCompactRef, type RefItem } from "./passage-refs.js";
import { foldMarks } from "../unicode.js";

interface TopicRow {
  id: string;
  name: string;
  refs: [string, number][];
  notes: string[];
  see: string[];
}

export interface TopicReference extends RefItem {
  /** Nave's line for the reference ("Of Cain slaying Abel"), when it has one. */
  note?: string;
}

export interface Topic {
  id: string;
  name: string;
  reference_count: number;
  references: TopicReference[];
  /** Topics Nave points to ("See HATRED"). */
  see_also: string[];
}

export interface RelatedPassage extends RefItem {
  /** Names of the topics it shares with the verse. */
  topics: string[];
}

/** `link`: where the items' reader urls point (the request's translation, PUBLIC_BASE_URL). */
export interface Topics {
  get(id: string, limit?: number, link?: LinkOptions): Topic | undefined;
  search(query: string, limit: number, referenceLimit?: number, link?: LinkOptions): Topic[];
  /** Topics that cite the verse (a reference whose span holds it). */
  forVerse(book: string, chapter: number, verse: number, limit: number, referenceLimit?: number, link?: LinkOptions): Topic[];
  related(book: string, chapter: number, from: number, to: number, limit: number, link?: LinkOptions): RelatedPassage[];
}

interface Index {
  rows: TopicRow[];
  byId: Map<string, TopicRow>;
  /**
   * "JHN3" -> the chapter's references as (topic index, verseStart, verseEnd) triples, packed: 72,000
   * references as one small array each held about 6 MB, packed under 1 MB.
   */
  byChapter: Map<string, Int32Array>;
}

function buildIndex(rows: TopicRow[]): Index {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const lists = new Map<string, number[]>();
  rows.forEach((row, index) => {
    for (const [text] of row.refs) {
      const ref = parseCompactRef(text);
      if (ref === undefined) continue;
      const start = ref.verseStart ?? 1;
      const end = ref.chapterEnd !== undefined && ref.chapterEnd !== ref.chapter ? 999 : (ref.verseEnd ?? ref.verseStart ?? 999);
      const key = `${ref.book}${ref.chapter}`;
      let list = lists.get(key);
      if (!list) lists.set(key, (list = []));
      list.push(index, start, end);
    }
  });
  const byChapter = new Map<string, Int32Array>();
  for (const [key, list] of lists) byChapter.set(key, Int32Array.from(list));
  return { rows, byId, byChapter };
}

const normalize = (text: string) => foldMarks(text.toLowerCase(), "NFKD").replace(/[^a-z0-9]+/g, " ").trim();

export function createTopics(dir: string): Topics {
  const index = lazy(() => buildIndex(readGzipJson<TopicRow[]>(dir, "naves.json.gz") ?? []));
  const names = lazy(() => index().rows.map((row) => normalize(row.name)));

  const topic = (row: TopicRow, limit = Infinity, link: LinkOptions = {}): Topic => ({
    id: row.id,
    name: row.name,
    reference_count: row.refs.length,
    references: row.refs.slice(0, limit).flatMap(([text, note]) => {
      const item = compactItem(text, link);
      if (item === undefined) return [];
      const withNote: TopicReference = note >= 0 && row.notes[note] ? { ...item, note: row.notes[note] } : item;
      return [withNote];
    }),
    see_also: row.see.filter((id) => index().byId.has(id)),
  });

  const topicsAt = (book: string, chapter: number, from: number, to: number) => {
    const hits = new Set<number>();
    const refs = index().byChapter.get(`${book}${chapter}`) ?? [];
    for (let k = 0; k + 2 < refs.length; k += 3) if (refs[k + 1]! <= to && refs[k + 2]! >= from) hits.add(refs[k]!);
    return hits;
  };

  return {
    get(id, limit, link) {
      const row = index().byId.get(id.trim().toLowerCase());
      return row === undefined ? undefined : topic(row, limit, link);
    },
    search(query, limit, referenceLimit = 20, link = {}) {
      const q = normalize(query);
      if (q === "") return [];
      const words = q.split(" ");
      const scored: [number, number][] = [];
      names().forEach((name, i) => {
        let score = 0;
        if (name === q) score = 100;
        else if (name.startsWith(`${q} `)) score = 60;
        else if (name.split(" ").includes(q)) score = 40;
        else if (words.every((w) => name.split(" ").some((n) => n.startsWith(w)))) score = 20;
        else if (words.every((w) => name.includes(w))) score = 10;
        // Short names are the main topic ("Anger"); long ones its corners ("Anger Of God").
        if (score > 0) scored.push([i, score - name.length / 100]);
      });
      scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      return scored.slice(0, limit).map(([i]) => topic(index().rows[i]!, referenceLimit, link));
    },
    forVerse(book, chapter, verse, limit, referenceLimit = 20, link = {}) {
      return [...topicsAt(book, chapter, verse, verse)]
        .map((t) => index().rows[t]!)
        // A verse named by few topics says more about each of them; big topics (JESUS) come last.
        .sort((a, b) => a.refs.length - b.refs.length)
        .slice(0, limit)
        .map((row) => topic(row, referenceLimit, link));
    },
    related(book, chapter, from, to, limit, link = {}) {
      const shared = topicsAt(book, chapter, from, to);
      const scores = new Map<string, { score: number; topics: string[] }>();
      for (const t of shared) {
        const row = index().rows[t]!;
        // A topic of thousands of references (JESUS) relates little; a small one relates closely.
        const weight = 1 / Math.log2(2 + row.refs.length);
        for (const [text] of row.refs) {
          const ref = parseCompactRef(text);
          if (ref === undefined) continue;
          const end = ref.verseEnd ?? ref.verseStart ?? 999;
          if (ref.book === book && ref.chapter === chapter && (ref.verseStart ?? 1) <= to && end >= from) continue;
          const entry = scores.get(text) ?? { score: 0, topics: [] };
          entry.score += weight;
          if (!entry.topics.includes(row.name)) entry.topics.push(row.name);
          scores.set(text, entry);
        }
      }
      return [...scores.entries()]
        .sort((a, b) => b[1].score - a[1].score || a[0].localeCompare(b[0]))
        .slice(0, limit)
        .flatMap(([text, { topics }]) => {
          const item = compactItem(text, link);
          return item === undefined ? [] : [{ ...item, topics }];
        });
    },
  };
}
