import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { type ChatRequestContext, DEFAULT_BIBLE_ID, DEFAULT_MAX_WORDS, modelFields } from "./contract.js";
import type { ChatDeps } from "./deps.js";
import { ChatError } from "./errors.js";

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

/** The run's context object: every node of one run sees the same one, so per-run state is keyed on it. */
export function runKey(config: ChatRunConfig): object | undefined {
  return typeof config.context === "object" && config.context !== null ? config.context : undefined;
}

/** One resolved context per run's context object: every node of the run reads the same one. */
const resolved = new WeakMap<object, ChatContext>();

/**
 * The HTTP adapter always sends a complete context; LangGraph Studio may send a partial one, so
 * missing values take the contract's defaults here.
 */
export function resolveContext(config: ChatRunConfig, deps: Pick<ChatDeps, "prompts" | "defaultModel" | "preflightModel" | "studioApiKey"> & Partial<Pick<ChatDeps, "catalog">>): ChatContext {
  const key = runKey(config);
  const known = key && resolved.get(key);
  if (known) return known;
  const c = (config.context ?? {}) as Partial<ChatContext>;
  // A context from the adapter carries its route; a partial one (Studio) is routed here by its model name.
  const routed = c.model !== undefined && c.provider === undefined && deps.catalog ? modelFields(c.model, deps.preflightModel, deps.catalog) : undefined;
  const ctx: ChatContext = {
    ...c,
    ...(routed?.provider ? { provider: routed.provider } : {}),
    apiKey: c.apiKey ?? deps.studioApiKey ?? "",
    model: c.model ?? deps.defaultModel,
    preflightModel: c.preflightModel ?? routed?.preflightModel ?? deps.preflightModel,
    // A slug in another case ("Reformed") becomes the prompt's own; an unknown one stays for checkContext to refuse.
    theology: c.theology === undefined ? deps.prompts.defaultTheology.slug : (deps.catalog?.theologySlug(c.theology) ?? c.theology),
    profile: c.profile === undefined ? deps.prompts.defaultProfile.slug : (deps.catalog?.profileSlug(c.profile) ?? c.profile),
    bibleId: c.bibleId ?? DEFAULT_BIBLE_ID,
    maxWords: c.maxWords ?? DEFAULT_MAX_WORDS,
    convertLinks: c.convertLinks ?? true,
    verifyQuotes: c.verifyQuotes ?? true,
    skipPreflight: c.skipPreflight ?? false,
    modelParams: c.modelParams ?? {},
  };
  if (key) resolved.set(key, ctx);
  return ctx;
}

/**
 * On a LangGraph server (Studio's path, `langgraphjs dev`) the run's context is stored with the run: a
 * key sent there would be returned by GET /threads/{id}/runs and written under .langgraph_api/. So the
 * key comes from the server's environment (STUDIO_API_KEY) and a key in a context is refused. The key
 * is also removed from the context object, so a server that keeps that very object keeps no key.
 */
export function refuseContextKey(config: ChatRunConfig, deps: Pick<ChatDeps, "keyFromEnvironment">): void {
  if (!deps.keyFromEnvironment) return;
  const context = runKey(config) as { apiKey?: unknown } | undefined;
  if (context?.apiKey === undefined) return;
  delete context.apiKey;
  throw new ChatError(
    "invalid_request",
    "On a LangGraph server the provider key does not go in a run's context: the server stores the context with the run. Set STUDIO_API_KEY in the server's environment (.env at the repository root for `npm run studio`) and send the run without apiKey.",
    { param: "apiKey" },
  );
}
