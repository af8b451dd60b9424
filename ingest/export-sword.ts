/**
 * Exports the shipped translations from Debian's SWORD modules (via `mod2imp`) into
 * data/bibles/<id>.json: the 66-book canon as plain text, markup stripped here rather than with
 * `mod2imp -s`, which glues words where a footnote was cut ("Godcreated").
 *
 * Run: npm run ingest:export
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ALL_BOOKS, BOOKS, bookById, findBook } from "../src/scripture/books.js";
import { findTranslation } from "../src/scripture/translations.js";
import { parseImp } from "./imp.js";

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
const ACROSTIC_LETTER = /^[A-Z]+(?: AND [A-Z]+)?$/; // "SIN AND SHIN" (119:161)

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

// The end of a quotation (the WEB's words of Jesus, `...me?”</q><w>He</w> said`) is a word boundary: the
// module sets the next sentence flush against it (19 verses glued "me?”He"), or leaves a space before the
// punctuation that closes an outer quote or question ("me?’</q> ”", "come’</q> ?”"); as a boundary it
// gives "me?” He", "me?’”" and "come’?”", as the WEB prints them everywhere else.
const QUOTE_END = "</q>";

function removeTags(text: string): string {
  return text.replace(TAG, (tag: string, name: string) => (INLINE_TAGS.has(name) && tag !== QUOTE_END ? "" : BOUNDARY));
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
  /** Canonical psalm titles found in the entry, in order (acrostic letters excluded). */
  psalmTitles: string[];
  /** Headings that stand before the entry's text (the WEB's "BOOK 2", Psalm 119's letters). */
  headings: string[];
  /** Layout marks: where paragraphs, stanzas and poetic lines start, as offsets into text. */
  marks: LayoutMark[];
}

/**
 * A layout mark: `at` is an offset into the verse text; `code` is "p" (a paragraph starts), "g" (a stanza,
 * OSIS <lg>, starts), "e" (a stanza ends; prose follows), "l1".."l3" (a poetic line starts, with its
 * indent level) or "s" (a "Selah" line starts). See docs/corpus.md.
 */
export type LayoutMark = [at: number, code: string];

// Milestones of paragraphs (<div type="x-p" sID>), stanzas (<lg sID/eID>) and lines (<l sID>).
const LAYOUT_TAG = /<div\b(?=[^>]*\btype="x-p")(?=[^>]*\bsID=)[^>]*\/>|<lg\b[^>]*\/>|<l\b(?=[^>]*\bsID=)[^>]*\/>/g;

function layoutCode(tag: string): string {
  if (tag.startsWith("<div")) return "p";
  if (tag.startsWith("<lg")) return /\bsID=/.test(tag) ? "g" : "e";
  if (/\btype="selah"/.test(tag)) return "s";
  return `l${/\blevel="(\d)"/.exec(tag)?.[1] ?? "1"}`;
}

function isHeadingTitle(attrs: string): boolean {
  return !/\btype="(?:main|x-introduction|psalm)"/.test(attrs);
}

/** The plain text of one entry's OSIS body (up to the book's end). */
function plainText(body: string): string {
  return clean(
    separateSuppliedWords(body)
      .replace(NOTE, BOUNDARY)
      .replace(TITLE, BOUNDARY),
  );
}

/** Turns one verse entry of OSIS markup into plain text, with its titles, headings and layout marks. */
export function stripOsis(osis: string): StrippedVerse {
  const end = osis.search(BOOK_END);
  const body = end >= 0 ? osis.slice(0, end) : osis;
  const psalmTitles: string[] = [];
  const headings: string[] = [];
  const withoutTitles = separateSuppliedWords(body)
    .replace(NOTE, BOUNDARY)
    .replace(TITLE, (_, _selfAttrs: string | undefined, attrs: string | undefined, inner: string | undefined) => {
      if (attrs !== undefined && inner !== undefined && /type="psalm"/.test(attrs) && /canonical="true"/.test(attrs)) {
        const title = clean(inner);
        // Psalm 119's acrostic letters (ALEPH, BETH, ...) are marked canonical by the WEB but head stanzas.
        if (ACROSTIC_LETTER.test(title)) headings.push(title);
        else if (title !== "") psalmTitles.push(title);
      }
      return BOUNDARY;
    });
  const text = clean(withoutTitles);
  // A heading stands before the entry's text; a title after it (the KJV's epistle subscriptions) is not one.
  for (const match of body.matchAll(TITLE)) {
    const attrs = match[2];
    const inner = match[3];
    if (attrs === undefined || inner === undefined || !isHeadingTitle(attrs)) continue;
    if (plainText(body.slice(0, match.index)) !== "") continue;
    const heading = clean(inner.replace(NOTE, BOUNDARY));
    if (heading !== "") headings.push(heading);
  }
  return { text, psalmTitles, headings, marks: layoutMarks(body, text) };
}

