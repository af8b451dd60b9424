/**
 * The Strong's word tags and the notes of the tagged translations (eng-web, eng-kjv): sidecars aligned
 * to data/bibles, read per book (tags) or per translation (notes) on first use.
 */
import { bookById } from "../scripture/books.js";
import { findReferences } from "../scripture/references.js";
import { jsonArrayItems, keyedCache, readGzip, readGzipJson } from "./data.js";
import { PackedTexts } from "./packed-text.js";
import { refItem, type RefItem } from "./passage-refs.js";

/** The translations whose modules carry Strong's tags and notes. */
export const TAGGED_BIBLES: readonly string[] = Object.freeze(["eng-web", "eng-kjv"]);

type Segment = string | [text: string, strong: string];

/**
 * Where each translation's word tags come from, as the passage response (`words_source`) and the reader's
 * "Original words" view say it. The WEB's are realigned at export (ingest/study-align.ts, docs/study.md).
 */
const WORDS_SOURCE: Readonly<Record<string, string>> = Object.freeze({
  "eng-kjv": "Strong's numbers as tagged by hand on the King James Version's words (the tagging Strong's concordance rests on).",
  "eng-web":
    "Strong's numbers placed on the World English Bible's words by matching the King James Version's hand-made tags of the same verse " +
    "(99.7% of the tags right on a hand-checked sample of 43 verses); a word with no clear match carries none.",
});

export function wordsSource(bibleId: string): string | undefined {
  return WORDS_SOURCE[bibleId];
}

export interface VerseWord {
  text: string;
  /** Strong's ids ("G25"); [] for the untagged text between tagged words. */
  strong: string[];
}

export interface VerseNote {
  type: "footnote" | "cross-reference";
  text: string;
  /** Characters of the verse text before the note's mark. */
  at: number;
  /** The passages a cross-reference (or a footnote) names. */
  references?: RefItem[];
}

export interface VerseTags {
  has(bibleId: string): boolean;
  /** The verse as words whose texts join to exactly the verse text; undefined when the verse has no tags. */
  words(bibleId: string, book: string, chapter: number, verse: number): VerseWord[] | undefined;
  /** `baseUrl`: PUBLIC_BASE_URL for the notes' reader urls (which open bibleId). */
  notes(bibleId: string, book: string, chapter: number, verse: number, baseUrl?: string): VerseNote[];
}

interface RawNote {
  type: "footnote" | "cross-reference";
  text: string;
  at: number;
}

/** A chapter's verses as tag segments (null: the verse has no tags). */
type ChapterSegments = (Segment[] | null)[];

/**
 * A book's word tags as read, each chapter kept as its JSON text deflated outside the V8 heap
 * (packed-text.ts) and parsed when asked for. Parsed whole, every book of both tagged translations held
 * about 60 MB of heap in small arrays and strings; as UTF-8 JSON 19 MB; deflated about 5 MB.
 */
class BookTags {
  private readonly json: PackedTexts;

  /** `json`: the book's file, a JSON array of chapters, kept a chapter's JSON text at a time (data.ts jsonArrayItems). */
  constructor(json: Buffer) {
    this.json = new PackedTexts(jsonArrayItems(json));
  }

  chapter(chapter: number): ChapterSegments | undefined {
    const text = this.json.get(chapter - 1);
    return text === undefined ? undefined : (JSON.parse(text) as ChapterSegments);
  }
}

/** Chapters parsed lately, kept so a passage's verses do not each parse their chapter again. */
const RECENT_CHAPTERS = 16;

export function createVerseTags(dir: string): VerseTags {
  const books = keyedCache((key) => {
    const json = readGzip(dir, `words/${key}.json.gz`);
    return json === undefined ? undefined : new BookTags(json);
  });
  const recent = new Map<string, ChapterSegments | undefined>();
  const chapterOf = (key: string, chapter: number): ChapterSegments | undefined => {
    const at = `${key} ${chapter}`;
    if (recent.has(at)) return recent.get(at);
    const segments = books(key)?.chapter(chapter);
    if (recent.size >= RECENT_CHAPTERS) recent.delete(recent.keys().next().value as string);
    recent.set(at, segments);
    return segments;
  };
  const notes = keyedCache((bibleId) => readGzipJson<Record<string, Record<string, RawNote[]>>>(dir, `notes/${bibleId}.json.gz`) ?? {});
  const has = (bibleId: string) => TAGGED_BIBLES.includes(bibleId);
  return {
    has,
    words(bibleId, book, chapter, verse) {
      if (!has(bibleId) || bookById(book) === undefined) return undefined;
      const segments = chapterOf(`${bibleId}/${book}`, chapter)?.[verse - 1];
      if (segments === undefined || segments === null) return undefined;
      return segments.map((s) => (typeof s === "string" ? { text: s, strong: [] } : { text: s[0], strong: s[1].split(" ") }));
    },
    notes(bibleId, book, chapter, verse, baseUrl) {
      if (!has(bibleId)) return [];
      const raw = notes(bibleId)[book]?.[`${chapter}:${verse}`] ?? [];
      return raw.map((note) => {
        const refs = findReferences(note.text).map((found) => refItem(found.ref, "en", { bibleId, baseUrl }));
        return refs.length > 0 ? { ...note, references: refs } : { ...note };
      });
    },
  };
}
