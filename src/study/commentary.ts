/** Commentary sections per book (data/study/commentaries/<id>/<BOOK>.json.gz), read on first use. */
import { keyedCache, readGzipJson } from "./data.js";
import { findCommentary, type CommentaryInfo } from "./commentaries.js";
import { PackedTexts } from "./packed-text.js";

/** [chapter, verseStart, verseEnd, title, text]; verse 0 means the whole chapter. */
type SectionRow = [number, number, number, string | null, string];

export interface CommentarySection {
  chapter: number;
  /** 0 for a section about the whole chapter (an overview, an outline). */
  verseStart: number;
  verseEnd: number;
  title: string | null;
  text: string;
}

export interface Commentaries {
  info(id: string): CommentaryInfo | undefined;
  covers(id: string, book: string): boolean;
  /** Sections of the chapter that cover any verse of from..to (all of them when no verse is given). */
  sections(id: string, book: string, chapter: number, from?: number, to?: number): CommentarySection[];
}

/**
 * A book's sections as read, their texts kept deflated outside the V8 heap, one stream per chapter
 * (packed-text.ts), and inflated when a chapter is asked for: the Treasury of David's Psalms alone held
 * 18 MB of heap as strings (a third of its sections are two-byte strings, for a curly quote or a dash),
 * 12 MB as UTF-8 and about 4 MB deflated.
 */
class BookSections {
  private readonly heads: [chapter: number, verseStart: number, verseEnd: number, title: string | null][];
  /** Per chapter, its packed stream (the JSON array of its sections' texts, in file order). */
  private readonly streams = new Map<number, number>();
  private readonly texts: PackedTexts;

  constructor(rows: readonly SectionRow[]) {
    this.heads = rows.map(([chapter, from, to, title]) => [chapter, from, to, title]);
    const byChapter = new Map<number, string[]>();
    for (const [chapter, , , , text] of rows) (byChapter.get(chapter) ?? byChapter.set(chapter, []).get(chapter)!).push(text);
    [...byChapter.keys()].forEach((chapter, i) => this.streams.set(chapter, i));
    this.texts = new PackedTexts([...byChapter.values()].map((texts) => JSON.stringify(texts)));
  }

  /** Sections of the chapter that cover any verse of from..to (all of them when from is undefined), in file order. */
  sections(chapter: number, from: number | undefined, to: number | undefined): CommentarySection[] {
    const stream = this.streams.get(chapter);
    if (stream === undefined) return [];
    const texts = JSON.parse(this.texts.get(stream)!) as string[];
    const out: CommentarySection[] = [];
    let k = 0;
    for (const [c, verseStart, verseEnd, title] of this.heads) {
      if (c !== chapter) continue;
      const text = texts[k++]!;
      if (!(from === undefined || verseStart === 0 || (verseStart <= (to ?? from) && verseEnd >= from))) continue;
      out.push({ chapter: c, verseStart, verseEnd, title, text });
    }
    return out;
  }
}

export function createCommentaries(dir: string): Commentaries {
  const books = keyedCache((key) => new BookSections(readGzipJson<SectionRow[]>(dir, `commentaries/${key}.json.gz`) ?? []));
  const covers = (id: string, book: string) => {
    const info = findCommentary(id);
    return info !== undefined && (info.scope === "bible" || info.scope.includes(book));
  };
  return {
    info: findCommentary,
    covers,
    sections(id, book, chapter, from, to = from) {
      if (!covers(id, book)) return [];
      return books(`${id}/${book}`).sections(chapter, from, to);
    },
  };
}
