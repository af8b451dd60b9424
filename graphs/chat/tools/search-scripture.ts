import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { findBook } from "../../../src/scripture/books.js";
import type { ChatContext } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { bounded, clip } from "./format.js";

const PER_RESULT_CHARS = 1_000;

/** Search by meaning; each hit is a chapter, clipped, so the model reads the best part and can look up more. */
export function createSearchScriptureTool(deps: Pick<ChatDeps, "search" | "logger">, ctx: ChatContext) {
  return tool(
    async ({ query, testament, book, limit }) => {
      const bookId = book ? findBook(book)?.id : undefined;
      if (book && !bookId) return `"${book}" is not a book of the Bible I know; leave book out or use a name like "Romans".`;
      try {
        const { results } = await deps.search.search({
          query,
          bibleId: ctx.bibleId,
          limit: limit ?? 4,
          ...(testament ? { testament } : {}),
          ...(bookId ? { book: bookId } : {}),
        });
        if (results.length === 0) return `No passages found for "${query}". Try other words, or keyword_search for an exact phrase.`;
        const lines = results.map((r) => `## ${r.reference} (${ctx.bibleId}, relevance ${r.similarity.toFixed(2)})\n${clip(r.text, PER_RESULT_CHARS)}`);
        return bounded([...lines, "Use lookup_passage to read a passage in full before quoting beyond what is shown."]);
      } catch (err) {
        deps.logger?.warn({ err: { name: (err as Error)?.name }, tool: "search_scripture" }, "scripture search failed");
        return "search_scripture is unavailable right now (the search index did not answer). Use keyword_search or lookup_passage instead, or answer without quoting.";
      }
    },
    {
      name: "search_scripture",
      description:
        "Find Bible passages by meaning, for topical questions (\"what does the Bible say about forgiveness?\"). Returns the most relevant chapters with their references and text.",
      schema: z.object({
        query: z.string().min(1).describe("What to look for, in plain words: a topic, question or idea."),
        testament: z.enum(["OT", "NT"]).optional().describe("Limit to the Old (OT) or New (NT) Testament."),
        book: z.string().optional().describe("Limit to one book, by name or id (e.g. \"Romans\" or \"ROM\")."),
        limit: z.number().int().min(1).max(8).optional().describe("How many passages to return, 1 to 8 (default 4)."),
      }),
    },
  );
}
