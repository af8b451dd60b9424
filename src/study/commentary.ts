/** Commentary sections per book (data/study/commentaries/<id>/<BOOK>.json.gz), read on first use. */
import { keyedCache, readGzipJson } from "./data.js";
import { findCommentary, type CommentaryInfo } from "./commentaries.js";

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
 * A book's sections as read, their texts kept as UTF-8 in one buffer outside the V8 heap and decoded when
 * a chapter is asked for: the Treasury of David's Psalms alone held 18 MB of heap as strings (a third
 * of its sections are two-byte strings, for a curly quote or a dash), 12 MB this way; heap the garbage
 * collector also lets grow by half again before it collects.
 */
class BookSections {
  private readonly heads: [chapter: number, verseStart: number, verseEnd: number, title: string | null][];
  private readonly texts: Buffer;
  private readonly offsets: Int32Array;

  constructor(rows: readonly SectionRow[]) {
    this.heads = rows.map(([chapter, from, to, title]) => [chapter, from, to, title]);
    this.offsets = new Int32Array(rows.length + 1);
    rows.forEach(([, , , , text], i) => (this.offsets[i + 1] = this.offsets[i]! + Buffer.byteLength(text, "utf8")));
    this.texts = Buffer.allocUnsafeSlow(this.offsets[rows.length]!);
    rows.forEach(([, , , , text], i) => this.texts.write(text, this.offsets[i]!, "utf8"));
  }

  /** Sections of the chapter that cover any verse of from..to (all of them when from is undefined), in file order. */
  sections(chapter: number, from: number | undefined, to: number | undefined): CommentarySection[] {
    const out: CommentarySection[] = [];
    for (let i = 0; i < this.heads.length; i++) {
      const [c, verseStart, verseEnd, title] = this.heads[i]!;
      if (c !== chapter || !(from === undefined || verseStart === 0 || (verseStart <= (to ?? from) && verseEnd >= from))) continue;
      out.push({ chapter: c, verseStart, verseEnd, title, text: this.texts.toString("utf8", this.offsets[i]!, this.offsets[i + 1]!) });
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
