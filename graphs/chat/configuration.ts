import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ChatDeps } from "./deps.js";
import type { ChatRequestContext } from "./types.js";

/**
 * The per-request values travel in the run's `context` (never in state, a checkpoint or a log line).
 * A plain type rather than a zod schema: a schema would make every key required in the types and
 * would fill no defaults at run time anyway (see RECIPES).
 */
export type ChatContext = ChatRequestContext;

/**
 * What a node receives: the run's config and Runtime (context, writer, signal, callbacks). The
 * context is typed loosely here because StateGraph only types contexts declared as schemas; every
 * node reads it through resolveContext, which gives it its ChatContext shape.
 */
export type ChatRunConfig = LangGraphRunnableConfig;

export const DEFAULT_MAX_WORDS = 300;
export const DEFAULT_BIBLE_ID = "eng-web";

/**
 * The HTTP adapter always sends a complete context; LangGraph Studio may send a partial one, so
 * missing values take the service's defaults here, on every read.
 */
export function resolveContext(config: ChatRunConfig, deps: Pick<ChatDeps, "prompts" | "defaultModel" | "preflightModel" | "studioApiKey">): ChatContext {
  const c = (config.context ?? {}) as Partial<ChatContext>;
  return {
    apiKey: c.apiKey ?? deps.studioApiKey ?? "",
    model: c.model ?? deps.defaultModel,
    preflightModel: c.preflightModel ?? deps.preflightModel,
    theology: c.theology ?? deps.prompts.defaultTheology.slug,
    profile: c.profile ?? deps.prompts.defaultProfile.slug,
    bibleId: c.bibleId ?? DEFAULT_BIBLE_ID,
    ...(c.passage ? { passage: c.passage } : {}),
    maxWords: c.maxWords ?? DEFAULT_MAX_WORDS,
    convertLinks: c.convertLinks ?? true,
    skipPreflight: c.skipPreflight ?? false,
    ...(c.callerSystem ? { callerSystem: c.callerSystem } : {}),
    modelParams: c.modelParams ?? {},
  };
}