/**
 * The offset of each layout milestone in the final text: the text that follows a milestone is a suffix of
 * the verse's text, so the milestone sits where that suffix starts. (Cleaning is local, so the suffix
 * cleans to the same characters as inside the whole verse; a mismatch throws.)
 */
function layoutMarks(body: string, text: string): LayoutMark[] {
  const marks: LayoutMark[] = [];
  for (const match of body.matchAll(LAYOUT_TAG)) {
    const rest = plainText(body.slice(match.index));
    if (!text.endsWith(rest)) throw new Error(`layout mark does not align: ${JSON.stringify(rest.slice(0, 40))} in ${JSON.stringify(text.slice(0, 80))}`);
    marks.push([text.length - rest.length, layoutCode(match[0])]);
  }
  return marks;
}

export interface ExportStats {
  versesWithText: number;
  emptyVerses: string[];
  skippedBooks: string[];
}

/** A chapter's layout: headings before verses, and each verse's layout marks (see LayoutMark). */
export interface ChapterLayoutData {
  headings: [verse: number, text: string][];
  marks: Map<number, LayoutMark[]>;
  /** The verse texts the marks were measured on, to move them when a later step edits a verse. */
  measured: Map<number, string>;
}

export type BookLayouts = Record<string, ChapterLayoutData[]>;

// The names the WEB module gives books that our table spells otherwise.
const SWORD_NAMES: Readonly<Record<string, string>> = {
  "Esther (Greek)": "ESG",
  "Additional Psalm": "PS2",
  "Prayer of Manasses": "MAN",
};

/** Builds the books the table knows from `mod2imp` output; books it does not know are skipped and reported. */
export function buildBooks(imp: string): { books: Record<string, ChapterData[]>; layouts: BookLayouts; stats: ExportStats } {
  const books: Record<string, ChapterData[]> = {};
  const layouts: BookLayouts = {};
  const skipped = new Set<string>();
  const emptyVerses: string[] = [];
  let versesWithText = 0;
  for (const { key, body } of parseImp(imp)) {
    const match = /^(.+) (\d+):(\d+)$/.exec(key);
    if (match === null) continue;
    const [, swordName = "", chapterText = "", verseText = ""] = match;
    const chapter = Number(chapterText);
    const verse = Number(verseText);
    // Chapter 0 holds a book's introduction and front matter (the WEB preface).
    if (chapter === 0) continue;
    const alias = SWORD_NAMES[swordName];
    const book = alias === undefined ? findBook(swordName) : bookById(alias);
    if (book === undefined) {
      skipped.add(swordName);
      continue;
    }
    const stripped = stripOsis(body);
    const layout = ((layouts[book.id] ??= [])[chapter - 1] ??= { headings: [], marks: new Map(), measured: new Map() });
    if (verse === 0) {
      // Verse 0 holds what precedes verse 1: a heading ("BOOK 2"), a paragraph or stanza start.
      for (const heading of stripped.headings) layout.headings.push([1, heading]);
      const opening = stripped.marks.filter(([, code]) => code !== "e").map(([, code]): LayoutMark => [0, code]);
      if (opening.length > 0) layout.marks.set(1, [...opening, ...(layout.marks.get(1) ?? [])]);
      continue;
    }
    const chapters = (books[book.id] ??= []);
    const data: ChapterData = (chapters[chapter - 1] ??= [null]);
    const { text, psalmTitles } = stripped;
    const superscription = psalmTitles.join(" ");
    if (verse === 1 && superscription !== "") data[0] = superscription;
    data[verse] = text;
    for (const heading of stripped.headings) layout.headings.push([verse, heading]);
    if (stripped.marks.length > 0) layout.marks.set(verse, [...(layout.marks.get(verse) ?? []), ...stripped.marks]);
    layout.measured.set(verse, text);
    if (text !== "") versesWithText += 1;
  }
  for (const [bookId, chapters] of Object.entries(books)) {
    for (const [index, data] of chapters.entries()) {
      if (data === undefined) throw new Error(`missing chapter ${index + 1}`);
      for (let v = 1; v < data.length; v += 1) data[v] ??= "";
      // Trailing empty verses are slots of the module's versification that this translation leaves out.
      while (data.length > 1 && data[data.length - 1] === "") data.pop();
    }
    // So are trailing empty chapters (the NRSVA's Greek Esther 11-16, which the WEB numbers within 1-10).
    while (chapters.length > 0 && chapters[chapters.length - 1]?.length === 1) chapters.pop();
    chapters.forEach((data, index) => {
      data.forEach((text, verse) => {
        if (verse > 0 && text === "") emptyVerses.push(`${bookId} ${index + 1}:${verse}`);
      });
    });
  }
  return { books, layouts, stats: { versesWithText, emptyVerses, skippedBooks: [...skipped] } };
}

