import type { ChatOpenAICompletions } from "@langchain/openai";
import type { MetricsRecorder } from "../../src/metrics.js";
import type { PromptRegistry } from "../../src/prompts/loader.js";
import type { ChatRequestContext } from "./types.js";

/**
 * What the graph needs from the rest of the service, as narrow structural types so the graph can be
 * compiled with the real modules (src/scripture, src/prompts) or with a temporary folder of prompts
 * in tests. The shapes follow docs/architecture.md.
 */

export type ModelPurpose = "preflight" | "agent";

/** Builds a model client for one call site of one request; the caller's key comes from ctx. */
export type ModelFactory = (ctx: ChatRequestContext, purpose: ModelPurpose) => ChatOpenAICompletions;

export interface VerseText {
  verse: number;
  text: string;
}

export interface ChapterText {
  book: string;
  chapter: number;
  superscription?: string;
  verses: VerseText[];
}

export interface BibleText {
  id: string;
  name: string;
  language: string;
  chapter(bookId: string, chapter: number): ChapterText | undefined;
  verses(bookId: string, chapter: number, from: number, to: number): VerseText[];
}

export interface BibleSource {
  get(bibleId: string): BibleText | undefined;
  ids(): string[];
}

export interface PassageRef {
  book: string;
  chapter: number;
  verseStart?: number;
  verseEnd?: number;
  chapterEnd?: number;
}

export interface SearchHit {
  reference: string;
  book: string;
  book_id: string;
  chapter: number;
  text: string;
  similarity: number;
}

export interface KeywordHit {
  reference: string;
  text: string;
}

/** testament "OT" | "NT"; book a USFM id. */
export interface SearchInput {
  query: string;
  bibleId: string;
  limit: number;
  testament?: "OT" | "NT";
  book?: string;
}

export interface ScriptureSearcher {
  search(input: SearchInput): Promise<{ results: SearchHit[]; type: string }>;
  keyword(input: SearchInput): Promise<{ results: KeywordHit[] }>;
}

export interface ReferenceTools {
  /** The whole query as one passage reference, or null. */
  parsePassageQuery(query: string): PassageRef | null;
  formatReference(ref: PassageRef, lang: "en" | "es"): string;
}

export interface LinkTools {
  convertLinks(text: string): string;
  createLinkStream(): { push(chunk: string): string; flush(): string };
}

/** Where diagnostics go; a pino logger fits. Never given the key or message text. */
export interface GraphLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ChatDeps {
  models: ModelFactory;
  prompts: PromptRegistry;
  bibles: BibleSource;
  search: ScriptureSearcher;
  references: ReferenceTools;
  links: LinkTools;
  /** Used when a run's context names none (LangGraph Studio); the adapter always names them. */
  defaultModel: string;
  preflightModel: string;
  /** A key for runs whose context carries none: LangGraph Studio local debugging (.env) only; the service never sets it. */
  studioApiKey?: string | undefined;
  /** Agent model calls per request (AGENT_MAX_STEPS). */
  maxSteps: number;
  /** PROVIDER_TIMEOUT_MS: the longest wait for response headers or for the next stream chunk. */
  providerTimeoutMs: number;
  /** Host of OPENAI_BASE_URL, named in provider errors ("api.openai.com"). */
  providerName: string;
  logger?: GraphLogger;
  /** Provider calls, preflight decisions and tokens (docs/architecture.md, Metrics). */
  metrics?: MetricsRecorder;
}
