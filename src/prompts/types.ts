import type { Canon } from "../scripture/books.js";

export type PromptKind = "guardrails" | "preflight" | "theology" | "profile" | "canned" | "partial";

/** Replies sent without reaching the agent; the file name is `canned/<kind>.<lang>.md`. */
export const CANNED_KINDS = ["greeting", "thanks", "farewell", "incomplete_input", "content_filter", "support", "crisis"] as const;
export type CannedKind = (typeof CANNED_KINDS)[number];

/**
 * Partials the service adds itself (graphs/chat/prompts.ts), not only through `{{> name}}`: the
 * care-first note and the request's word limit in the agent's system prompt, and the classifier's rules
 * for a message after earlier turns. The loader refuses a folder without them.
 */
export const SERVICE_PARTIALS = ["crisis-first", "request-length", "preflight-conversation"] as const;
export type ServicePartial = (typeof SERVICE_PARTIALS)[number];

/** Languages detectLanguage can return; every canned kind must exist in each of them. */
export const LANGUAGES = ["en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The languages the distress rules read (graphs/chat/distress/): the crisis reply exists in each of
 * them, since a person in distress is answered in the language they wrote in, not only en/es.
 */
export const CRISIS_LANGUAGES = ["en", "es", "pt", "fr", "de"] as const;
export type CrisisLanguage = (typeof CRISIS_LANGUAGES)[number];

/** The languages a canned kind is written in: every kind in LANGUAGES, the crisis reply in CRISIS_LANGUAGES. */
export const cannedLanguages = (kind: CannedKind): readonly string[] => (kind === "crisis" ? CRISIS_LANGUAGES : LANGUAGES);

/** One loaded prompt file. `body` is the text for the model: partials expanded, the Controls line removed, placeholders not yet rendered. */
export interface PromptDoc {
  kind: PromptKind;
  slug: string;
  name: string;
  description: string;
  /** The author's own label from front matter, e.g. "2026-11-22.1". */
  version: string;
  /** sha256 (first 12 hex) of the file plus every partial it includes: changes whenever the text can. */
  hash: string;
  isDefault: boolean;
  experienceLevel?: number;
  /** Theologies: the commentaries the commentary tool prefers, and those it avoids unless asked by name. */
  commentaries?: { prefer: string[]; avoid: string[] };
  order?: number;
  /** Theologies only: the canon of the tradition's Bible (front matter `canon:`, default "protestant"). */
  canon?: Canon;
  /** Name and description in other languages than English (front matter `name_es`, `description_es`). */
  localized?: Partial<Record<Language, { name: string; description: string }>>;
  body: string;
  /** Path as shown in messages (relative to the working directory when inside it). */
  path: string;
}

export interface PromptProblem {
  path: string;
  line: number;
  message: string;
}

export function formatProblem(p: PromptProblem): string {
  return `${p.path}:${p.line}: ${p.message}`;
}

export class PromptValidationError extends Error {
  readonly problems: PromptProblem[];

  constructor(problems: PromptProblem[]) {
    const lines = problems.map(formatProblem);
    super(`Prompt validation failed (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n${lines.join("\n")}`);
    this.name = "PromptValidationError";
    this.problems = problems;
  }
}
