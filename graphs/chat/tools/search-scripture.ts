import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { booksInCanon, findBook, isCanon } from "../../../src/scripture/books.js";
import type { ChatContext } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import type { Bible } from "../../../src/scripture/corpus.js";
import type { SearchResult } from "../../../src/scripture/search/search.js";
import { bounded, clip } from "./format.js";
import { plainLabel, ToolProblem, toolText, type RefLabel, type ToolOutput } from "./output.js";
import { boundedText } from "../../../src/limits.js";

/** A result's share of the tool result: the matched verses and their neighbours usually fit. */
const PER_RESULT_CHARS = 900;

/** Which books the agent's searches rank: the deuterocanon too when the theology's canon has it. */
export interface SearchCanon {
  deuterocanon: boolean;
}

/**
 * The theology file's `canon:` front matter (e.g. `canon: catholic`) decides; a theology without one,
 * or naming the Protestant canon, searches the 66 books.
 */
export function searchCanon(deps: Pick<ChatDeps, "prompts">, ctx: Pick<ChatContext, "theology">): SearchCanon {
  const canon = deps.prompts?.theology(ctx.theology)?.canon;
  return { deuterocanon: isCanon(canon) && booksInCanon(canon).some((b) => b.canon === "deuterocanon") };
}

/** Its name, and the one line the guardrails' tool list gives it ({{tools}}, graphs/chat/tools/index.ts). */
export const SEARCH_SCRIPTURE_TOOL = {
  name: "search_scripture",
  purpose: "passages by meaning (\"what does the Bible say about forgiveness?\")",
} as const;

export const SEARCH_SCRIPTURE_DESCRIPTION =
  "Find Bible passages by meaning, for topical and life questions. Search with the words the Bible itself uses, " +
  "not modern ones: anger or wrath (not temper), foreigner or stranger (not immigrant), anxious and cares (not stress), " +
  "rulers and authorities (not government), covenant, grace, resurrection. For a question with several sides " +
  "(e.g. divorce and remarriage, or suffering and God's goodness), search more than once, one side per search, " +
  "then answer from what you found. Returns the best chapters with references, the verses that matched and the text.";

export const SEARCH_SCRIPTURE_SCHEMA = z.object({
  query: boundedText("query", "query").min(1).describe("What to look for, in the Bible's own words where you know them: a topic, question or idea."),
  testament: z.enum(["OT", "NT"]).optional().describe("Limit to the Old (OT) or New (NT) Testament."),
  book: boundedText("bookName", "book").optional().describe("Limit to one book, by name or id (e.g. \"Romans\" or \"ROM\")."),
  limit: z.number().int().min(1).max(8).optional().describe("How many passages to return, 1 to 8 (default 4)."),
});

/** Per call: the translation of the text, whether the deuterocanon is ranked, how references print, care-safe ranking. */
export interface SearchCallOptions extends SearchCanon {
  bibleId: string;
  label?: RefLabel;
  /** The run's care decision (graphs/chat/care.ts): every care concept's `avoid` applies. */
  care?: boolean;
}

/**
 * What the model reads of a search: for each chapter found, the verses that matched with one verse either
 * side, numbered, so it reads the passage the search found (not the chapter's opening) and can cite the
 * verse; the chapter's opening, clipped, only when the search names no verse. The matched verses are
 * named in the heading.
 */
export function formatSearchResults(
  results: SearchResult[],
  { bibleId, bible, lowConfidence = false, label = plainLabel }: { bibleId: string; bible: Pick<Bible, "verses"> | undefined; lowConfidence?: boolean | "guess" | "weak"; label?: RefLabel },
): string {
  const blocks = results.map((r) => {
    const matched = [...new Set(r.highlights.map((h) => h.verse))].sort((a, b) => a - b);
    const verses = bible && matched.length > 0 ? versesAround(bible, r, matched) : [];
    const best = matched.length > 0 ? `; best verses ${matched.join(", ")}` : "";
    const body = verses.length > 0 ? upTo(verses, PER_RESULT_CHARS) : clip(r.text, PER_RESULT_CHARS);
    return `## ${label(r.reference, { url: r.url })} (${bibleId}, relevance ${r.similarity.toFixed(2)}${best})\n${body}`;
  });
  const weak = lowConfidence === "weak" ? [WEAK_NOTE] : lowConfidence ? [GUESSES_NOTE] : [];
  return bounded([...weak, ...blocks, "Use lookup_passage to read a passage in full before quoting beyond what is shown."]);
}

/** A search's first line when its results are guesses from words that only begin like the question's. */
export const GUESSES_NOTE = "Weak matches only: no passage matched these words well (these share words that only begin like them). Say so rather than build on them.";

