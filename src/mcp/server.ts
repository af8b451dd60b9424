import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { COMMENTARY_DESCRIPTION, COMMENTARY_SCHEMA, COMMENTARY_TOOL, commentaryOn } from "../../graphs/chat/tools/commentary.js";
import { KEYWORD_SEARCH_DESCRIPTION, KEYWORD_SEARCH_SCHEMA, KEYWORD_SEARCH_TOOL, keywordSearch } from "../../graphs/chat/tools/keyword-search.js";
import { LOOKUP_PASSAGE_DESCRIPTION, LOOKUP_PASSAGE_TOOL, lookupPassage, lookupPassageSchema } from "../../graphs/chat/tools/lookup-passage.js";
import { ToolProblem, type ToolOutput } from "../../graphs/chat/tools/output.js";
import { SEARCH_SCRIPTURE_DESCRIPTION, SEARCH_SCRIPTURE_SCHEMA, SEARCH_SCRIPTURE_TOOL, searchScripture } from "../../graphs/chat/tools/search-scripture.js";
import { TOPICS_DESCRIPTION, TOPICS_SCHEMA, TOPICS_TOOL, topicsFor } from "../../graphs/chat/tools/topics.js";
import { WORD_STUDY_DESCRIPTION, WORD_STUDY_SCHEMA, WORD_STUDY_TOOL, wordStudy } from "../../graphs/chat/tools/word-study.js";
import { SearchBodySchema } from "../http/search/schema.js";
import { DEFAULT_TRANSLATION_ID } from "../scripture/translations.js";
import { catalogOf, type McpCatalog, type McpDeps } from "./catalog.js";
import { registerStudyPrompt } from "./prompts.js";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

const LINKS_NOTE = "References in the result are markdown links to the passage in the online reader; keep them when you cite.";

const INSTRUCTIONS =
  "Bible study tools over the public-domain World English Bible (eng-web, with the deuterocanon), King James Version (eng-kjv) " +
  "and Reina-Valera 1909 (spa-rv1909): search by meaning (search_scripture) or exact words (keyword_search), read passages " +
  "(lookup_passage), original-language words (word_study), classic commentaries (commentary) and Nave's topics (topics). " +
  "Quote scripture only from what lookup_passage or the search tools return, and cite with the links they give.";

/** A tool's output as MCP content; a ToolProblem (a wrong call, search down) is a tool error the assistant can read. */
function toResult(out: ToolOutput): CallToolResult {
  return out instanceof ToolProblem ? { content: [{ type: "text", text: out.text }], isError: true } : { content: [{ type: "text", text: out }] };
}

/** Never a crash, never an internal message: an unexpected failure is logged and told as a plain tool error. */
function guarded<A>(deps: McpDeps, name: string, run: (args: A) => Promise<ToolOutput>) {
  return async (args: A): Promise<CallToolResult> => {
    try {
      return toResult(await run(args));
    } catch (err) {
      deps.logger?.error({ err: { name: (err as Error)?.name, message: (err as Error)?.message }, tool: name }, "MCP tool failed");
      return toResult(new ToolProblem(`${name} failed on our side; try again, or another tool.`));
    }
  };
}

/** The MCP input schemas: the agent's, with the arguments the request gives the agent. zod 4 builds are costly: once per catalog. */
function inputSchemas(c: McpCatalog) {
  const deuterocanon = z.boolean().optional().describe(SearchBodySchema.shape.deuterocanon.description!);
  return {
    search: SEARCH_SCRIPTURE_SCHEMA.extend({ translation: c.translation, deuterocanon }),
    keyword: KEYWORD_SEARCH_SCHEMA.extend({ translation: c.translation, deuterocanon }),
    passage: lookupPassageSchema(c.ids).extend({ translation: c.translation }),
  };
}

const schemas = new WeakMap<McpCatalog, ReturnType<typeof inputSchemas>>();

