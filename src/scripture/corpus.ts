/**
 * The shipped Bible texts (data/bibles/<id>.json, written by ingest/export-sword.ts), each loaded once
 * (the default translation at start-up, the others on first use) and read synchronously afterwards.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { bookById, type Book } from "./books.js";
import { DEFAULT_TRANSLATION_ID, TRANSLATIONS } from "./translations.js";

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

/**
 * Where, inside a verse's text, the printed layout changes. `at` is an offset into VerseText.text
 * (0 = before its first character; the text's length = after its last). See docs/corpus.md.
 * - paragraph: a prose paragraph starts;
 * - stanza: a group of poetic lines starts (a blank line before it); a line mark follows at the same offset;
 * - line: a poetic line starts, indented `indent` levels (1 = flush; 2 and 3 = continuation lines);
 * - selah: a "Selah." line starts (set apart, like a line of indent 3);
 * - stanza-end: the line group ends; what follows is prose until the next mark.
 * Between marks the text continues as it was (a poetic line may run into the next verse).
 */
export type LayoutMark =
  | { at: number; kind: "paragraph" | "stanza" | "selah" | "stanza-end" }
  | { at: number; kind: "line"; indent: number };

export interface VerseLayout {
  verse: number;
  marks: LayoutMark[];
}

export interface ChapterLayout {
  /** Headings printed before a verse: the WEB's "BOOK 2" before Psalm 42:1, Psalm 119's stanza letters. */
  headings: { verse: number; text: string }[];
  /** Only the verses that have marks, in order. */
  verses: VerseLayout[];
}

