/**
 * Exports the shipped translations from Debian's SWORD modules (via `mod2imp`) into
 * data/bibles/<id>.json: the 66-book canon as plain text, markup stripped here rather than with
 * `mod2imp -s`, which glues words where a footnote was cut ("Godcreated").
 *
 * Run: npm run ingest:export
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BOOKS, findBook } from "../src/scripture/books.js";
import { findTranslation } from "../src/scripture/translations.js";

/** One chapter: index 0 is the superscription (or null), index v is verse v ("" when the module has none). */
export type ChapterData = [string | null, ...string[]];

export interface BibleData {
  id: string;
  name: string;
  language: string;
  source: { module: string; version: string; versification: string };
  books: Record<string, ChapterData[]>;
}

const SOURCES = [
  { id: "eng-web", module: "engWEB2015eb" },
  { id: "eng-kjv", module: "engKJV2006eb" },
  { id: "spa-rv1909", module: "spaRV1909eb" },
] as const;

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "data", "bibles");
const SWORD_CONF_DIR = "/usr/share/sword/mods.d";

// Removed markup leaves this mark; it becomes a space only where a space belongs (see resolveBoundaries).
const BOUNDARY = "\u0001";
// Tags inside a word run ("<w>LORD</w>’s"): removing them must not add a space.
const INLINE_TAGS = new Set(["w", "transChange", "divineName", "q", "seg", "foreign", "name", "hi", "rdg"]);
// The end of a book's div: anything after it (the WEB glossary after Rev 22:21) is not scripture.
const BOOK_END = /<div\b(?=[^>]*\btype="book")(?=[^>]*\beID=)[^>]*\/>/;
const NOTE = /<note\b[^>]*\/>|<note\b[^>]*>[\s\S]*?<\/note>/g;
const TITLE = /<title\b([^>]*)\/>|<title\b([^>]*)>([\s\S]*?)<\/title>/g;
const TAG = /<\/?([A-Za-z]+)\b[^>]*>/g;
// Psalm 119's acrostic letters (ALEPH, BETH, ...) are marked canonical by the WEB but head stanzas, not the psalm.
const ACROSTIC_LETTER = /^[A-Z]+$/;

// The RV1909 module sets supplied words (<transChange>) flush against the neighbouring <w>
// ("madre</w><transChange>fué</transChange><w>Abi"): they are separate words, except an enclitic
// pronoun that completes the verb before it ("oyéndo</w><transChange>lo").
const SUPPLIED_AFTER_WORD = /(\p{L}*)<\/w><transChange\b[^>]*>([^<]*)(?=<)/gu;
const SUPPLIED_BEFORE_WORD = /<\/transChange>(?=<w\b)/g;
const ENCLITICS = new Set(["lo", "la", "los", "las", "le", "les", "me", "te", "se", "nos", "os"]);
// Words seen before a supplied pronoun that are not verbs, so the pronoun stands alone.
const NOT_VERBS = new Set(["y", "que", "no", "os", "como", "cuánto", "ellos", "gentes", "josué", "jehová", "dios"]);

function separateSuppliedWords(osis: string): string {
  return osis
    .replace(SUPPLIED_BEFORE_WORD, `</transChange>${BOUNDARY}`)
    .replace(SUPPLIED_AFTER_WORD, (_, word: string, supplied: string) =>
      ENCLITICS.has(supplied) && word !== "" && !NOT_VERBS.has(word.toLowerCase())
        ? `${word}${supplied}`
        : `${word}${BOUNDARY}${supplied}`,
    );
}

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name] ?? "");
}

function removeTags(text: string): string {
  return text.replace(TAG, (_, name: string) => (INLINE_TAGS.has(name) ? "" : BOUNDARY));
}

/**
 * A boundary between two words becomes one space; next to punctuation that hugs a word
 * (closing after, opening before) it disappears, so "earth<note/>." stays "earth.".
 */
