import { findBook, type Testament } from "../../scripture/books.js";
import { invalidParameter, invalidRequest } from "../../errors.js";
import { DEFAULT_TRANSLATION_ID } from "../../scripture/translations.js";
import type { SearchRequest } from "../../scripture/search/search.js";

export const MAX_QUERY_CHARS = 1000;
export const MAX_LIMIT = 20;

// The spec's two values, matched case-insensitively, plus the short forms the book table uses.
const TESTAMENTS: Readonly<Record<string, Testament>> = {
  "old testament": "OT", ot: "OT", old: "OT",
  "new testament": "NT", nt: "NT", new: "NT",
};

type Raw = Record<string, unknown>;

/** One value per parameter: a repeated query-string key (?limit=1&limit=2) is ambiguous. */
function single(raw: Raw, name: string): unknown {
  const v = raw[name];
  if (Array.isArray(v)) throw invalidParameter(`'${name}' was given more than once.`, name);
  return v;
}

function optionalString(raw: Raw, name: string): string | undefined {
  const v = single(raw, name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw invalidParameter(`'${name}' must be a string.`, name);
  const trimmed = v.trim();
  return trimmed === "" ? undefined : trimmed;
}

function parseLimit(raw: Raw): number {
  const v = single(raw, "limit");
  if (v === undefined || v === null || v === "") return 5;
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) {
    throw invalidParameter(`'limit' must be an integer from 1 to ${MAX_LIMIT}.`, "limit");
  }
  return n;
}

/**
 * Validates a search request (GET query string or POST body) into a SearchRequest; every bad input
 * is a 400 in the error envelope. `queryParam` is "q" for GET and "query" for POST.
 */
export function parseSearchRequest(raw: Raw, queryParam: "q" | "query", bibleIds: readonly string[]): SearchRequest & { rawQuery: string } {
  const q = single(raw, queryParam);
  if (q === undefined || q === null || (typeof q === "string" && q.trim() === "")) {
    throw invalidRequest(`'${queryParam}' is required and must not be empty.`, queryParam);
  }
  if (typeof q !== "string") throw invalidRequest(`'${queryParam}' must be a string.`, queryParam);
  if (q.length > MAX_QUERY_CHARS) {
    throw invalidParameter(`'${queryParam}' is too long: at most ${MAX_QUERY_CHARS} characters.`, queryParam);
  }

  const bibleId = optionalString(raw, "bible_id") ?? DEFAULT_TRANSLATION_ID;
  if (!bibleIds.includes(bibleId)) {
    throw invalidParameter(`Unknown bible_id '${bibleId}'. Available: ${bibleIds.join(", ")} (see GET /v1/translations).`, "bible_id");
  }

  const limit = parseLimit(raw);

  const testamentText = optionalString(raw, "testament");
  const testament = testamentText === undefined ? undefined : TESTAMENTS[testamentText.toLowerCase().replace(/\s+/g, " ")];
  if (testamentText !== undefined && testament === undefined) {
    throw invalidParameter(`'testament' must be "Old Testament" or "New Testament".`, "testament");
  }

  const bookText = optionalString(raw, "book");
  const book = bookText === undefined ? undefined : findBook(bookText);
  if (bookText !== undefined && book === undefined) {
    throw invalidParameter(`Unknown book '${bookText}'. Use a book name or id such as "John" or "JHN".`, "book");
  }

  return {
    rawQuery: q,
    query: q.trim(),
    bibleId,
    limit,
    ...(testament ? { testament } : {}),
    ...(book ? { book: book.id } : {}),
  };
}