/**
 * Moves layout marks onto the final verse texts: a later step may cut a verse's start (a psalm title split
 * off, an acrostic letter made a heading) or end (an epistle subscription), or change case in place.
 * Marks on empty verses, or past a verse's end, go.
 */
export function settleLayouts(books: Record<string, ChapterData[]>, layouts: BookLayouts): void {
  for (const [bookId, chapters] of Object.entries(layouts)) {
    for (const [index, layout] of chapters.entries()) {
      if (layout === undefined) continue;
      const data = books[bookId]?.[index];
      for (const [verse, marks] of layout.marks) {
        const text = data?.[verse] ?? "";
        const measured = layout.measured.get(verse) ?? text;
        let shift = 0;
        if (text === "") {
          layout.marks.delete(verse);
          continue;
        }
        if (text.length !== measured.length) {
          // Case changes (drop caps) keep lengths, so compare without case.
          const [was, now] = [measured.toLowerCase(), text.toLowerCase()];
          if (was.endsWith(now)) shift = measured.length - text.length;
          else if (!was.startsWith(now)) throw new Error(`${bookId} ${index + 1}:${verse} changed in a way layout marks cannot follow`);
        }
        const settled: LayoutMark[] = [];
        for (const [at, code] of marks) {
          const moved = Math.max(0, at - shift);
          if (moved > text.length || (moved === text.length && code !== "e")) continue;
          if (!settled.some(([a, c]) => a === moved && c === code)) settled.push([moved, code]);
        }
        if (settled.length > 0) layout.marks.set(verse, settled);
        else layout.marks.delete(verse);
      }
      layout.headings = layout.headings.filter(([verse]) => (data?.[verse] ?? "") !== "");
    }
  }
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

/** The books of one canon section in table order, those the module has. */
function orderedBooks(books: Record<string, ChapterData[]>, canon: "common" | "deuterocanon"): Record<string, ChapterData[]> {
  return Object.fromEntries(
    ALL_BOOKS.filter((book) => book.canon === canon && books[book.id] !== undefined).map((book) => [book.id, books[book.id] ?? []]),
  );
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

// Psalm 119's stanza letters as the RV1909 spells them inside verses 1, 9, ... 169 ("ALEPH. BIENAVENTURADOS").
const HEBREW_LETTERS = new Set([
  "ALEPH", "BETH", "GIMEL", "DALETH", "HE", "VAU", "ZAIN", "CHETH", "TETH", "JOD", "CAPH", "LAMED", "MEM", "NUN",
  "SAMECH", "AIN", "PE", "TZADDI", "COPH", "RESH", "SIN", "SCHIN", "TAU",
]);

/**
 * The RV1909 module writes Psalm 119's acrostic letters as the first word of the stanza's first verse;
 * the WEB and KJV mark them as headings. They become headings here too, out of the verse text.
 */
export function liftAcrosticLetters(books: Record<string, ChapterData[]>, layouts: BookLayouts): number {
  const psalm = books.PSA?.[118];
  const layout = layouts.PSA?.[118];
  if (psalm === undefined || layout === undefined) return 0;
  let lifted = 0;
  for (let verse = 1; verse < psalm.length; verse += 8) {
    const match = /^(\p{Lu}+)\.?\s+(.+)$/su.exec(psalm[verse] ?? "");
    if (match?.[1] === undefined || match[2] === undefined || !HEBREW_LETTERS.has(match[1])) continue;
    psalm[verse] = match[2];
    if (!layout.headings.some(([v]) => v === verse)) layout.headings.push([verse, match[1]]);
    lifted += 1;
  }
  layout.headings.sort((a, b) => a[0] - b[0]);
  return lifted;
}

const LETTERS = /\p{L}+/gu;
const isAllCaps = (word: string) => /\p{Lu}/u.test(word) && !/\p{Ll}/u.test(word);

/**
 * The usual spelling of each word of the text, from where it stands inside a sentence (not after a
 * full stop, not first in a verse): "jehová" -> "Jehová", "aconteció" -> "aconteció".
 */
function usualSpellings(books: Record<string, ChapterData[]>): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const chapters of Object.values(books)) {
    for (const data of chapters) {
      for (const text of data.slice(1)) {
        const tokens = (text ?? "").split(" ");
        tokens.forEach((token, index) => {
          if (index === 0 || /[.!?:]$/.test(tokens[index - 1] ?? "")) return;
          for (const word of token.match(LETTERS) ?? []) {
            if (isAllCaps(word)) continue;
            const forms = counts.get(word.toLowerCase()) ?? new Map<string, number>();
            forms.set(word, (forms.get(word) ?? 0) + 1);
            counts.set(word.toLowerCase(), forms);
          }
        });
      }
    }
  }
  const usual = new Map<string, string>();
  for (const [lower, forms] of counts) usual.set(lower, [...forms].sort((a, b) => b[1] - a[1])[0]?.[0] ?? lower);
  return usual;
}

