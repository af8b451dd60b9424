/**
 * Exports the study modules from Debian's SWORD packages (via `mod2imp`) into data/study/, gzip JSON:
 * Strong's Greek and Hebrew dictionaries, the WEB's and KJV's Strong's word tags and notes (sidecars
 * aligned to data/bibles), three commentaries and Nave's Topical Bible. See docs/study.md.
 *
 * Run: npm run ingest:export-study
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { BOOKS } from "../src/scripture/books.js";
import { COMMENTARIES } from "../src/study/commentaries.js";
import type { LexiconFileEntry } from "../src/study/lexicon.js";
import { parseImp, verseKey } from "./imp.js";
import { exportCommentary } from "./study-commentary.js";
import { parseLexicon } from "./study-lexicon.js";
import { tagSegments, verseNotes, type Segment } from "./study-markup.js";
import { parseNave } from "./study-nave.js";
import { buildGlossary, realign } from "./study-align.js";

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "data", "study");
const TAGGED = [
  { id: "eng-web", module: "engWEB2015eb" },
  { id: "eng-kjv", module: "engKJV2006eb" },
] as const;
/** The translation whose tags feed the concordance (see docs/study.md: the WEB's tags are machine-aligned). */
const CONCORDANCE_BIBLE = "eng-kjv";

const sizes: string[] = [];

export function writeGzipJson(path: string, value: unknown): number {
  mkdirSync(dirname(path), { recursive: true });
  const gz = gzipSync(JSON.stringify(value), { level: 9 });
  writeFileSync(path, gz);
  return gz.length;
}

function write(relative: string, value: unknown): number {
  const bytes = writeGzipJson(join(OUT_DIR, relative), value);
  sizes.push(`${relative} ${bytes}`);
  return bytes;
}

export function mod2imp(module: string, swordPath?: string): string {
  return execFileSync("mod2imp", [module], {
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    stdio: ["ignore", "pipe", "ignore"],
    ...(swordPath ? { env: { ...process.env, SWORD_PATH: swordPath } } : {}),
  });
}

interface Occurrences {
  words: number;
  verses: number;
}

type TagBooks = Record<string, (Segment[] | null)[][]>;

/** Reads one module's word tags and notes. */
function readTags(module: string): { books: TagBooks; notes: Record<string, Record<string, unknown[]>>; unaligned: number; noteCount: number } {
  const books: TagBooks = {};
  const notes: Record<string, Record<string, unknown[]>> = {};
  let unaligned = 0;
  let noteCount = 0;
  for (const { key, body } of parseImp(mod2imp(module))) {
    const ref = verseKey(key);
    if (ref === undefined || ref.chapter === 0 || ref.verse === 0) continue;
    const { segments, aligned } = tagSegments(body);
    if (!aligned) unaligned += 1;
    if (segments !== undefined) ((books[ref.book] ??= [])[ref.chapter - 1] ??= [])[ref.verse - 1] = segments;
    const found = verseNotes(body);
    if (found.length > 0) {
      noteCount += found.length;
      (notes[ref.book] ??= {})[`${ref.chapter}:${ref.verse}`] = found;
    }
  }
  return { books, notes, unaligned, noteCount };
}

/**
 * The WEB's tags moved onto the words the KJV's hand-made tags support (ingest/study-align.ts); a verse
 * the KJV does not tag keeps no tags. Returns how many tags the module had and how many are kept.
 */
function realignWeb(web: TagBooks, kjv: TagBooks, lexicon: Record<string, LexiconFileEntry>): { before: number; after: number } {
  const glossary = buildGlossary(kjv, lexicon, web);
  let before = 0;
  let after = 0;
  const count = (segments: Segment[]) => segments.filter((segment) => typeof segment !== "string").length;
  for (const [book, chapters] of Object.entries(web)) {
    for (const [c, verses] of chapters.entries()) {
      for (const [v, segments] of (verses ?? []).entries()) {
        if (!segments) continue;
        before += count(segments);
        const theirs = kjv[book]?.[c]?.[v];
        const realigned = theirs ? realign(segments, theirs, glossary) : [];
        const tagged = count(realigned);
        after += tagged;
        verses![v] = tagged > 0 ? realigned : null;
      }
    }
  }
  return { before, after };
}

