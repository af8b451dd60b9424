import type { PromptKind } from "./types.js";

/** Every placeholder an author may write as `{{name}}`; the text is what prompts/README.md documents. */
export const PLACEHOLDERS = {
  tools: "the agent's tools, one line each: name and purpose, from the tools themselves (graphs/chat/tools/index.ts)",
  max_words: "the answer's word limit for this request (max_words, default 300)",
  theology_name: "display name of the selected theology, e.g. Reformed",
  theology_slug: "slug of the selected theology, e.g. reformed",
  theology_description: "the selected theology's one-line description, as GET /v1/theologies lists it",
  profile_name: "display name of the selected profile, e.g. Scholar",
  profile_slug: "slug of the selected profile, e.g. scholar",
  profile_description: "the selected profile's one-line description, as GET /v1/profiles lists it",
  language: "name of the language detected in the user's last message: English or Spanish",
  bible_id: "the translation the caller asked for, e.g. eng-web",
} as const;

export type PlaceholderName = keyof typeof PLACEHOLDERS;
export type PromptVars = Partial<Record<PlaceholderName, string | number>>;

const ALL = Object.keys(PLACEHOLDERS) as PlaceholderName[];

/**
 * Values that change from one request to the next even when theology, profile and translation do not.
 * The mandatory core (guardrails, theology, profile) must be byte-identical across such requests, so
 * that providers' prompt caches serve it; these values are stated after the core instead
 * (`_partials/request-length.md`, rendered by graphs/chat/prompts.ts).
 */
export const PER_REQUEST_PLACEHOLDERS: readonly PlaceholderName[] = ["max_words", "language"];

const CORE = ALL.filter((name) => !PER_REQUEST_PLACEHOLDERS.includes(name));

/**
 * The core files get the values that are the same for every request with their theology, profile and
 * translation; canned replies and the classifier are rendered before any theology context matters, so
 * they get fewer names. Partials may use any name: the file that includes one is checked for its names.
 */
export const ALLOWED_PLACEHOLDERS: Record<PromptKind, readonly PlaceholderName[]> = {
  guardrails: CORE,
  theology: CORE,
  profile: CORE,
  partial: ALL,
  preflight: [],
  canned: ["theology_name", "theology_description", "profile_name", "profile_description", "max_words", "bible_id"],
};

export function isPlaceholderName(name: string): name is PlaceholderName {
  return Object.hasOwn(PLACEHOLDERS, name);
}

export type Tag =
  | { type: "var"; name: string; line: number; index: number; raw: string }
  | { type: "partial"; name: string; line: number; index: number; raw: string }
  | { type: "malformed"; line: number; index: number; raw: string };

const TAG = /\{\{([^{}]*)\}\}/g;
const NAME = /^[a-z][a-z0-9_-]*$/;

/** Finds every `{{...}}` in text; `firstLine` is the file line of text's first line, so problems can point at the file. */
export function scanTags(text: string, firstLine: number): Tag[] {
  const tags: Tag[] = [];
  const lineAt = lineIndexer(text, firstLine);
  for (const m of text.matchAll(TAG)) {
    const inner = (m[1] ?? "").trim();
    const line = lineAt(m.index);
    const base = { line, index: m.index, raw: m[0] };
    if (inner.startsWith(">")) {
      const name = inner.slice(1).trim();
      tags.push(NAME.test(name) ? { ...base, type: "partial", name } : { ...base, type: "malformed" });
    } else if (NAME.test(inner)) {
      tags.push({ ...base, type: "var", name: inner });
    } else {
      tags.push({ ...base, type: "malformed" });
    }
  }
  // A lone "{{" with no closing braces would reach the model verbatim; authors want to hear about it.
  const stripped = text.replace(TAG, (s) => " ".repeat(s.length));
  for (const m of stripped.matchAll(/\{\{/g)) {
    tags.push({ type: "malformed", line: lineAt(m.index), index: m.index, raw: "{{" });
  }
  return tags.sort((a, b) => a.index - b.index);
}

function lineIndexer(text: string, firstLine: number): (index: number) => number {
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return (index) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= index) lo = mid;
      else hi = mid - 1;
    }
    return firstLine + lo;
  };
}

/**
 * Fills `{{name}}` placeholders. The loader has already proved every name is known, so a missing
 * value here is a bug in the caller and throws rather than sending a raw `{{...}}` to the model.
 */
export function render(text: string, vars: PromptVars): string {
  return text.replace(TAG, (raw, inner: string) => {
    const name = inner.trim();
    if (!isPlaceholderName(name)) throw new Error(`render: unknown placeholder ${raw}`);
    const value = vars[name];
    if (value === undefined) throw new Error(`render: no value given for ${raw}`);
    return String(value);
  });
}
