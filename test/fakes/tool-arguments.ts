import type { ChatTool } from "./chat-request.js";

/**
 * Tool-call arguments such as a model would write for the user's question: the required fields only
 * (no optional filter, so never a contradiction such as testament OT with book JHN), a search query
 * made of the question's content words, and a reference taken from the question when it names one.
 */

// Words that carry no topic in a Bible question; what remains is what a model would search for.
const FILLER = new Set(
  (
    "a an and are as at be bible bible's biblical book but by can could did do does doing for from god's " +
    "how i i'm in is it it's me my of on or please say saying says scripture scriptures should tell teach " +
    "teaches teaching that the their there this to verse verses was what what's when where which who why " +
    "will with would you your about explain mean means meaning"
  ).split(" "),
);

/** The content words of a question, in order, at most eight; the trimmed text when none remain. */
export function searchQueryFrom(text: string): string {
  const words = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s-]/gu, " ")
    .split(/\s+/)
    .filter((w) => w && !FILLER.has(w));
  const query = words.slice(0, 8).join(" ");
  return query || text.trim().slice(0, 200) || "grace";
}

// "John 3:16", "1 Corinthians 13:4-7", "Romans 8", "Psalm 23", "Song of Songs 2:1". A book's name is one
// word (after its number) or "X of Y": "Explain Romans 8:28" names Romans, not a book "Explain Romans".
const REFERENCE = /\b((?:[1-3]\s?)?[A-Z][a-z]+(?:\sof\s[A-Z][a-z]+)?)\s(\d{1,3})(?::(\d{1,3})(?:[-–]\d{1,3})?)?\b/g;

// A chapter without a verse counts only after a book that is often cited that way ("Psalm 23").
const BOOKS_CITED_BY_CHAPTER = /^(?:[1-3]\s?)?(?:Psalms?|Salmos?|Genesis|Romans|Proverbs|Isaiah|John|Matthew|Mark|Luke|Acts|Revelation|Job|Ruth|Hebrews|James|Corinthians)$/;

/** The first passage reference in the text ("Book chapter" needs a book that reads like one), if any. */
export function referenceIn(text: string): string | undefined {
  const re = new RegExp(REFERENCE.source, "g");
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[3] !== undefined || BOOKS_CITED_BY_CHAPTER.test(m[1]!)) return m[0];
    re.lastIndex = m.index + 1; // "Explain 1 Corinthians 13" first matches "Explain 1": try again one letter on
  }
  return undefined;
}

type Schema = { type?: unknown; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[]; minimum?: number; maximum?: number };

function valueFor(name: string, schema: Schema, userText: string): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.type === "integer" || schema.type === "number") {
    const wanted = /limit|count|top/i.test(name) ? 5 : 1;
    return Math.min(Math.max(wanted, schema.minimum ?? wanted), schema.maximum ?? wanted);
  }
  if (schema.type === "boolean") return false;
  if (/ref|passage/i.test(name)) return referenceIn(userText) ?? "John 3:16";
  return searchQueryFrom(userText);
}

export function toolArguments(tool: ChatTool, userText: string): Record<string, unknown> {
  const params = (tool.function.parameters ?? {}) as Schema;
  const out: Record<string, unknown> = {};
  // A schema without `required` (hand-written ones) still gets its text fields a model would fill.
  const names = params.required ?? Object.keys(params.properties ?? {}).filter((n) => /^(query|q|reference|passage)$/i.test(n));
  for (const name of names) out[name] = valueFor(name, params.properties?.[name] ?? {}, userText);
  return out;
}

/**
 * The tool a model would pick: a lookup when the question names a passage and such a tool is offered
 * (one that takes a `reference`), otherwise the first tool (the service lists its search first).
 */
export function toolFor(tools: ChatTool[], userText: string): ChatTool | undefined {
  if (referenceIn(userText) !== undefined) {
    const lookup = tools.find((t) => "reference" in (((t.function.parameters ?? {}) as Schema).properties ?? {}));
    if (lookup) return lookup;
  }
  return tools[0];
}
