/**
 * A SWORD commentary (`mod2imp` output) as sections per book: each section is the span of verses it
 * comments on and its plain text. Entries that cover several verses are printed once by mod2imp (the
 * first verse of the span); a verse heading inside the entry ("Verses 3-5", "Verse 1.", "Ver. 2.")
 * starts a new section, so an entry that holds a whole chapter is split verse by verse.
 */
import { bookById, verseCount } from "../src/scripture/books.js";
import { parseImp, verseKey } from "./imp.js";
import { plainParagraphs } from "./study-markup.js";

/** [chapter, verseStart, verseEnd, title, text]; verse 0 means the whole chapter. */
export type SectionRow = [number, number, number, string | null, string];

const VERSE_HEADING = /<hi type="bold">\s*(?:Verses?|Ver\.)\s+(\d+)(?:\s*(?:-|–|,|, and|and)\s*(\d+))?\.?\s*<\/hi>/g;
const TITLE = /<title\b([^>]*)>([\s\S]*?)<\/title>/g;
// Chapter and book names repeat the reference; they are not section titles.
const NAME_TITLE = /type="(?:x-s2|x-ms|main)"/;

function titleCase(text: string): string {
  const clean = text.replace(/[.:]+$/, "").trim();
  if (clean !== clean.toUpperCase()) return clean;
  return clean.toLowerCase().replace(/^\p{L}/u, (c) => c.toUpperCase()).replace(/\bpsalm\b/, "Psalm");
}

interface Piece {
  title: string | null;
  from: number | null;
  to: number | null;
  markup: string;
}

/** Splits an entry at its titles and verse headings. */
function pieces(body: string): Piece[] {
  const out: Piece[] = [];
  let title: string | null = null;
  let pieceTitle = false;
  const parts = body.split(TITLE);
  // split with two groups: [text, attrs, inner, text, attrs, inner, ...]
  for (let i = 0; i < parts.length; i += 3) {
    const text = parts[i] ?? "";
    let cursor = 0;
    let from: number | null = null;
    let to: number | null = null;
    for (const match of text.matchAll(VERSE_HEADING)) {
      out.push({ title, from, to, markup: text.slice(cursor, match.index) });
      // MHCC's "Chapter Outline" heads only the outline before the first verse heading.
      if (pieceTitle) title = null;
      pieceTitle = false;
      from = Number(match[1]);
      to = match[2] === undefined ? from : Math.max(from, Number(match[2]));
      cursor = match.index + match[0].length;
    }
    out.push({ title, from, to, markup: text.slice(cursor) });
    const attrs = parts[i + 1];
    const inner = parts[i + 2];
    if (attrs !== undefined && inner !== undefined && !NAME_TITLE.test(attrs)) {
      const name = plainParagraphs(inner);
      if (name !== "") title = titleCase(name);
      pieceTitle = /type="x-IS"/.test(attrs);
    }
  }
  return out;
}

export function exportCommentary(id: string, imp: string): { books: Record<string, SectionRow[]>; sections: number } {
  const keyed = parseImp(imp)
    .map(({ key, body }) => ({ ref: verseKey(key), body }))
    .filter((e): e is { ref: NonNullable<typeof e.ref>; body: string } => e.ref !== undefined && e.ref.chapter > 0 && e.body.trim() !== "");
  const books: Record<string, SectionRow[]> = {};
  let sections = 0;
  keyed.forEach(({ ref, body }, index) => {
    const book = bookById(ref.book);
    if (book === undefined) return;
    const last = verseCount(book, ref.chapter);
    const next = keyed[index + 1]?.ref;
    // Without a heading an entry runs to the verse before the next entry of its chapter (MHCC);
    // Scofield's notes belong to the one verse they are keyed to.
    const spanEnd =
      id === "scofield" ? ref.verse : next !== undefined && next.book === ref.book && next.chapter === ref.chapter ? Math.max(ref.verse, next.verse - 1) : last;
    const rows = (books[ref.book] ??= []);
    // Scofield's cross-references to its own notes: (See Scofield " Matthew 4:8 ").
    const parts = pieces(body)
      .map((piece) => ({ ...piece, text: plainParagraphs(piece.markup).replace(/Scofield " ([^"]+?) "/g, 'Scofield "$1"') }))
      .filter((piece) => piece.text !== "");
    for (const [pieceIndex, { text, ...piece }] of parts.entries()) {
      let from = piece.from ?? ref.verse;
      let to = piece.to ?? (ref.verse === 0 ? 0 : spanEnd);
      // An entry's opening text before any verse heading (a psalm's overview, a chapter outline) is about the chapter.
      if (piece.from === null && ref.verse <= 1 && id !== "scofield" && body.search(VERSE_HEADING) >= 0) {
        from = 0;
        to = 0;
      }
      // MHCC sometimes lacks a heading (John 3 has "Verses 1-8", then 9-21 without one): its last
      // section runs on to the verse before the next entry.
      if (id === "mhcc" && pieceIndex === parts.length - 1 && from > 0) to = Math.max(to, spanEnd);
      if (from > last) continue;
      to = Math.min(Math.max(from, to), last);
      const prev = rows.at(-1);
      if (prev !== undefined && prev[0] === ref.chapter && prev[1] === from && prev[2] === to && prev[3] === piece.title) {
        prev[4] += `\n\n${text}`;
        continue;
      }
      rows.push([ref.chapter, from, from === 0 ? 0 : to, piece.title, text]);
      sections += 1;
    }
  });
  return { books, sections };
}
