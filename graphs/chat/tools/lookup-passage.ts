import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { bookById, chapterCount } from "../../../src/scripture/books.js";
import type { ChatContext } from "../configuration.js";
import type { ChatDeps, PassageRef, VerseText } from "../deps.js";
import { bounded } from "./format.js";
import { plainLabel, ToolProblem, toolText, type RefLabel, type ToolOutput } from "./output.js";
import { boundedText } from "../../../src/limits.js";
import { crossBookProblem } from "../../../src/scripture/references.js";

// Books of the deuterocanon that the shipped WEB module has no text for.
const ABSENT_BOOKS = /\b(?:Susanna|Susana|Bel and the Dragon|Bel y el drag[oó]n|Prayer of Azariah|Song of the Three|Oraci[oó]n de Azar[ií]as)\b/i;
const ABSENT_NOTE =
  "Susanna, Bel and the Dragon and the Prayer of Azariah (the Greek additions to Daniel) are not in any translation shipped here: the World English Bible module has no text for them. Say so rather than quoting from memory.";

/** A whole long chapter (Psalm 119 has 176 verses) would crowd out the conversation. */
const MAX_VERSES = 60;

interface Section {
  chapter: number;
  verses: VerseText[];
}

function sections(ref: PassageRef, read: (chapter: number, from: number, to: number) => VerseText[]): Section[] {
  const lastChapter = ref.chapterEnd ?? ref.chapter;
  const out: Section[] = [];
  for (let c = ref.chapter; c <= lastChapter; c++) {
    const from = c === ref.chapter ? (ref.verseStart ?? 1) : 1;
    const to = c === lastChapter ? (ref.verseEnd ?? (ref.chapterEnd === undefined && ref.verseStart !== undefined ? ref.verseStart : 999)) : 999;
    out.push({ chapter: c, verses: read(c, from, to) });
  }
  return out;
}

/** Its name, and the one line the guardrails' tool list gives it ({{tools}}, graphs/chat/tools/index.ts). */
export const LOOKUP_PASSAGE_TOOL = {
  name: "lookup_passage",
  purpose: "any reference in any translation (\"read me Romans 8:28-30\")",
} as const;

export const LOOKUP_PASSAGE_DESCRIPTION =
  "Read a Bible passage by reference, in the user's translation or another one. Returns the verses with their numbers. Knows the 66 books and the deuterocanon (Tobit, Judith, Wisdom, Sirach, Baruch, 1-4 Maccabees, ...), which only eng-web carries.";

/** The arguments; `translation` lists the translations the corpus ships. */
export function lookupPassageSchema(ids: readonly string[]) {
  return z.object({
    reference: boundedText("reference", "reference").min(1).describe("A reference such as \"John 3:16\", \"Romans 8:28-30\", \"Psalm 23\" or \"Juan 3:16\"."),
    translation: z
      .enum(ids as [string, ...string[]])
      .optional()
      .describe("Translation id, only when the user asks for another translation; defaults to the user's own."),
  });
}

/** Per call: the translation read when none is named, how the reference prints. */
export interface PassageCallOptions {
  bibleId: string;
  label?: RefLabel;
}

/** Reads any reference in any shipped translation from the local corpus: it works when search is down. */
export async function lookupPassage(
  deps: Pick<ChatDeps, "bibles" | "references">,
  { reference, translation }: { reference: string; translation?: string | undefined },
  { bibleId: defaultBibleId, label = plainLabel }: PassageCallOptions,
): Promise<ToolOutput> {
  const ids = deps.bibles.ids();
  const bibleId = translation ?? defaultBibleId;
  const bible = deps.bibles.get(bibleId);
  if (!bible) return new ToolProblem(`Unknown translation "${bibleId}". Available: ${ids.join(", ")}.`);
  const ref = deps.references.parsePassageQuery(reference);
  if (!ref) {
    const crossBook = crossBookProblem(reference);
    if (crossBook !== undefined) return new ToolProblem(crossBook);
    if (ABSENT_BOOKS.test(reference)) return ABSENT_NOTE;
    return new ToolProblem(`"${reference}" is not a Bible reference I can read. Use forms like John 3:16, Romans 8:28-30 or Psalm 23.`);
  }
  const book = bookById(ref.book);
  if (book && ref.chapter > chapterCount(book)) {
    return new ToolProblem(`${book.name} has ${chapterCount(book)} chapters, so ${reference} does not exist.`);
  }
  // The KJV and RV1909 have no deuterocanon: read the book from the translation that has it, and say so.
  let source = bible;
  let note: string | undefined;
  if (book?.canon === "deuterocanon" && !bible.hasBook(book.id)) {
    const other = ids.map((id) => deps.bibles.get(id)).find((candidate) => candidate?.hasBook(book.id));
    if (!other) return `${book.name} is not in any translation shipped here.`;
    source = other;
    note = `${book.name} is not in the ${bible.name} (${bible.id}), whose canon has no deuterocanon; it is read from the ${other.name} (${other.id}). Tell the user which translation you quote.`;
  }
  const parts = sections(ref, (c, from, to) => source.verses(ref.book, c, from, to));
  const count = parts.reduce((n, s) => n + s.verses.length, 0);
  if (count === 0) return new ToolProblem(`${reference} does not exist in ${source.name} (${source.id}).`);
  const lang = bible.language.startsWith("es") ? "es" : "en";
  const title = label(deps.references.formatReference(ref, lang), ref, source.id);
  const lines = note === undefined ? [] : [`[${note}]`];
  lines.push(`${title} (${source.name}, ${source.id}):`);
  let shown = 0;
  for (const part of parts) {
    if (parts.length > 1 && part.verses.length > 0) lines.push(`[chapter ${part.chapter}]`);
    for (const v of part.verses) {
      if (shown === MAX_VERSES) break;
      lines.push(`${v.verse} ${v.text}`);
      shown++;
    }
  }
  if (count > shown) lines.push(`[${count - shown} more verses left out; look up a narrower range to read them]`);
  return bounded(lines);
}

/**
 * The tool, carrying its plain function as `run`: the prefetched retrieval (prefetch.ts) calls that
 * after checking its arguments against the tool's schema, without LangChain's per-call plumbing.
 */
export function createLookupPassageTool(deps: Pick<ChatDeps, "bibles" | "references">, ctx: ChatContext) {
  const run = async (input: { reference: string; translation?: string | undefined }) => toolText(await lookupPassage(deps, input, { bibleId: ctx.bibleId }));
  return Object.assign(
    tool(run, {
      name: LOOKUP_PASSAGE_TOOL.name,
      description: LOOKUP_PASSAGE_DESCRIPTION,
      schema: lookupPassageSchema(deps.bibles.ids()),
    }),
    { run },
  );
}
