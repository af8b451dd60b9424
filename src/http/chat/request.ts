import type { z } from "zod";
import {
  checkBibleId,
  checkPassage,
  checkProfile,
  checkTheology,
  sameSlug,
  type ChatRequestContext,
  type ChatTurn,
  DEFAULT_BIBLE_ID,
  DEFAULT_MAX_WORDS,
  modelFields,
  type ModelParams,
  type RequestCatalog,
} from "../../../graphs/chat/contract.js";
import { invalidParameter, invalidRequest, unsupportedParameter } from "../../errors.js";
import { checkLimits, readConversation } from "./messages.js";
import { parseChatBody, UNSUPPORTED, type ChatBody } from "./schema.js";

export const LINKS_HEADER = "x-convert-scripture-links";

export interface ChatDefaults {
  defaultModel: string;
  preflightModel: string;
}

export interface ChatRequestInput {
  body: unknown;
  /** False when the Content-Type is not JSON (the body parser then left the body unread). */
  isJson: boolean;
  header(name: string): string | undefined;
  apiKey: string;
}

export interface ParsedChat {
  turns: ChatTurn[];
  ctx: ChatRequestContext;
  stream: boolean;
  includeUsage: boolean;
}

function paramOf(path: PropertyKey[]): string {
  return path.reduce<string>((acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), "");
}

function schemaError(error: z.ZodError) {
  const issue = error.issues[0]!;
  const param = paramOf(issue.path) || "body";
  const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
  const message = missing ? `'${param}' is required.` : `Invalid value for '${param}': ${issue.message}`;
  // The messages array is the request's structure; any other field is a parameter with a bad value.
  return param === "messages" || param.startsWith("messages[") || param === "body"
    ? invalidRequest(message, param)
    : invalidParameter(message, param);
}

/** Two names for one setting: equal is fine, different is a contradiction the caller must resolve. */
function oneOf(a: string | undefined, aName: string, b: string | undefined, bName: string): string | undefined {
  if (a !== undefined && b !== undefined && !sameSlug(a, b)) {
    throw invalidParameter(`'${aName}' (${a}) and '${bName}' (${b}) name the same setting with different values; send one.`, aName);
  }
  return a ?? b;
}

function linkSwitch(body: ChatBody, header: string | undefined): boolean {
  if (header !== undefined && header.trim() !== "") {
    const v = header.trim().toLowerCase();
    if (v !== "true" && v !== "false") {
      throw invalidParameter(`Header X-Convert-Scripture-Links must be "true" or "false".`, "X-Convert-Scripture-Links");
    }
    return v === "true";
  }
  const { convert_scripture_links: convert, disable_scripture_links: disable } = body;
  if (convert !== undefined && disable !== undefined && convert === disable) {
    throw invalidParameter(
      `convert_scripture_links=${convert} and disable_scripture_links=${disable} contradict each other; send one.`,
      "convert_scripture_links",
    );
  }
  return convert ?? (disable === undefined ? true : !disable);
}

function modelParams(body: ChatBody): ModelParams {
  if (body.max_tokens !== undefined && body.max_completion_tokens !== undefined && body.max_tokens !== body.max_completion_tokens) {
    throw invalidParameter("'max_tokens' and 'max_completion_tokens' differ; send one.", "max_tokens");
  }
  const picked: ModelParams = {
    temperature: body.temperature,
    top_p: body.top_p,
    // The cap goes upstream under the name the caller used: OpenAI's reasoning models refuse max_tokens.
    ...(body.max_completion_tokens !== undefined ? { max_completion_tokens: body.max_completion_tokens } : { max_tokens: body.max_tokens }),
    reasoning_effort: body.reasoning_effort,
    service_tier: body.service_tier,
    seed: body.seed,
    user: body.user,
    presence_penalty: body.presence_penalty,
    frequency_penalty: body.frequency_penalty,
    stop: body.stop,
  };
  return Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined)) as ModelParams;
}

/**
 * Reads a chat request's body into the contract's ChatRequestContext, checking it in the spec's order
 * (body, then limits, then slugs); auth is done before. The checks on values are the contract's
 * (graphs/chat/contract.ts); this adapter adds only what belongs to HTTP (JSON, field names, aliases).
 */
export function parseChatRequest(input: ChatRequestInput, catalog: RequestCatalog, defaults: ChatDefaults): ParsedChat {
  const raw = input.body;
  if (!input.isJson) throw invalidRequest("Content-Type must be application/json.");
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw invalidRequest("Request body must be a JSON object.");
  for (const [name, refused] of Object.entries(UNSUPPORTED)) {
    const value = (raw as Record<string, unknown>)[name];
    if (value !== undefined && value !== null && refused(value)) {
      throw unsupportedParameter(`'${name}' is not supported: this service runs its own tools server-side and returns one text answer.`, name);
    }
  }
  const parsed = parseChatBody(raw);
  if (!parsed.success) throw schemaError(parsed.error);
  const body = parsed.data;
  if (body.stream_options !== undefined && body.stream !== true) {
    // OpenAI refuses it the same way: the options describe a stream that will not happen.
    throw invalidParameter("The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options");
  }

  const theology = oneOf(body.theology, "theology", body.theology_slug, "theology_slug");
  const profile = oneOf(body.profile, "profile", body.profile_slug, "profile_slug");
  const convertLinks = linkSwitch(body, input.header(LINKS_HEADER));
  const conversation = readConversation(body.messages);
  const params = modelParams(body);
  const bibleId = body.bible_id ?? DEFAULT_BIBLE_ID;
  checkBibleId(bibleId, catalog);
  const passage = checkPassage({ book: body.book_id, chapter: body.chapter, verses: body.verses }, catalog);

  checkLimits(conversation, body.system_instructions);

  const theologySlug = theology === undefined ? undefined : checkTheology(theology, catalog, body.theology !== undefined ? "theology" : "theology_slug");
  const profileSlug = profile === undefined ? undefined : checkProfile(profile, catalog, body.profile !== undefined ? "profile" : "profile_slug");

  const system = [...conversation.system];
  if (body.system_instructions !== undefined && body.system_instructions.trim() !== "") system.push(body.system_instructions);
  const ctx: ChatRequestContext = {
    apiKey: input.apiKey,
    ...modelFields(body.model ?? defaults.defaultModel, defaults.preflightModel, catalog),
    theology: theologySlug ?? catalog.defaultTheology,
    profile: profileSlug ?? catalog.defaultProfile,
    bibleId,
    maxWords: body.max_words ?? DEFAULT_MAX_WORDS,
    convertLinks,
    verifyQuotes: body.verify_quotes ?? true,
    skipPreflight: body.skip_preflight ?? false,
    modelParams: params,
  };
  if (passage) ctx.passage = passage;
  if (system.length > 0) ctx.callerSystem = system.join("\n\n");
  return {
    turns: conversation.turns,
    ctx,
    stream: body.stream ?? false,
    includeUsage: body.stream_options?.include_usage ?? false,
  };
}
