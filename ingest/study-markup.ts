/**
 * Markup helpers of the study export (ingest/export-study.ts): Strong's tags aligned to the plain verse
 * text, notes, and OSIS/TEI prose turned into plain paragraphs. The Bible text itself is stripped by
 * ingest/export-sword.ts (stripOsis); these functions reuse it so that the sidecars cannot drift from it.
 */
import { stripOsis } from "./export-sword.js";
import { normalizeStrongId } from "../src/study/strong-ids.js";

/** One run of a verse: plain text, or a tagged word with its Strong's ids (space-separated). */
export type Segment = string | [text: string, strong: string];

// Private-use marks around each <w>: they survive stripOsis (not markup, not whitespace) and are
// removed after it, so the words come out aligned to exactly the text stripOsis gives.
const OPEN = "\uE000";
const CLOSE = "\uE001";
const W = /<w\b([^>]*)>([\s\S]*?)<\/w>/g;
const TITLE = /<title\b[^>]*\/>|<title\b[^>]*>[\s\S]*?<\/title>/g;
const NOTE = /<note\b[^>]*\/>|<note\b([^>]*)>([\s\S]*?)<\/note>/g;

function lemmaIds(attrs: string): string {
  const lemma = /\blemma="([^"]*)"/.exec(attrs)?.[1] ?? "";
  const ids = lemma
    .split(/\s+/)
    .filter((part) => part.startsWith("strong:"))
    .map((part) => normalizeStrongId(part))
    .filter((id): id is string => id !== undefined);
  return [...new Set(ids)].join(" ");
}

/**
 * The verse as segments whose texts join to exactly `stripOsis(osis).text`, or undefined when the
 * verse has no tags or the alignment cannot be proven (the caller counts those).
 */
export function tagSegments(osis: string): { segments: Segment[] | undefined; aligned: boolean } {
  const expected = stripOsis(osis).text;
  const ids: string[] = [];
  // Words inside notes and titles (a psalm's superscription) are not part of the verse text.
  const unwrap = (element: string) => element.replace(/<\/?w\b[^>]*>/g, "");
  const withoutNotes = osis.replace(NOTE, unwrap).replace(TITLE, unwrap);
  const marked = withoutNotes.replace(W, (_, attrs: string, inner: string) => {
    const id = lemmaIds(attrs);
    if (id === "") return `<w${attrs}>${inner}</w>`;
    ids.push(id);
    return `${OPEN}<w${attrs}>${inner}</w>${CLOSE}`;
  });
  if (ids.length === 0) return { segments: undefined, aligned: true };
  const text = stripOsis(marked).text;
  if (text.replace(/[\uE000\uE001]/g, "") !== expected) return { segments: undefined, aligned: false };
  const segments: Segment[] = [];
  let index = 0;
  for (const part of text.split(/(\uE000[^\uE001]*\uE001)/)) {
    if (part === "") continue;
    if (part.startsWith(OPEN)) {
      const word = part.slice(1, -1);
      const id = ids[index++] ?? "";
      if (word === "") continue;
      segments.push([word, id]);
    } else {
      const last = segments.at(-1);
      if (typeof last === "string") segments[segments.length - 1] = last + part;
      else segments.push(part);
    }
  }
  if (index !== ids.length) return { segments: undefined, aligned: false };
  return { segments, aligned: true };
}

export interface RawNote {
  type: "footnote" | "cross-reference";
  text: string;
  /** Characters of the plain verse text before the note's mark. */
  at: number;
}

/** The notes of a verse: translator footnotes and cross-references, plain text, with their place. */
export function verseNotes(osis: string): RawNote[] {
  const notes: RawNote[] = [];
  for (const match of osis.matchAll(NOTE)) {
    const attrs = match[1] ?? "";
    // The "3:16 " label that opens a note repeats the verse; the reader shows the verse already.
    const body = (match[2] ?? "").replace(/<reference\b[^>]*type="annotateRef"[^>]*>[\s\S]*?<\/reference>/g, "");
    const text = stripOsis(body).text;
    if (text === "") continue;
    const at = stripOsis(osis.slice(0, match.index)).text.length;
    notes.push({ type: /type="crossReference"/.test(attrs) ? "cross-reference" : "footnote", text, at });
  }
  return notes;
}

// Paragraph and line ends of OSIS and TEI prose.
const PARAGRAPH_END = /<div\b[^>]*\beID="[^"]*"[^>]*type="(?:x-p|introduction|paragraph)"[^>]*\/>|<div\b[^>]*type="(?:x-p|introduction|paragraph)"[^>]*\beID="[^"]*"[^>]*\/>|<\/p>|<\/item>|<\/l>|<\/row>/g;

/** OSIS/TEI prose (a commentary section, a dictionary definition) as plain paragraphs joined by "\n\n". */
export function plainParagraphs(markup: string): string {
  return markup
    .split(PARAGRAPH_END)
    // Scofield's text carries a few escaped HTML tags ("&lt;/ol&gt;") that decode into markup.
    .map((part) => decodeNumeric(stripOsis(part).text).replace(/<\/?[a-z]+\s*\/?>/g, "").replace(/ {2,}/g, " ").trim())
    .filter((part) => part !== "")
    .join("\n\n");
}

// stripOsis decodes the named entities the Bible modules use; Nave also has numeric ones (&#8220;).
const decodeNumeric = (text: string) => text.replace(/&#(\d{2,6});/g, (_, n: string) => String.fromCodePoint(Number(n)));

/** Plain text on one line. */
export function plainLine(markup: string): string {
  return decodeNumeric(stripOsis(markup).text);
}
