import type { ChatContext } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { createKeywordSearchTool } from "./keyword-search.js";
import { createLookupPassageTool } from "./lookup-passage.js";
import { createSearchScriptureTool } from "./search-scripture.js";

/** The agent's tools for one request; they close over the deps and the request's translation. */
export function createTools(deps: ChatDeps, ctx: ChatContext) {
  return [createSearchScriptureTool(deps, ctx), createKeywordSearchTool(deps, ctx), createLookupPassageTool(deps, ctx)];
}

export type ChatTool = ReturnType<typeof createTools>[number];