function exportTags(lexicon: Record<string, LexiconFileEntry>): void {
  const occurrences = new Map<string, Record<string, Occurrences>>();
  const concordance: Record<string, string[]> = {};
  const read = Object.fromEntries(TAGGED.map(({ id, module }) => [id, readTags(module)]));
  const realigned = realignWeb(read["eng-web"]!.books, read["eng-kjv"]!.books, lexicon);
  console.log(`eng-web: ${realigned.before} tags in the module, ${realigned.after} kept after realignment on the KJV's tags`);
  for (const { id } of TAGGED) {
    const { books, notes, unaligned, noteCount } = read[id]!;
    let tagged = 0;
    let words = 0;
    for (const book of BOOKS) {
      for (const [c, verses] of (books[book.id] ?? []).entries()) {
        for (const [v, segments] of (verses ?? []).entries()) {
          if (!segments) continue;
          tagged += 1;
          const seen = new Set<string>();
          for (const segment of segments) {
            if (typeof segment === "string") continue;
            for (const strong of segment[1].split(" ")) {
              words += 1;
              const counts = ((occurrences.get(strong) ?? occurrences.set(strong, {}).get(strong)!)[id] ??= { words: 0, verses: 0 });
              counts.words += 1;
              if (!seen.has(strong)) {
                counts.verses += 1;
                seen.add(strong);
                if (id === CONCORDANCE_BIBLE) (concordance[strong] ??= []).push(`${book.id}${c + 1}:${v + 1}`);
              }
            }
          }
        }
      }
    }
    let bytes = 0;
    for (const book of BOOKS) {
      const chapters = books[book.id];
      if (chapters === undefined) continue;
      // Holes (untagged verses and chapters) become null so that indexes stay verse - 1 and chapter - 1.
      const dense = Array.from(chapters, (verses) => Array.from(verses ?? [], (v) => v ?? null));
      bytes += write(`words/${id}/${book.id}.json.gz`, dense);
    }
    bytes += write(`notes/${id}.json.gz`, notes);
    console.log(`${id}: ${tagged} tagged verses, ${words} tags, ${unaligned} verses left untagged (alignment not proven), ${noteCount} notes; ${bytes} bytes`);
  }
  for (const [strong, counts] of occurrences) {
    const entry = lexicon[strong];
    if (entry !== undefined) entry.occurrences = counts;
  }
  write("concordance-eng-kjv.json.gz", Object.fromEntries(Object.entries(concordance).map(([k, v]) => [k, v.join(" ")])));
}

function exportLexicon(): Record<string, LexiconFileEntry> {
  const greek = parseLexicon(mod2imp("StrongsGreek"), "G");
  const hebrew = parseLexicon(mod2imp("StrongsHebrew"), "H");
  console.log(`lexicon: ${Object.keys(greek).length} Greek, ${Object.keys(hebrew).length} Hebrew entries`);
  return { ...greek, ...hebrew };
}

/**
 * Debian's MHCC conf names the zCom4 driver, but its index has zCom's 10-byte records (241,150 bytes
 * = 24,115 OT slots x 10): libsword then misreads every entry ("Error reading ulCompOffset") and
 * mod2imp prints about 392 MB of overlapping blocks. A private SWORD_PATH with the right driver reads
 * each entry once.
 */
function fixedMhccPath(): { path: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), "study-sword-"));
  mkdirSync(join(root, "mods.d"));
  mkdirSync(join(root, "modules", "comments", "zcom"), { recursive: true });
  symlinkSync("/usr/share/sword/modules/comments/zcom/mhcc", join(root, "modules", "comments", "zcom", "mhcc"));
  const conf = readFileSync("/usr/share/sword/mods.d/mhcc.conf", "utf8").replace(/^ModDrv=zCom4$/m, "ModDrv=zCom");
  writeFileSync(join(root, "mods.d", "mhcc.conf"), conf);
  return { path: root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

function exportCommentaries(): void {
  const mhcc = fixedMhccPath();
  try {
    for (const info of COMMENTARIES) {
      const imp = mod2imp(info.module, info.id === "mhcc" ? mhcc.path : undefined);
      const { books, sections } = exportCommentary(info.id, imp);
      let bytes = 0;
      for (const [book, data] of Object.entries(books)) bytes += write(`commentaries/${info.id}/${book}.json.gz`, data);
      console.log(`${info.id}: ${sections} sections in ${Object.keys(books).length} books; ${bytes} bytes`);
    }
  } finally {
    mhcc.cleanup();
  }
}

function exportNave(): void {
  const { topics, references } = parseNave(mod2imp("Nave"));
  write("naves.json.gz", topics);
  console.log(`nave: ${topics.length} topics, ${references} references`);
}

function main(): void {
  const only = new Set(process.argv.slice(2));
  // A whole export starts clean so that nothing stale survives; a partial one keeps the rest.
  if (only.size === 0) rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  const want = (part: string) => only.size === 0 || only.has(part);
  if (want("lexicon") || want("words")) {
    const lexicon = exportLexicon();
    exportTags(lexicon);
    write("lexicon.json.gz", lexicon);
  }
  if (want("commentaries")) exportCommentaries();
  if (want("nave")) exportNave();
  console.log(sizes.filter((line) => !line.startsWith("words/") && !line.startsWith("commentaries/")).join("\n"));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