function resolveBoundaries(text: string): string {
  return text
    .replace(/[\s\u0001]*\u0001[\s\u0001]*(?=[,.;:!?)\]”’»…])/gu, "")
    .replace(/([“‘(\[¿¡«])[\s\u0001]*\u0001[\s\u0001]*/gu, "$1")
    .replace(/[\s\u0001]+/gu, " ")
    .trim();
}

// USFM character markers the KJV module leaked into its text ("the \nd LORD\+nd*"): start markers
// carry a space, end markers a star.
const USFM_MARKER = /\\\+?[a-z]+\d*(?:\*|\s)/g;

function clean(text: string): string {
  // The KJV's pilcrows are paragraph marks of the 1769 printing, not words; they only add noise.
  const plain = decodeEntities(removeTags(text)).replace(USFM_MARKER, "").replace(/¶/g, BOUNDARY);
  return resolveBoundaries(plain);
}

export interface StrippedVerse {
  text: string;
  /** Canonical psalm titles found in the entry, in order. */
  psalmTitles: string[];
}

/** Turns one verse entry of OSIS markup into plain text. */
export function stripOsis(osis: string): StrippedVerse {
  const end = osis.search(BOOK_END);
  const body = end >= 0 ? osis.slice(0, end) : osis;
  const psalmTitles: string[] = [];
  const withoutTitles = separateSuppliedWords(body)
    .replace(NOTE, BOUNDARY)
    .replace(TITLE, (_, _selfAttrs: string | undefined, attrs: string | undefined, inner: string | undefined) => {
      if (attrs !== undefined && inner !== undefined && /type="psalm"/.test(attrs) && /canonical="true"/.test(attrs)) {
        const title = clean(inner);
        if (title !== "") psalmTitles.push(title);
      }
      return BOUNDARY;
    });
  return { text: clean(withoutTitles), psalmTitles };
}

interface ImpEntry {
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

export interface ExportStats {
  versesWithText: number;
  emptyVerses: string[];
  skippedBooks: string[];
}

/** Builds the 66-book data from `mod2imp` output; deuterocanonical books are skipped and reported. */
export function buildBooks(imp: string): { books: Record<string, ChapterData[]>; stats: ExportStats } {
  const books: Record<string, ChapterData[]> = {};
  const skipped = new Set<string>();
  const emptyVerses: string[] = [];
  let versesWithText = 0;
  for (const { key, body } of parseImp(imp)) {
    const match = /^(.+) (\d+):(\d+)$/.exec(key);
    if (match === null) continue;
    const [, swordName = "", chapterText = "", verseText = ""] = match;
    const chapter = Number(chapterText);
    const verse = Number(verseText);
    // Chapter 0 and verse 0 hold introductions and front matter.
    if (chapter === 0 || verse === 0) continue;
    const book = findBook(swordName);
    if (book === undefined) {
      skipped.add(swordName);
      continue;
    }
    const chapters = (books[book.id] ??= []);
    const data: ChapterData = (chapters[chapter - 1] ??= [null]);
    const { text, psalmTitles } = stripOsis(body);
    const superscription = psalmTitles.filter((title) => !ACROSTIC_LETTER.test(title)).join(" ");
    if (verse === 1 && superscription !== "") data[0] = superscription;
    data[verse] = text;
    if (text === "") emptyVerses.push(`${book.id} ${chapter}:${verse}`);
    else versesWithText += 1;
  }
  for (const chapters of Object.values(books)) {
    for (const [index, data] of chapters.entries()) {
      if (data === undefined) throw new Error(`missing chapter ${index + 1}`);
      for (let v = 1; v < data.length; v += 1) data[v] ??= "";
      // Trailing empty verses are slots of the module's versification that this translation leaves out.
      while (data.length > 1 && data[data.length - 1] === "") data.pop();
    }
  }
  return { books, stats: { versesWithText, emptyVerses, skippedBooks: [...skipped] } };
}

function readConf(module: string): Record<string, string> {
  const conf = readFileSync(join(SWORD_CONF_DIR, `${module}.conf`), "utf8");
  const fields: Record<string, string> = {};
  for (const line of conf.split("\n")) {
    const match = /^(\w+)=(.*)$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined && fields[match[1]] === undefined) fields[match[1]] = match[2];
  }
  return fields;
}

function orderedBooks(books: Record<string, ChapterData[]>): Record<string, ChapterData[]> {
  return Object.fromEntries(BOOKS.map((book) => [book.id, books[book.id] ?? []]));
}

/** One chapter per line: loads as plain JSON, and a re-export shows up in git as a readable diff. */
export function serializeBible(data: BibleData): string {
  const { books, ...head } = data;
  const header = JSON.stringify(head).slice(0, -1);
  const bookBlocks = Object.entries(books).map(
    ([id, chapters]) => `${JSON.stringify(id)}:[\n${chapters.map((chapter) => JSON.stringify(chapter)).join(",\n")}\n]`,
  );
  return `${header},"books":{\n${bookBlocks.join(",\n")}\n}}\n`;
}

// A drop-capped first word ("JEHOVÁ es", "¡OH Jehová", "A TI") starts the psalm proper.
const INLINE_PSALM_TITLE = /^(.+?[.:;,?!])\s+((?:[¡¿]?|A )\p{Lu}{2,}(?=[\s,;:!?.]).*)$/u;

/**
 * The RV1909 module has no title markup: a psalm's title opens verse 1 as plain text. It is split off
 * for the psalms that carry a title in a translation that marks them, and only where the drop cap
 * shows where the psalm proper starts; anything else is left whole.
 */
export function splitInlinePsalmTitles(books: Record<string, ChapterData[]>, titled: ReadonlySet<number>): number {
  let split = 0;
  for (const [index, data] of (books.PSA ?? []).entries()) {
    const match = titled.has(index + 1) && data[0] === null ? INLINE_PSALM_TITLE.exec(data[1] ?? "") : null;
    if (match?.[1] === undefined || match[2] === undefined) continue;
    data[0] = match[1];
    data[1] = match[2];
    split += 1;
  }
  return split;
}

// "... Amén. Fué escrita de Corinto á los Romanos, enviada por medio de Febe ..."
const SUBSCRIPTION = /^(.*\bAmén\.)\s+(?=.*\b(?:[Ee]scrita|[Ee]nviada)\b)(.+)$/su;

/**
 * The RV1909 module ends 14 epistles with their traditional subscription (where and by whom it was
 * sent) as plain text in the last verse; it is not scripture and the other modules leave it out.
 */
export function dropSubscriptions(books: Record<string, ChapterData[]>): string[] {
  const dropped: string[] = [];
  for (const [id, chapters] of Object.entries(books)) {
    const last = chapters.at(-1);
    const match = last === undefined ? null : SUBSCRIPTION.exec(last.at(-1) ?? "");
    if (last === undefined || match?.[1] === undefined || match[2] === undefined) continue;
    last[last.length - 1] = match[1];
    dropped.push(`${id}: ${match[2]}`);
  }
  return dropped;
}

function titledPsalms(books: Record<string, ChapterData[]>): Set<number> {
  return new Set((books.PSA ?? []).flatMap((data, index) => (data[0] === null ? [] : [index + 1])));
}

function exportTranslation(id: string, module: string, titled: Set<number>): void {
  const translation = findTranslation(id);
  if (translation === undefined) throw new Error(`unknown translation ${id}`);
  const imp = execFileSync("mod2imp", [module], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const { books, stats } = buildBooks(imp);
  const missing = BOOKS.filter((book) => books[book.id] === undefined).map((book) => book.id);
  if (missing.length > 0) throw new Error(`${module} lacks books: ${missing.join(", ")}`);
  const marked = titledPsalms(books);
  let notes = ` ${marked.size} psalm titles marked`;
  if (marked.size === 0) notes = ` ${splitInlinePsalmTitles(books, titled)} of ${titled.size} psalm titles split from verse 1`;
  else marked.forEach((psalm) => titled.add(psalm));
  const subscriptions = dropSubscriptions(books);
  if (subscriptions.length > 0) notes += `; ${subscriptions.length} epistle subscriptions dropped`;
  const conf = readConf(module);
  const data: BibleData = {
    id,
    name: translation.name,
    language: translation.language,
    source: { module, version: conf.Version ?? "unknown", versification: conf.Versification ?? "KJV" },
    books: orderedBooks(books),
  };
  const json = serializeBible(data);
  writeFileSync(join(OUT_DIR, `${id}.json`), json);
  const empty = stats.emptyVerses.length > 0 ? ` empty: ${stats.emptyVerses.join(", ")}` : "";
  const skipped = stats.skippedBooks.length > 0 ? ` skipped books: ${stats.skippedBooks.length}` : "";
  console.log(`${id}: ${stats.versesWithText} verses, ${Buffer.byteLength(json)} bytes;${notes};${skipped}${empty}`);
}

function main(): void {
  mkdirSync(OUT_DIR, { recursive: true });
  // Filled by the translations that mark their psalm titles, read by those that do not (exported after them).
  const titled = new Set<number>();
  for (const { id, module } of SOURCES) exportTranslation(id, module, titled);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
