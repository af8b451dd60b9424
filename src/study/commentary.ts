/** Commentary sections per book (data/study/commentaries/<id>/<BOOK>.json.gz), read on first use. */
import { jsonArrayItems, keyedCache, readGzip } from "./data.js";
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
  private readonly heads: [chapter: number, verseStart: number, verseEnd: number, title: string | null][] = [];
  /** Per chapter, its packed streams: each the JSON array of the texts of a run of its sections, in file order. */
  private readonly streams = new Map<number, number[]>();
  private readonly texts: PackedTexts;

  /** `json`: the book's file, a JSON array of SectionRow, read a row at a time (data.ts jsonArrayItems). */
  constructor(json: Buffer) {
    const heads = this.heads;
    const streams = this.streams;
    function* runs(): Generator<string> {
      let run: string[] = [];
      let chapter: number | undefined;
      let stream = 0;
      const flush = (): string | undefined => {
        if (chapter === undefined) return undefined;
        (streams.get(chapter) ?? streams.set(chapter, []).get(chapter)!).push(stream++);
        const text = JSON.stringify(run);
        run = [];
        return text;
      };
      for (const item of jsonArrayItems(json)) {
        const [c, from, to, title, text] = JSON.parse(item) as SectionRow;
        if (c !== chapter) {
          const done = flush();
          if (done !== undefined) yield done;
          chapter = c;
        }
        heads.push([c, from, to, title]);
        run.push(text);
      }
      const done = flush();
      if (done !== undefined) yield done;
    }
    this.texts = new PackedTexts(runs());
  }

  /** Sections of the chapter that cover any verse of from..to (all of them when from is undefined), in file order. */
  sections(chapter: number, from: number | undefined, to: number | undefined): CommentarySection[] {
    const streams = this.streams.get(chapter);
    if (streams === undefined) return [];
    const texts = streams.flatMap((i) => JSON.parse(this.texts.get(i)!) as string[]);
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
  const books = keyedCache((key) => new BookSections(readGzip(dir, `commentaries/${key}.json.gz`) ?? Buffer.from("[]")));
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