function registerTools(server: McpServer, c: McpCatalog) {
  const { deps, label } = c;
  let inputs = schemas.get(c);
  if (!inputs) schemas.set(c, (inputs = inputSchemas(c)));
  const { search: searchInput, keyword: keywordInput, passage: passageInput } = inputs;
  const canonOf = (args: { translation?: string | undefined; deuterocanon?: boolean | undefined }) => ({
    bibleId: args.translation ?? DEFAULT_TRANSLATION_ID,
    deuterocanon: args.deuterocanon ?? false,
    label,
  });

  server.registerTool(
    SEARCH_SCRIPTURE_TOOL.name,
    {
      title: "Search the Bible by meaning",
      description: `${SEARCH_SCRIPTURE_DESCRIPTION} Use it first for any question about what the Bible says on a subject. ${LINKS_NOTE}`,
      inputSchema: searchInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(deps, SEARCH_SCRIPTURE_TOOL.name, async (args: z.infer<typeof searchInput>) => {
      await c.waitForIndex();
      return searchScripture(deps, args, canonOf(args));
    }),
  );
  server.registerTool(
    KEYWORD_SEARCH_TOOL.name,
    {
      title: "Find exact words in the Bible",
      description: `${KEYWORD_SEARCH_DESCRIPTION} Use it when the user remembers a phrase ("be still", "mustard seed") or asks where a word occurs. ${LINKS_NOTE}`,
      inputSchema: keywordInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(deps, KEYWORD_SEARCH_TOOL.name, async (args: z.infer<typeof keywordInput>) => {
      await c.waitForIndex();
      return keywordSearch(deps, args, canonOf(args));
    }),
  );
  server.registerTool(
    LOOKUP_PASSAGE_TOOL.name,
    {
      title: "Read a Bible passage",
      description: `${LOOKUP_PASSAGE_DESCRIPTION} Use it to read or quote a passage whose reference you know; verse ranges and whole chapters work. ${LINKS_NOTE}`,
      inputSchema: passageInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(deps, LOOKUP_PASSAGE_TOOL.name, (args: z.infer<typeof passageInput>) => lookupPassage(deps, args, { bibleId: DEFAULT_TRANSLATION_ID, label })),
  );
  server.registerTool(
    WORD_STUDY_TOOL.name,
    {
      title: "Greek and Hebrew word study (Strong's)",
      description: `${WORD_STUDY_DESCRIPTION} With a reference and no word it lists the passage's tagged words. ${LINKS_NOTE}`,
      inputSchema: WORD_STUDY_SCHEMA,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(deps, WORD_STUDY_TOOL.name, (args: z.infer<typeof WORD_STUDY_SCHEMA>) => wordStudy(deps, args, { bibleId: DEFAULT_TRANSLATION_ID, label })),
  );
  server.registerTool(
    COMMENTARY_TOOL.name,
    {
      title: "Classic commentary on a passage",
      description: `${COMMENTARY_DESCRIPTION} Use it when the user asks what a passage means or how it has been read. ${LINKS_NOTE}`,
      inputSchema: COMMENTARY_SCHEMA,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    // No theology here to prefer one commentary: the Psalms go to Spurgeon, the rest to Matthew Henry.
    guarded(deps, COMMENTARY_TOOL.name, (args: z.infer<typeof COMMENTARY_SCHEMA>) => commentaryOn(deps, args, { preference: { prefer: [], avoid: [] }, label })),
  );
  server.registerTool(
    TOPICS_TOOL.name,
    {
      title: "Nave's Topical Bible",
      description: `${TOPICS_DESCRIPTION} Use it to gather the passages on a subject the way a topical Bible does, or to see what a verse is about. ${LINKS_NOTE}`,
      inputSchema: TOPICS_SCHEMA,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(deps, TOPICS_TOOL.name, (args: z.infer<typeof TOPICS_SCHEMA>) => topicsFor(deps, args, { label })),
  );
}

/**
 * The MCP server: the agent's scripture tools (the same functions, schemas and bounds) with reader links,
 * and a "study a passage" prompt. Cheap to build, so the HTTP transport builds one per request (stateless).
 */
export function createMcpServer(deps: McpDeps): McpServer {
  const catalog = catalogOf(deps);
  const server = new McpServer({ name: "biblical-chat", title: "Biblical Chat: Bible study tools", version }, { instructions: INSTRUCTIONS, jsonSchemaValidator: catalog.validator });
  registerTools(server, catalog);
  registerStudyPrompt(server, catalog);
  return server;
}

export type { McpDeps };
