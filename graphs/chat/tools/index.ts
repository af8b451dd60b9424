import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import type { ChatContext } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { rememberJson } from "../request-json.js";
import { createKeywordSearchTool, KEYWORD_SEARCH_TOOL } from "./keyword-search.js";
import { createLookupPassageTool, LOOKUP_PASSAGE_TOOL } from "./lookup-passage.js";
import { createSearchScriptureTool, SEARCH_SCRIPTURE_TOOL, searchCanon, type SearchCanon } from "./search-scripture.js";
import { COMMENTARY_TOOL, createCommentaryTool } from "./commentary.js";
import { createTopicsTool, TOPICS_TOOL } from "./topics.js";
import { createWordStudyTool, WORD_STUDY_TOOL } from "./word-study.js";

/**
 * The one list of the agent's tools, in the order the model is shown them: each with its name and
 * one-line purpose (what the guardrails' `{{tools}}` says) beside the factory that builds it, so the
 * guardrails cannot name a tool the agent lacks or leave one out.
 */
const TOOLBOX = [
  { info: SEARCH_SCRIPTURE_TOOL, create: (deps: ChatDeps, ctx: ChatContext, canon: SearchCanon, care: boolean) => createSearchScriptureTool(deps, ctx, canon, care) },
  { info: KEYWORD_SEARCH_TOOL, create: (deps: ChatDeps, ctx: ChatContext, canon: SearchCanon) => createKeywordSearchTool(deps, ctx, canon) },
  { info: LOOKUP_PASSAGE_TOOL, create: (deps: ChatDeps, ctx: ChatContext) => createLookupPassageTool(deps, ctx) },
  { info: WORD_STUDY_TOOL, create: (deps: ChatDeps, ctx: ChatContext) => createWordStudyTool(deps, ctx) },
  { info: COMMENTARY_TOOL, create: (deps: ChatDeps, ctx: ChatContext) => createCommentaryTool(deps, ctx) },
  { info: TOPICS_TOOL, create: (deps: ChatDeps, ctx: ChatContext) => createTopicsTool(deps, ctx) },
] as const;

function buildTools(deps: ChatDeps, ctx: ChatContext, canon: SearchCanon, care: boolean) {
  return TOOLBOX.map(({ create }) => create(deps, ctx, canon, care));
}

/** The value of the guardrails' `{{tools}}`: one line per tool, its name and purpose. */
export const TOOLS_PARAGRAPH = TOOLBOX.map(({ info }) => `- \`${info.name}\`: ${info.purpose}.`).join("\n");

export type ChatTool = ReturnType<typeof buildTools>[number];

const built = new WeakMap<ChatDeps, Map<string, ChatTool[]>>();

/**
 * The agent's tools; they close over the deps, the request's translation and its theology (commentary
 * preferences; whether its `canon:` has the deuterocanon), and the run's care decision (care.ts: a
 * care-safe search), the only per-request values they read. Building zod-backed tools costs
 * milliseconds, so each set is built once per deps.
 */
export function createTools(deps: ChatDeps, ctx: ChatContext, care = false): ChatTool[] {
  let byBible = built.get(deps);
  if (!byBible) built.set(deps, (byBible = new Map()));
  // The commentary tool reads the theology's commentary preferences and the search tools its canon, so a
  // set is per translation, theology and care decision.
  const key = `${ctx.bibleId}|${ctx.theology}|${care ? "care" : ""}`;
  let tools = byBible.get(key);
  if (!tools) byBible.set(key, (tools = buildTools(deps, ctx, searchCanon(deps, ctx), care)));
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
    // Frozen with their JSON kept: every agent request sends this same list (request-json.ts).
    defs = rememberJson(createTools(deps, ctx).map((t) => withoutDialect(convertToOpenAITool(t))));
    definitions.set(deps, defs);
  }
  return defs;
}

/**
 * zod's JSON Schema names its dialect (`"$schema": "https://json-schema.org/draft/2020-12/schema"`) in every
 * tool's parameters; providers do not read it, and it cost about 15 prompt tokens per tool on every agent call.
 */
function withoutDialect(def: ToolDefinition): ToolDefinition {
  const params = def.function.parameters as Record<string, unknown> | undefined;
  if (!params || !("$schema" in params)) return def;
  const { $schema: _dialect, ...rest } = params;
  return { ...def, function: { ...def.function, parameters: rest } };
}
