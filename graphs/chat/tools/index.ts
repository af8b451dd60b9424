import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import type { ChatContext } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { createKeywordSearchTool } from "./keyword-search.js";
import { createLookupPassageTool } from "./lookup-passage.js";
import { createSearchScriptureTool, searchCanon, type SearchCanon } from "./search-scripture.js";
import { createCommentaryTool } from "./commentary.js";
import { createTopicsTool } from "./topics.js";
import { createWordStudyTool } from "./word-study.js";

function buildTools(deps: ChatDeps, ctx: ChatContext, canon: SearchCanon) {
  return [
    createSearchScriptureTool(deps, ctx, canon),
    createKeywordSearchTool(deps, ctx, canon),
    createLookupPassageTool(deps, ctx),
    createWordStudyTool(deps, ctx),
    createCommentaryTool(deps, ctx),
    createTopicsTool(deps, ctx),
  ];
}

export type ChatTool = ReturnType<typeof buildTools>[number];

const built = new WeakMap<ChatDeps, Map<string, ChatTool[]>>();

/**
 * The agent's tools; they close over the deps, the request's translation and its theology (commentary
 * preferences; whether its `canon:` has the deuterocanon), the only per-request values they read.
 * Building zod-backed tools costs milliseconds, so each set is built once per deps.
 */
export function createTools(deps: ChatDeps, ctx: ChatContext): ChatTool[] {
  let byBible = built.get(deps);
  if (!byBible) built.set(deps, (byBible = new Map()));
  // The commentary tool reads the theology's commentary preferences and the search tools its canon, so a
  // set is per translation and theology.
  const key = `${ctx.bibleId}|${ctx.theology}`;
  let tools = byBible.get(key);
  if (!tools) byBible.set(key, (tools = buildTools(deps, ctx, searchCanon(deps, ctx))));
  return tools;
}

export type ToolDefinition = ReturnType<typeof convertToOpenAITool>;

const definitions = new WeakMap<ChatDeps, ToolDefinition[]>();

/**
 * The tools as the provider sees them. Their schemas do not depend on the request, and converting
 * zod to JSON Schema on every agent turn costs milliseconds, so it happens once per deps.
 */
export function toolDefinitions(deps: ChatDeps, ctx: ChatContext): ToolDefinition[] {
  let defs = definitions.get(deps);
  if (!defs) {
    defs = createTools(deps, ctx).map((t) => convertToOpenAITool(t));
    definitions.set(deps, defs);
  }
  return defs;
}
