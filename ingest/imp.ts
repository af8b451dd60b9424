/**
 * Reading `mod2imp` output, shared by the Bible export (export-sword.ts) and the study export
 * (export-study.ts and its study-*.ts parts), which sit above it.
 */
import { findBook } from "../src/scripture/books.js";

export interface ImpEntry {
  key: string;
  body: string;
}

/** Splits `mod2imp` output into `$$$key` entries. */
export function parseImp(imp: string): ImpEntry[] {
  const entries: ImpEntry[] = [];
  for (const chunk of imp.split(/^\$\$\$/m).slice(1)) {
    const newline = chunk.indexOf("\n");
    const key = (newline < 0 ? chunk : chunk.slice(0, newline)).trim();
    const body = newline < 0 ? "" : chunk.slice(newline + 1);
    entries.push({ key, body });
  }
  return entries;
}

export interface VerseKey {
  book: string;
  chapter: number;
  verse: number;
}

export function verseKey(key: string): VerseKey | undefined {
  const match = /^(.+) (\d+):(\d+)$/.exec(key);
  if (match === null) return undefined;
  const book = findBook(match[1] ?? "");
  if (book === undefined) return undefined;
  return { book: book.id, chapter: Number(match[2]), verse: Number(match[3]) };
}