export interface Bible {
  readonly id: string;
  readonly name: string;
  readonly language: string;
  chapter(bookId: string, chapter: number): ChapterText | undefined;
  /** Verses from..to inclusive (to defaults to from) that the translation has; [] when none. */
  verses(bookId: string, chapter: number, from: number, to?: number): VerseText[];
  /**
   * The printed layout of a chapter (paragraphs, stanzas, poetic lines, headings), optional data beside the
   * plain text; undefined when the translation has no layout data or no such chapter. Loaded on first use.
   */
  layout(bookId: string, chapter: number): ChapterLayout | undefined;
  /** Whether the translation has the book at all (KJV and RV1909 have no deuterocanon). */
  hasBook(bookId: string): boolean;
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

/** The layout sidecar: per chapter `null` or {h: [[verse, heading]], m: {verse: "0g 0l1 24l2"}}. */
interface LayoutFile {
  id: string;
  books: Record<string, ({ h?: [number, string][]; m: Record<string, string> } | null)[]>;
}

const MARK_KINDS: Readonly<Record<string, LayoutMark["kind"]>> = { p: "paragraph", g: "stanza", e: "stanza-end", s: "selah" };

function decodeMark(token: string): LayoutMark {
  const match = /^(\d+)([a-z])(\d?)$/.exec(token);
  if (match === null) throw new Error(`bad layout mark ${token}`);
  const at = Number(match[1]);
  if (match[2] === "l") return { at, kind: "line", indent: Number(match[3] || "1") };
  const kind = MARK_KINDS[match[2] ?? ""];
  if (kind === undefined) throw new Error(`bad layout mark ${token}`);
  return { at, kind } as LayoutMark;
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

type ChapterArray = [string | null, ...string[]];

class LoadedBible implements Bible {
  readonly id: string;
  readonly name: string;
  readonly language: string;
  private readonly books: BibleFile["books"];
  private readonly extraPath: string | undefined;
  private extraBooks: BibleFile["books"] | undefined;
  private readonly layoutPath: string | undefined;
  private layoutFile: LayoutFile | null | undefined;
  private readonly decoded = new Map<string, ChapterLayout>();

  constructor(file: BibleFile, paths: { extra?: string; layout?: string } = {}) {
    this.id = file.id;
    this.name = file.name;
    this.language = file.language;
    this.books = file.books;
    this.extraPath = paths.extra;
    this.layoutPath = paths.layout;
  }

  // The deuterocanon (about 0.9 MB for the WEB) loads on first use, so start-up pays only for the 66.
  private bookChapters(book: Book): ChapterArray[] | undefined {
    if (book.canon === "common") return this.books[book.id];
    if (this.extraPath === undefined) return undefined;
    this.extraBooks ??= readBibleFile(this.extraPath).books;
    return this.extraBooks[book.id];
  }

  hasBook(bookId: string): boolean {
    const book = bookById(bookId);
    return book !== undefined && (this.bookChapters(book)?.length ?? 0) > 0;
  }

  private raw(bookId: string, chapter: number): { book: string; data: ChapterArray } | undefined {
    const book = bookById(bookId);
    if (book === undefined || !Number.isInteger(chapter) || chapter < 1) return undefined;
    const data = this.bookChapters(book)?.[chapter - 1];
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

  layout(bookId: string, chapter: number): ChapterLayout | undefined {
    const raw = this.raw(bookId, chapter);
    if (raw === undefined || this.layoutPath === undefined) return undefined;
    if (this.layoutFile === undefined) {
      const parsed: unknown = JSON.parse(gunzipSync(readFileSync(this.layoutPath)).toString("utf8"));
      const file = parsed as Partial<LayoutFile>;
      if (typeof file !== "object" || file === null || typeof file.books !== "object" || file.books === null) {
        throw new Error(`${this.layoutPath} is not a layout file`);
      }
      this.layoutFile = file as LayoutFile;
    }
    const key = `${raw.book} ${chapter}`;
    const known = this.decoded.get(key);
    if (known !== undefined) return known;
    const data = this.layoutFile?.books[raw.book]?.[chapter - 1];
    const layout: ChapterLayout =
      data === undefined || data === null
        ? { headings: [], verses: [] }
        : {
            headings: (data.h ?? []).map(([verse, text]) => ({ verse, text })),
            verses: Object.entries(data.m)
              .map(([verse, marks]) => ({ verse: Number(verse), marks: marks.split(" ").map(decodeMark) }))
              .sort((a, b) => a.verse - b.verse),
          };
    // Decoded once per chapter and shared, so frozen.
    deepFreeze(layout);
    this.decoded.set(key, layout);
    return layout;
  }
}

function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}

function collect(texts: readonly string[], from: number, to: number): VerseText[] {
  const verses: VerseText[] = [];
  for (let verse = from; verse <= Math.min(to, texts.length); verse += 1) {
    const text = texts[verse - 1];
    if (text !== undefined && text !== "") verses.push({ verse, text });
  }
  return verses;
}

function readBibleFile(path: string): BibleFile {
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!isBibleFile(parsed)) throw new Error(`${path} is not a Bible data file`);
  return parsed;
}

/**
 * Loads `<id>.json`; `<id>.deuterocanon.json` and `<id>.layout.json.gz` beside it, when present, are
 * read on first use.
 */
export function loadBible(path: string): Bible {
  const base = path.replace(/\.json$/, "");
  const optional = (file: string) => (existsSync(file) ? file : undefined);
  return new LoadedBible(readBibleFile(path), {
    extra: optional(`${base}.deuterocanon.json`),
    layout: optional(`${base}.layout.json.gz`),
  });
}

/**
 * The shipped translations (or the given ids) from dir. The default translation is read now (search ranks
 * on it and most requests ask for it); each other one on its first use (about 40-60 ms, once), so start-up
 * and memory pay only for what is asked for. A missing file still fails here, at start-up.
 */
export function loadBibleLibrary(
  options: { dir?: string; ids?: readonly string[] } = {},
): BibleLibrary {
  const dir = options.dir ?? DEFAULT_BIBLES_DIR;
  const ids = options.ids ?? TRANSLATIONS.map((translation) => translation.id);
  const paths = new Map(ids.map((id) => [id, join(dir, `${id}.json`)]));
  for (const path of paths.values()) {
    if (!existsSync(path)) throw new Error(`${path} is missing (the Bible data files ship in data/bibles)`);
  }
  const bibles = new Map<string, Bible>();
  const get = (bibleId: string): Bible | undefined => {
    const known = bibles.get(bibleId);
    if (known !== undefined) return known;
    const path = paths.get(bibleId);
    if (path === undefined) return undefined;
    const bible = loadBible(path);
    bibles.set(bibleId, bible);
    return bible;
  };
  if (paths.has(DEFAULT_TRANSLATION_ID)) get(DEFAULT_TRANSLATION_ID);
  return {
    get,
    ids: () => [...paths.keys()],
  };
}
