import { ALL_BOOKS, chapterCount } from "../books.js";
import type { TitleEntry } from "./titles.js";
import type { ChapterSource, Passage } from "./types.js";

export interface WindowOptions {
  size: number;
  stride: number;
}

export const DEFAULT_WINDOWS: WindowOptions = { size: 6, stride: 3 };

function titlesByChapter(titles: readonly TitleEntry[]) {
  const map = new Map<string, { from: number; to: number; names: string[] }[]>();
  for (const t of titles) {
    for (const r of t.ranges) {
      for (let c = r.chapter; c <= r.chapterEnd; c++) {
        const key = `${r.book}.${c}`;
        const from = c === r.chapter ? r.verseStart : 1;
        const to = c === r.chapterEnd ? r.verseEnd : Number.MAX_SAFE_INTEGER;
        let list = map.get(key);
        if (!list) map.set(key, (list = []));
        list.push({ from, to, names: t.names });
      }
    }
  }
  return map;
}

/**
 * Cuts every chapter into overlapping verse windows. A short chapter is one window; the last window
 * is anchored at the chapter's end so no verse is left out. Titles of well-known passages are appended
 * to the windows they overlap: the WEB has no headings, and "the Good Samaritan" is not in its text.
 * Concepts (concepts.ts) become the `tags` of the windows that teach them: keyword-matched, but kept out
 * of the text the dense vectors are trained on and out of BM25's length normalisation.
 */
export function buildPassages(bible: ChapterSource, titles: readonly TitleEntry[], options = DEFAULT_WINDOWS, concepts: readonly TitleEntry[] = []): Passage[] {
  const byChapter = titlesByChapter(titles);
  const tagsByChapter = titlesByChapter(concepts);
  const out: Passage[] = [];
  // The 66 first, then the deuterocanon where the Bible has it: each canon section stays contiguous.
  for (const book of ALL_BOOKS) {
    for (let c = 1; c <= chapterCount(book); c++) {
      const ch = bible.chapter(book.id, c);
      if (!ch || ch.verses.length === 0) continue;
      const verses = ch.verses;
      const starts: number[] = [];
      for (let i = 0; i + options.size < verses.length; i += options.stride) starts.push(i);
      starts.push(Math.max(0, verses.length - options.size));
      const chapterTitles = byChapter.get(`${book.id}.${c}`) ?? [];
      for (const [k, i] of [...new Set(starts)].entries()) {
        const slice = verses.slice(i, i + options.size);
        const first = slice[0]!.verse;
        const last = slice[slice.length - 1]!.verse;
        const names = chapterTitles.filter((t) => t.from <= last && t.to >= first).flatMap((t) => t.names);
        const parts = slice.map((v) => v.text);
        if (k === 0 && ch.superscription) parts.unshift(ch.superscription);
        if (names.length > 0) parts.push(...new Set(names));
        const tags = (tagsByChapter.get(`${book.id}.${c}`) ?? []).filter((t) => t.from <= last && t.to >= first).flatMap((t) => t.names);
        out.push({
          id: `${book.id}.${c}.${first}-${last}`,
          book: book.id,
          chapter: c,
          verseStart: first,
          verseEnd: last,
          testament: book.testament,
          text: parts.join(" "),
          ...(tags.length > 0 ? { tags: [...new Set(tags)].join(" ") } : {}),
        });
      }
    }
  }
  return out;
}
