/**
 * The shipped Bible texts (data/bibles/<id>.json, written by ingest/export-sword.ts), loaded once
 * at start-up and read synchronously afterwards.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bookById } from "./books.js";
import { TRANSLATIONS } from "./translations.js";

export interface VerseText {
  verse: number;
  text: string;
}

export interface ChapterText {
  /** USFM id. */
  book: string;
  chapter: number;
  /** A psalm's canonical title ("A Psalm by David, when he fled from Absalom his son."). */
  superscription?: string;
  /** In order; verses the translation leaves out (WEB Luke 17:36) are absent, not empty. */
  verses: VerseText[];
}

export interface Bible {
  readonly id: string;
  readonly name: string;
  readonly language: string;
  chapter(bookId: string, chapter: number): ChapterText | undefined;
  /** Verses from..to inclusive (to defaults to from) that the translation has; [] when none. */
  verses(bookId: string, chapter: number, from: number, to?: number): VerseText[];
}

export interface BibleLibrary {
  get(bibleId: string): Bible | undefined;
  ids(): string[];
}

/** The file format: chapters[c - 1] = [superscription | null, verse 1, verse 2, ...], "" for a missing verse. */
interface BibleFile {
  id: string;
  name: string;
  language: string;
  books: Record<string, [string | null, ...string[]][]>;
}

/** Resolved from this file, not the working directory, so scripts and tests run from anywhere. */
export const DEFAULT_BIBLES_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "data", "bibles");

function isBibleFile(value: unknown): value is BibleFile {
  if (typeof value !== "object" || value === null) return false;
  const file = value as Partial<BibleFile>;
  return (
    typeof file.id === "string" &&
    typeof file.name === "string" &&
    typeof file.language === "string" &&
    typeof file.books === "object" &&
    file.books !== null
  );
}

class LoadedBible implements Bible {
  readonly id: string;
  readonly name: string;
  readonly language: string;
  private readonly books: BibleFile["books"];

  constructor(file: BibleFile) {
    this.id = file.id;
    this.name = file.name;
    this.language = file.language;
    this.books = file.books;
  }

  private raw(bookId: string, chapter: number): { book: string; data: [string | null, ...string[]] } | undefined {
    const book = bookById(bookId);
    if (book === undefined || !Number.isInteger(chapter) || chapter < 1) return undefined;
    const data = this.books[book.id]?.[chapter - 1];
    return data === undefined ? undefined : { book: book.id, data };
  }

  chapter(bookId: string, chapter: number): ChapterText | undefined {
    const raw = this.raw(bookId, chapter);
    if (raw === undefined) return undefined;
    const [superscription, ...texts] = raw.data;
    const text: ChapterText = { book: raw.book, chapter, verses: collect(texts, 1, texts.length) };
    if (superscription !== null) text.superscription = superscription;
    return text;
  }

  verses(bookId: string, chapter: number, from: number, to: number = from): VerseText[] {
    const raw = this.raw(bookId, chapter);
    if (raw === undefined) return [];
    const [, ...texts] = raw.data;
    return collect(texts, Math.max(1, from), to);
  }
}

function collect(texts: readonly string[], from: number, to: number): VerseText[] {
  const verses: VerseText[] = [];
  for (let verse = from; verse <= Math.min(to, texts.length); verse += 1) {
    const text = texts[verse - 1];
    if (text !== undefined && text !== "") verses.push({ verse, text });
  }
  return verses;
}

export function loadBible(path: string): Bible {
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!isBibleFile(parsed)) throw new Error(`${path} is not a Bible data file`);
  return new LoadedBible(parsed);
}

/** Loads the shipped translations (or the given ids) from dir; a missing file fails fast. */
export function loadBibleLibrary(
  options: { dir?: string; ids?: readonly string[] } = {},
): BibleLibrary {
  const dir = options.dir ?? DEFAULT_BIBLES_DIR;
  const ids = options.ids ?? TRANSLATIONS.map((translation) => translation.id);
  const bibles = new Map<string, Bible>(ids.map((id) => [id, loadBible(join(dir, `${id}.json`))]));
  return {
    get: (bibleId) => bibles.get(bibleId),
    ids: () => [...bibles.keys()],
  };
}
