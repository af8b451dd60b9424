import type { PromptRegistry } from "../../src/prompts/loader.js";
import { bookById, findBook, verseCount } from "../../src/scripture/books.js";
import { DEFAULT_TRANSLATION_ID, translationIds } from "../../src/scripture/translations.js";
import type { Citation } from "../../src/scripture/quotes/index.js";
import { ChatError } from "./errors.js";
import { type ApiKeyRule, DEFAULT_API_KEY_PREFIXES, DEFAULT_PROVIDER, providerTable, type ProviderSpec, type ProviderTable } from "./providers.js";

export type { ApiKeyRule, Citation };
export { DEFAULT_API_KEY_PREFIXES };

/** Quotations of scripture in one answer, by outcome (docs/grounding.md). */
export interface QuoteCounts {
  verified: number;
  corrected: number;
  unquoted: number;
}

/**
 * The chat request contract, in one place: the request's type (ChatRequestContext), its defaults, the
 * checks every entry runs (the HTTP adapter in src/http/chat, the graph's validateInput node for
 * LangGraph Studio and other callers), what each preflight category does, and the outcome a run
 * reports. The adapter reads the HTTP body into this shape; the graph never sees HTTP.
 *
 * A new request field (e.g. verify_quotes) goes here: its place in ChatRequestContext, its default
 * beside the others, and its check in a function below; the adapter reads it from the body.
 */

/** max_words when the caller sends none. */
export const DEFAULT_MAX_WORDS = 300;
/** bible_id when the caller sends none: the shipped default translation. */
export const DEFAULT_BIBLE_ID = DEFAULT_TRANSLATION_ID;

/** The spec's preflight categories, in the order of its table. */
export const PREFLIGHT_CATEGORIES = [
  "biblical_question",
  "passage_request",
  "support_question",
  "greeting",
  "incomplete_input",
  "hacker_activity",
  "inappropriate",
  "invalid",
] as const;

export type PreflightCategory = (typeof PREFLIGHT_CATEGORIES)[number];

/**
 * What each preflight category does: "agent" answers it, "canned" replies from prompts/canned/
 * without the agent, "refused" ends in the content-filter outcome.
 */
export const PREFLIGHT_ACTION = {
  biblical_question: "agent",
  passage_request: "agent",
  support_question: "canned",
  greeting: "canned",
  incomplete_input: "canned",
  hacker_activity: "refused",
  inappropriate: "refused",
  invalid: "refused",
} as const satisfies Record<PreflightCategory, "agent" | "canned" | "refused">;

export type PreflightAction = (typeof PREFLIGHT_ACTION)[PreflightCategory];
type CategoriesWith<A extends PreflightAction> = { [C in PreflightCategory]: (typeof PREFLIGHT_ACTION)[C] extends A ? C : never }[PreflightCategory];
export type InterceptedCategory = CategoriesWith<"canned">;
export type RejectedCategory = CategoriesWith<"refused">;

export const isIntercepted = (c: PreflightCategory | null | undefined): c is InterceptedCategory => !!c && PREFLIGHT_ACTION[c] === "canned";
export const isRejected = (c: PreflightCategory | null | undefined): c is RejectedCategory => !!c && PREFLIGHT_ACTION[c] === "refused";

/** A conversation turn as the agent sees it; caller system messages travel in callerSystem instead. */
export interface ChatTurn {
  role: "user" | "assistant";
  content: string;
}

/** reasoning_effort values, as OpenAI's API takes them. */
export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
/** service_tier values, as OpenAI's API takes them. */
export const SERVICE_TIERS = ["auto", "default", "flex", "scale", "priority"] as const;

/** OpenAI request fields passed through to the provider when the caller sets them. */
export interface ModelParams {
  temperature?: number;
  top_p?: number;
  /** The caller's token cap under the name they sent it (at most one of the two is set). */
  max_tokens?: number;
  max_completion_tokens?: number;
  reasoning_effort?: (typeof REASONING_EFFORTS)[number];
  service_tier?: (typeof SERVICE_TIERS)[number];
  seed?: number;
  user?: string;
  presence_penalty?: number;
  frequency_penalty?: number;
  stop?: string | string[];
}

