import { tool } from "@langchain/core/tools";
import { z } from "zod";
import type { ChatContext } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { bounded, clip } from "./format.js";
import { plainLabel, ToolProblem, toolText, type ToolOutput } from "./output.js";
import { searchScope, type SearchCallOptions, type SearchCanon } from "./search-scripture.js";
import { boundedText } from "../../../src/limits.js";

/** Its name, and the one line the guardrails' tool list gives it ({{tools}}, graphs/chat/tools/index.ts). */
export const KEYWORD_SEARCH_TOOL = {
  name: "keyword_search",
  purpose: "exact words or phrases (\"where does the Bible say 'be still'?\")",
} as const;

export const KEYWORD_SEARCH_DESCRIPTION = "Find verses that contain exact words or a phrase. Returns matching verses with their references.";

export const KEYWORD_SEARCH_SCHEMA = z.object({
  query: boundedText("query", "query").min(1).describe("The exact word or phrase to find, e.g. \"be still\" or \"mustard seed\"."),
  testament: z.enum(["OT", "NT"]).optional().describe("Limit to the Old (OT) or New (NT) Testament."),
  book: boundedText("bookName", "book").optional().describe("Limit to one book, by name or id (e.g. \"Psalms\" or \"PSA\")."),
  limit: z.number().int().min(1).max(25).optional().describe("How many verses to return, 1 to 25 (default 10)."),
});

/** Exact words and phrases across verses ("where does the Bible say 'be still'?"). */
export async function keywordSearch(
  deps: Pick<ChatDeps, "search" | "logger">,
  { query, testament, book, limit }: z.infer<typeof KEYWORD_SEARCH_SCHEMA>,
  { bibleId, deuterocanon, label = plainLabel }: SearchCallOptions,
): Promise<ToolOutput> {
  const scope = searchScope(book, testament, deuterocanon);
  if (scope instanceof ToolProblem) return scope;
  try {
    const { results } = await deps.search.keyword({ query, bibleId, limit: limit ?? 10, ...scope });
    if (results.length === 0) return `No verse in ${bibleId} contains "${query}".`;
    return bounded(results.map((r) => `${label(r.reference, { url: r.url })}: ${clip(r.text, 400)}`));
  } catch (err) {
    deps.logger?.warn({ err: { name: (err as Error)?.name }, tool: "keyword_search" }, "keyword search failed");
    return new ToolProblem("keyword_search is unavailable right now. Use lookup_passage for a known reference, or answer without quoting.");
  }
}

export function createKeywordSearchTool(deps: Pick<ChatDeps, "search" | "logger">, ctx: ChatContext, canon: SearchCanon = { deuterocanon: false }) {
  return tool(async (input) => toolText(await keywordSearch(deps, input, { bibleId: ctx.bibleId, ...canon })), {
    name: KEYWORD_SEARCH_TOOL.name,
    description: KEYWORD_SEARCH_DESCRIPTION,
    schema: KEYWORD_SEARCH_SCHEMA,
  });
}
