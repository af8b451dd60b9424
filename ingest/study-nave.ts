/**
 * Nave's Topical Bible (`Nave`, TEI): each topic with its references as compact strings
 * ("GEN4:6", "GAL5:19-21") and, where Nave names it, the line a reference sits on ("Of Cain slaying
 * Abel"), plus the topics it points to ("See HATRED").
 */
import { findBook } from "../src/scripture/books.js";
import { parseImp } from "./imp.js";
import { plainLine } from "./study-markup.js";

export interface NaveTopicRow {
  id: string;
  name: string;
  /** [reference, note index or -1]. */
  refs: [string, number][];
  notes: string[];
  see: string[];
}

export function topicId(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function topicName(key: string): string {
  return key.toLowerCase().replace(/(^|[\s,(-])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}

const OSIS_VERSE = /^([1-4]?[A-Za-z]+)\.(\d+)(?:\.(\d+))?$/;

/** "Gen.4.5-Gen.4.8" -> "GEN4:5-8"; a range across chapters keeps its end chapter ("GEN4:5-5:2"). */
export function compactRef(osisRef: string): string | undefined {
  const [start = "", end] = osisRef.trim().split("-");
  const a = OSIS_VERSE.exec(start);
  const book = a ? findBook(a[1] ?? "") : undefined;
  if (a === null || book === undefined) return undefined;
  const chapter = Number(a[2]);
  const verse = a[3] === undefined ? undefined : Number(a[3]);
  if (verse === undefined) return `${book.id}${chapter}`;
  let out = `${book.id}${chapter}:${verse}`;
  const b = end === undefined ? null : OSIS_VERSE.exec(end);
  if (b !== null && b[3] !== undefined) {
    const endChapter = Number(b[2]);
    const endVerse = Number(b[3]);
    if (endChapter === chapter && endVerse > verse) out += `-${endVerse}`;
    else if (endChapter > chapter) out += `-${endChapter}:${endVerse}`;
  }
  return out;
}

export function parseNave(imp: string): { topics: NaveTopicRow[]; references: number } {
  const topics: NaveTopicRow[] = [];
  const ids = new Set<string>();
  let references = 0;
  for (const { key, body } of parseImp(imp)) {
    if (!body.includes("<entryFree")) continue;
    let id = topicId(key);
    if (id === "" ) continue;
    for (let n = 2; ids.has(id); n += 1) id = `${topicId(key)}-${n}`;
    ids.add(id);
    const row: NaveTopicRow = { id, name: topicName(key.trim()), refs: [], notes: [], see: [] };
    const seen = new Set<string>();
    for (const line of body.split(/<lb\/>|<item>|<\/item>/)) {
      for (const m of line.matchAll(/<ref\b[^>]*target="Nave:([^"]+)"/g)) {
        const target = topicId(m[1] ?? "");
        if (target !== "" && !row.see.includes(target)) row.see.push(target);
      }
      const refs = [...line.matchAll(/<ref\b[^>]*osisRef="([^"]+)"/g)].map((m) => compactRef(m[1] ?? "")).filter((r): r is string => r !== undefined);
      if (refs.length === 0) continue;
      const note = plainLine(line.replace(/<ref\b[^>]*>[\s\S]*?<\/ref>/g, " ").replace(/<\/?(?:list|def|entryFree)\b[^>]*>/g, " "))
        .replace(/^→\s*/, "")
        .replace(/[\s,;:.]+$/, "")
        .replace(/\s+([,;])/g, "$1")
        .replace(/(?:[,;]\s*)+/g, (m) => m.trim().slice(0, 1) + " ")
        // Bits of references Nave left outside a ref element (":10-18", "v. 3").
        .replace(/(?:^|[\s,;])(?:vs?\.\s*)?:?\d[\d:,-]*(?=[\s,;.]|$)/g, "")
        .replace(/[\s,;:.]+$/, "")
        .replace(/^[\s,;:.]+/, "")
        .trim();
      // "OF ENEMIES" -> "Of enemies": Nave's capitals are headings, not shouting.
      const sentence = note === note.toUpperCase() && /\p{Lu}{2}/u.test(note) ? note.charAt(0) + note.slice(1).toLowerCase() : note;
      let noteIndex = -1;
      if (sentence !== "" && !/^[,;.\s]*$/.test(sentence)) {
        noteIndex = row.notes.indexOf(sentence);
        if (noteIndex < 0) noteIndex = row.notes.push(sentence) - 1;
      }
      for (const ref of refs) {
        if (seen.has(ref)) continue;
        seen.add(ref);
        row.refs.push([ref, noteIndex]);
        references += 1;
      }
    }
    topics.push(row);
  }
  return { topics, references };
}
