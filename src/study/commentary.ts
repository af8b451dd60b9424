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

export function createCommentaries(dir: string): Commentaries {
  const rows = keyedCache((key) => readGzipJson<SectionRow[]>(dir, `commentaries/${key}.json.gz`) ?? []);
  const covers = (id: string, book: string) => {
    const info = findCommentary(id);
    return info !== undefined && (info.scope === "bible" || info.scope.includes(book));
  };
  return {
    info: findCommentary,
    covers,
    sections(id, book, chapter, from, to = from) {
      if (!covers(id, book)) return [];
      return rows(`${id}/${book}`)
        .filter(([c, start, end]) => c === chapter && (from === undefined || start === 0 || (start <= (to ?? from) && end >= from)))
        .map(([c, verseStart, verseEnd, title, text]) => ({ chapter: c, verseStart, verseEnd, title, text }));
    },
  };
}