// A lead-in before the drop cap: "Aleluya. ALABARÉ", "Las sentencias de Salomón. EL hijo sabio".
const LEAD_IN = /^[^.!?]{1,40}[.!?] (?=[¡¿]?\p{Lu}{2})/u;

/**
 * The RV1909 module sets the first word (or words) of every chapter in capitals, a printer's drop cap
 * ("EN el principio", "Y ACONTECIÓ", "SI yo hablase"). They get normal case from the word's usual spelling
 * in the text ("JEHOVÁ es mi pastor" -> "Jehová es mi pastor"). Only the capitals that open a chapter's
 * first verse are touched: capitals elsewhere are the text's own (JEHOVÁ in Exodus 6:3, JAH, the
 * inscriptions "SANTIDAD Á JEHOVÁ", "MENE, MENE, TEKEL").
 */
export function normalizeDropCaps(books: Record<string, ChapterData[]>): number {
  const usual = usualSpellings(books);
  let changed = 0;
  for (const chapters of Object.values(books)) {
    for (const data of chapters) {
      const text = data[1];
      if (text === undefined || text === "") continue;
      const lead = LEAD_IN.exec(text)?.[0] ?? "";
      const tokens = text.slice(lead.length).split(" ");
      let run = 0;
      while (run < tokens.length && isAllCaps(tokens[run] ?? "")) run += 1;
      // "Y El ángel" (Judges 2:1): the module set only "Y" in capitals and capitalised the next word.
      const next = tokens[run] ?? "";
      if (run === 1 && /^\p{Lu}\p{Ll}+$/u.test(next) && usual.get(next.toLowerCase()) === next.toLowerCase()) {
        tokens[run] = next.toLowerCase();
      }
      // A drop cap is a word of two letters or more; "Y" alone is just a capital.
      if (!tokens.slice(0, run).some((token) => (token.match(LETTERS) ?? []).some((word) => word.length > 1))) {
        const normal = lead + tokens.join(" ");
        if (normal !== text) {
          data[1] = normal;
          changed += 1;
        }
        continue;
      }
      for (let index = 0; index < run; index += 1) {
        let first = index === 0;
        tokens[index] = (tokens[index] ?? "").replace(LETTERS, (word) => {
          const form = usual.get(word.toLowerCase()) ?? word.toLowerCase();
          const cased = first ? form.charAt(0).toUpperCase() + form.slice(1) : form;
          first = false;
          return cased;
        });
      }
      const normal = lead + tokens.join(" ");
      if (normal.length !== text.length) throw new Error(`case change altered the length of ${text}`);
      if (normal !== text) {
        data[1] = normal;
        changed += 1;
      }
    }
  }
  return changed;
}

/** True when most chapters open with an all-caps word: the module sets drop caps. */
function setsDropCaps(books: Record<string, ChapterData[]>): boolean {
  const chapters = Object.values(books).flat();
  const capped = chapters.filter((data) => /^[¡¿]?(?:\p{Lu} )?\p{Lu}{2,}(?![\p{Ll}])/u.test(data[1] ?? "")).length;
  return capped > chapters.length / 2;
}