/** A search's first line when nothing named in the question matched and the results match it only loosely. */
export const WEAK_NOTE =
  "Weak matches: nothing the question names matched, and these passages match it only loosely. Check that they answer the question before building on them; if they do not, search again with the Bible's own words or say that you found nothing fitting.";

const NOTHING_FOUND = "No passages found for";

/**
 * A search result with nothing to build on (no passage found, or only guesses): the prefetched turn
 * leaves such a search out (a misleading turn is worse than none; the model can still search).
 */
export function unfounded(text: string): boolean {
  return text.startsWith(NOTHING_FOUND) || text.startsWith(GUESSES_NOTE);
}

/** Whole verse lines up to max characters (the first always), then a note that more were left out. */
function upTo(lines: string[], max: number): string {
  let out = lines[0]!;
  for (const line of lines.slice(1)) {
    if (out.length + line.length + 1 > max) return `${out}\n[more verses left out; lookup_passage reads them]`;
    out += `\n${line}`;
  }
  return out;
}

/** The matched verses and their neighbours, one a line with its number; "[…]" where verses are skipped. */
function versesAround(bible: Pick<Bible, "verses">, r: SearchResult, matched: number[]): string[] {
  const ranges: [number, number][] = [];
  for (const v of matched) {
    const last = ranges.at(-1);
    if (last && v - 1 <= last[1] + 1) last[1] = v + 1;
    else ranges.push([Math.max(1, v - 1), v + 1]);
  }
  const lines: string[] = [];
  for (const [from, to] of ranges) {
    const verses = bible.verses(r.book_id, r.chapter, from, to);
    if (verses.length === 0) continue;
    if (lines.length > 0) lines.push("[…]");
    for (const v of verses) lines.push(`${v.verse} ${v.text}`);
  }
  return lines;
}

/**
 * The filters both searches send besides the query: testament, book (a name or id the model wrote,
 * resolved here) and the deuterocanon; a book we do not know is a call the model can fix.
 */
export function searchScope(book: string | undefined, testament: "OT" | "NT" | undefined, deuterocanon: boolean): ToolProblem | { testament?: "OT" | "NT"; book?: string; deuterocanon?: true } {
  const bookId = book ? findBook(book)?.id : undefined;
  if (book && !bookId) return new ToolProblem(`"${book}" is not a book of the Bible I know; leave book out or use a name like "Romans".`);
  return { ...(testament ? { testament } : {}), ...(bookId ? { book: bookId } : {}), ...(deuterocanon ? { deuterocanon: true as const } : {}) };
}

/** Search by meaning; each hit is a chapter, shown at the verses that matched, so the model reads the best part and can look up more. */
export async function searchScripture(
  deps: Pick<ChatDeps, "search" | "logger"> & Partial<Pick<ChatDeps, "bibles">>,
  { query, testament, book, limit }: z.infer<typeof SEARCH_SCRIPTURE_SCHEMA>,
  { bibleId, deuterocanon, label = plainLabel, care = false }: SearchCallOptions,
): Promise<ToolOutput> {
  const scope = searchScope(book, testament, deuterocanon);
  if (scope instanceof ToolProblem) return scope;
  try {
    const { results, lowConfidence, lowConfidenceReason } = await deps.search.search({ query, bibleId, limit: limit ?? 4, ...scope, ...(care ? { care } : {}) });
    if (results.length === 0) return `${NOTHING_FOUND} "${query}". Try other words, or keyword_search for an exact phrase.`;
    return formatSearchResults(results, { bibleId, bible: deps.bibles?.get(bibleId), lowConfidence: lowConfidence === true && (lowConfidenceReason ?? "guess"), label });
  } catch (err) {
    deps.logger?.warn({ err: { name: (err as Error)?.name }, tool: "search_scripture" }, "scripture search failed");
    return new ToolProblem("search_scripture is unavailable right now (the search index did not answer). Use keyword_search or lookup_passage instead, or answer without quoting.");
  }
}

export function createSearchScriptureTool(deps: Pick<ChatDeps, "search" | "logger"> & Partial<Pick<ChatDeps, "bibles">>, ctx: ChatContext, canon: SearchCanon = { deuterocanon: false }, care = false) {
  // `run`, the plain function the tool calls, is what the prefetched retrieval calls (see createLookupPassageTool).
  const run = async (input: z.infer<typeof SEARCH_SCRIPTURE_SCHEMA>) => toolText(await searchScripture(deps, input, { bibleId: ctx.bibleId, ...canon, care }));
  return Object.assign(tool(run, { name: SEARCH_SCRIPTURE_TOOL.name, description: SEARCH_SCRIPTURE_DESCRIPTION, schema: SEARCH_SCRIPTURE_SCHEMA }), { run });
}