/** Per-request values. They live in the run's context only: never in state, a checkpoint or a log line. */
export interface ChatRequestContext {
  /** The caller's own provider key (BYOK). */
  apiKey: string;
  /** The model as the caller named it (the response's `model`). */
  model: string;
  preflightModel: string;
  /**
   * A named provider's route (model `<name>/<model>`): every call of the request goes to that provider,
   * with `model` as it names it. Absent: the default provider (OPENAI_BASE_URL) with `model` whole.
   */
  provider?: { name: string; model: string };
  theology: string;
  profile: string;
  bibleId: string;
  /** Scripture context the caller asked about (already validated against the corpus). */
  passage?: { book: string; chapter: number; verses?: number[] };
  maxWords: number;
  convertLinks: boolean;
  /** verify_quotes: check the answer's quotations of scripture against bibleId (docs/grounding.md). */
  verifyQuotes: boolean;
  skipPreflight: boolean;
  /** Caller system/developer messages joined with a blank line, then system_instructions. */
  callerSystem?: string;
  modelParams: ModelParams;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/**
 * How an answer ended, in OpenAI's words: "stop" when it is whole, "length" when the word limit (or the
 * provider's token limit) cut it, "content_filter" when the provider withheld the rest by its content filter.
 */
export const FINISH_REASONS = ["stop", "length", "content_filter"] as const;
export type FinishReason = (typeof FINISH_REASONS)[number];

export type ChatOutcome =
  | {
      kind: "answer";
      content: string;
      finishReason: FinishReason;
      usage: Usage;
      promptVersions: string;
      /** The scripture the answer cites, in order of first appearance (the graph always sets it). */
      citations?: Citation[];
      /** The answer's quotations of scripture by what the check did (the graph always sets it). */
      quotes?: QuoteCounts;
    }
  | { kind: "canned"; category: InterceptedCategory; content: string; usage: Usage; promptVersions: string }
  | { kind: "rejected"; category: RejectedCategory; message: string; usage: Usage };

export interface RunChatOptions {
  /** Aborts the run and the upstream provider request (client disconnect, word-limit cut). */
  signal?: AbortSignal;
  /**
   * Called with each piece of the answer as it should reach the client: only the final answer turn,
   * already cut to max_words and link-converted. Never called for preflight or tool-calling turns.
   */
  onDelta?: (text: string) => void;
  /** Told the run's care decision (graphs/chat/care.ts) once the preflight makes it: the rules or the classifier's verdict. */
  onCare?: (care: boolean) => void;
}

/** What the checks need to know: the prompt registry's slugs and the shipped translations and books. */
export interface RequestCatalog {
  defaultTheology: string;
  defaultProfile: string;
  /** The canonical slug for what the caller sent (see sameSlug), or undefined when there is none. */
  theologySlug(given: string): string | undefined;
  profileSlug(given: string): string | undefined;
  bibleIds(): string[];
  /** Canonical USFM id for what the caller sent, or undefined when no such book exists. */
  bookId(given: string): string | undefined;
  /** The X-Prompt-Versions value for a theology and profile (both already checked). */
  promptVersions(theology: string, profile: string): string;
  /** Which keys checkApiKey accepts for the default provider (API_KEY_PREFIXES, else the spec's `sk-`). */
  apiKeyRule: ApiKeyRule;
  /** The configured providers; route(model) says which one a model name reaches. */
  providers: ProviderTable;
}

/**
 * The catalog over the prompt registry and the canonical book table. Verse counts are the maximum over
 * the shipped translations (books.ts), so a verse valid in one is accepted for all.
 */
export function requestCatalog(
  prompts: Pick<PromptRegistry, "defaultTheology" | "defaultProfile" | "theologies" | "profiles" | "versions">,
  providers: ProviderTable | ApiKeyRule = DEFAULT_API_KEY_PREFIXES,
): RequestCatalog {
  const table = isProviderTable(providers)
    ? providers
    : providerTable({ name: DEFAULT_PROVIDER, baseURL: "", models: [], keyRule: providers });
  return {
    apiKeyRule: table.default.keyRule,
    providers: table,
    defaultTheology: prompts.defaultTheology.slug,
    defaultProfile: prompts.defaultProfile.slug,
    theologySlug: (given) => prompts.theologies.find((doc) => sameSlug(doc.slug, given))?.slug,
    profileSlug: (given) => prompts.profiles.find((doc) => sameSlug(doc.slug, given))?.slug,
    promptVersions: (theology, profile) => prompts.versions(theology, profile),
    bibleIds: translationIds,
    bookId: (given) => (bookById(given) ?? findBook(given))?.id,
  };
}

function isProviderTable(value: ProviderTable | ApiKeyRule): value is ProviderTable {
  return typeof value === "object" && "route" in value;
}

/** The provider a request's `model` reaches (anything but a routed name: the default provider). */
export function providerFor(model: unknown, catalog: Pick<RequestCatalog, "providers">): ProviderSpec {
  return typeof model === "string" ? catalog.providers.route(model).provider : catalog.providers.default;
}

/**
 * A request context's model fields for the model the caller named: a named provider's route, and the
 * classifier's model on that provider (its PREFLIGHT_MODEL, else the requested model itself).
 */
export function modelFields(
  model: string,
  defaultPreflightModel: string,
  catalog: Pick<RequestCatalog, "providers">,
): Pick<ChatRequestContext, "model" | "preflightModel" | "provider"> {
  const route = catalog.providers.route(model);
  if (route.provider.name === DEFAULT_PROVIDER) return { model, preflightModel: defaultPreflightModel };
  return { model, preflightModel: route.provider.preflightModel ?? route.model, provider: { name: route.provider.name, model: route.model } };
}

/** The API key rule: present, and shaped like a provider key. Messages never echo the key. */
export function checkApiKey(key: string | undefined, rule: ApiKeyRule = DEFAULT_API_KEY_PREFIXES, provider?: string): string {
  // A named provider is named in the message, so a caller who sent the wrong provider's key sees which one was meant.
  const forWhom = provider && provider !== DEFAULT_PROVIDER ? ` for provider '${provider}'` : "";
  if (key === undefined || key === "") {
    const example = rule === "any" ? "<key>" : `${rule[0]}...`;
    throw new ChatError("missing_api_key", `You didn't provide an API key${forWhom}. Send your model provider's key as 'Authorization: Bearer ${example}'.`);
  }
  if (rule !== "any" && !rule.some((prefix) => key.startsWith(prefix) && key.length > prefix.length)) {
    const shapes = rule.length === 1 ? `'${rule[0]}'` : `one of ${rule.map((p) => `'${p}'`).join(", ")}`;
    throw new ChatError("invalid_api_key", `The API key is not valid${forWhom}: keys start with ${shapes}.`);
  }
  return key;
}

export function checkBibleId(bibleId: string, catalog: Pick<RequestCatalog, "bibleIds">): void {
  const ids = catalog.bibleIds();
  if (!ids.includes(bibleId)) {
    throw new ChatError("invalid_parameter", `Unknown bible_id '${bibleId}'. Available: ${ids.join(", ")}.`, { param: "bible_id" });
  }
}

/**
 * Theology and profile slugs match without regard to case, as book_id does ("Reformed" is `reformed`);
 * the prompt file's slug is the canonical spelling that responses, headers and listings use.
 */
export function sameSlug(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** A known theology: returns its canonical slug. */
export function checkTheology(slug: string, catalog: Pick<RequestCatalog, "theologySlug">, param = "theology"): string {
  const canonical = catalog.theologySlug(slug);
  if (canonical === undefined) throw new ChatError("invalid_parameter", `Unknown theology '${slug}'. See GET /v1/theologies for valid options.`, { param });
  return canonical;
}

/** A known profile: returns its canonical slug. */
export function checkProfile(slug: string, catalog: Pick<RequestCatalog, "profileSlug">, param = "profile"): string {
  const canonical = catalog.profileSlug(slug);
  if (canonical === undefined) throw new ChatError("invalid_parameter", `Unknown profile '${slug}'. See GET /v1/profiles for valid options.`, { param });
  return canonical;
}

/** The scripture context: a known book, an existing chapter and verses; returns it in canonical form. */
export function checkPassage(
  given: { book?: string | undefined; chapter?: number | undefined; verses?: number[] | undefined },
  catalog: Pick<RequestCatalog, "bookId">,
): ChatRequestContext["passage"] {
  if (given.book === undefined) {
    if (given.chapter !== undefined || given.verses !== undefined) throw new ChatError("invalid_parameter", "'chapter' and 'verses' need 'book_id'.", { param: "book_id" });
    return undefined;
  }
  const book = catalog.bookId(given.book);
  if (!book) throw new ChatError("invalid_parameter", `Unknown book_id '${given.book}'; use a book ID such as GEN, MAT or 1CO.`, { param: "book_id" });
  if (given.chapter === undefined) throw new ChatError("invalid_parameter", "'book_id' needs 'chapter'.", { param: "chapter" });
  const chapter = given.chapter;
  const verses = given.verses && [...new Set(given.verses)].sort((a, b) => a - b);
  const inChapter = verseCount(book, chapter);
  if (inChapter === 0) throw new ChatError("invalid_parameter", `${book} has no chapter ${chapter}.`, { param: "chapter" });
  const missing = verses?.find((v) => v > inChapter);
  if (missing !== undefined) {
    throw new ChatError("invalid_parameter", `${book} ${chapter} has no verse ${missing} (it has ${inChapter}).`, { param: "verses" });
  }
  return verses ? { book, chapter, verses } : { book, chapter };
}

/** The conversation must end with the question to answer. */
export function checkTurns(turns: readonly { role: string }[]): void {
  if (turns.length === 0 || turns[turns.length - 1]!.role !== "user") {
    throw new ChatError("invalid_request", "The last non-system message must have role 'user': it is the question to answer.", { param: "messages" });
  }
}

/**
 * Every check on a complete request context, for entries other than the HTTP adapter (which runs the
 * same checks one by one, in the order the spec gives its errors). resolveContext has already put the
 * slugs in canonical form.
 */
export function checkContext(ctx: ChatRequestContext, catalog: RequestCatalog): void {
  const route = ctx.provider ? catalog.providers.byName(ctx.provider.name) : catalog.providers.default;
  if (!route) throw new ChatError("invalid_parameter", `Unknown provider '${ctx.provider!.name}'.`, { param: "model" });
  checkApiKey(ctx.apiKey, route.keyRule, route.name);
  checkTheology(ctx.theology, catalog);
  checkProfile(ctx.profile, catalog);
  checkBibleId(ctx.bibleId, catalog);
}