/** Layout sidecar: one chapter per line, `null` for a chapter without layout. */
export function serializeLayout(id: string, module: string, layouts: BookLayouts): string {
  const blocks = ALL_BOOKS.filter((book) => layouts[book.id] !== undefined).map((book) => {
    const chapters = (layouts[book.id] ?? []).map((layout) => {
      if (layout === undefined || (layout.headings.length === 0 && layout.marks.size === 0)) return "null";
      const marks = Object.fromEntries(
        [...layout.marks].sort((a, b) => a[0] - b[0]).map(([verse, list]) => [verse, list.map(([at, code]) => `${at}${code}`).join(" ")]),
      );
      const chapter: { h?: [number, string][]; m: Record<string, string> } = { m: marks };
      if (layout.headings.length > 0) chapter.h = layout.headings;
      return JSON.stringify(chapter);
    });
    return `${JSON.stringify(book.id)}:[\n${chapters.join(",\n")}\n]`;
  });
  return `${JSON.stringify({ id, source: module, format: 1 }).slice(0, -1)},"books":{\n${blocks.join(",\n")}\n}}\n`;
}

function exportTranslation(id: string, module: string, titled: Set<number>): void {
  const translation = findTranslation(id);
  if (translation === undefined) throw new Error(`unknown translation ${id}`);
  const imp = execFileSync("mod2imp", [module], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const { books, layouts, stats } = buildBooks(imp);
  const missing = BOOKS.filter((book) => books[book.id] === undefined).map((book) => book.id);
  if (missing.length > 0) throw new Error(`${module} lacks books: ${missing.join(", ")}`);
  const marked = titledPsalms(books);
  let notes = ` ${marked.size} psalm titles marked`;
  if (marked.size === 0) notes = ` ${splitInlinePsalmTitles(books, titled)} of ${titled.size} psalm titles split from verse 1`;
  else marked.forEach((psalm) => titled.add(psalm));
  const subscriptions = dropSubscriptions(books);
  if (subscriptions.length > 0) notes += `; ${subscriptions.length} epistle subscriptions dropped`;
  const letters = liftAcrosticLetters(books, layouts);
  if (letters > 0) notes += `; ${letters} acrostic letters made headings`;
  if (setsDropCaps(books)) notes += `; ${normalizeDropCaps(books)} drop caps given normal case`;
  settleLayouts(books, layouts);
  const conf = readConf(module);
  const head = {
    id,
    name: translation.name,
    language: translation.language,
    source: { module, version: conf.Version ?? "unknown", versification: conf.Versification ?? "KJV" },
  };
  const json = serializeBible({ ...head, books: orderedBooks(books, "common") });
  writeFileSync(join(OUT_DIR, `${id}.json`), json);
  let sizes = `${Buffer.byteLength(json)} bytes`;
  const extra = orderedBooks(books, "deuterocanon");
  const extraPath = join(OUT_DIR, `${id}.deuterocanon.json`);
  if (Object.keys(extra).length > 0) {
    const extraJson = serializeBible({ ...head, books: extra });
    writeFileSync(extraPath, extraJson);
    const verses = Object.values(extra).flat().reduce((n, data) => n + data.slice(1).filter((t) => t !== "").length, 0);
    sizes += `; deuterocanon ${Object.keys(extra).length} books, ${verses} verses, ${Buffer.byteLength(extraJson)} bytes`;
  }
  const layout = serializeLayout(id, module, layouts);
  const layoutGz = gzipSync(layout, { level: 9 });
  writeFileSync(join(OUT_DIR, `${id}.layout.json.gz`), layoutGz);
  sizes += `; layout ${Buffer.byteLength(layout)} bytes, ${layoutGz.length} gzipped`;
  const empty = stats.emptyVerses.length > 0 ? ` empty: ${stats.emptyVerses.join(", ")}` : "";
  const skipped = stats.skippedBooks.length > 0 ? ` skipped books (no text or not in the table): ${stats.skippedBooks.join(", ")}` : "";
  console.log(`${id}: ${stats.versesWithText} verses, ${sizes};${notes};${skipped}${empty}`);
}

function main(): void {
  mkdirSync(OUT_DIR, { recursive: true });
  // Filled by the translations that mark their psalm titles, read by those that do not (exported after them).
  const titled = new Set<number>();
  for (const { id, module } of SOURCES) exportTranslation(id, module, titled);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
