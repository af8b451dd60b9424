import { z } from "zod";
import { findBook, type Testament } from "../../scripture/books.js";
import { crossBookProblem } from "../../scripture/references.js";
import { invalidParameter, invalidRequest } from "../../errors.js";
import { DEFAULT_TRANSLATION_ID } from "../../scripture/translations.js";
import type { SearchRequest } from "../../scripture/search/search.js";
import { wordTable } from "../../word-table.js";
import { fits, TEXT_LIMITS, tooLongMessage, type TextLimit } from "../../limits.js";
export const MAX_LIMIT = 20;

// The spec's two values, matched case-insensitively, plus the short forms the book table uses.
const TESTAMENTS: Readonly<Record<string, Testament>> = wordTable({
  "old testament": "OT", ot: "OT", old: "OT",
  "new testament": "NT", nt: "NT", new: "NT",
});

type Raw = Record<string, unknown>;

/**
 * The parameters as zod schemas: parseSearchRequest validates each field with them (in the order the
 * errors must come), and the OpenAPI document is generated from the same objects.
 */
const queryText = z.string().max(TEXT_LIMITS.query).describe("Search text (a passage reference such as \"John 3:16\" returns its chapter directly).");
const optionalText = z.string().nullish();
const limitInt = z.int().min(1).max(MAX_LIMIT);
// Query strings carry text: digits (spaces around allowed) count as the number they spell.
const limitValue = z
  .union([limitInt, z.string().regex(/^\s*\d+\s*$/).transform(Number).pipe(limitInt)])
  .describe(`Number of results, 1 to ${MAX_LIMIT} (default 5).`);
const testamentValue = z
  .string()
  .refine((v) => TESTAMENTS[v.toLowerCase().replace(/\s+/g, " ")] !== undefined)
  .describe('"Old Testament" or "New Testament" (case-insensitive; OT/NT also accepted).');

const commonFields = {
  bible_id: optionalText.describe("Translation of the returned text (default eng-web); see GET /v1/translations."),
  limit: z.union([limitValue, z.literal(""), z.null()]).optional(),
  testament: optionalText.pipe(testamentValue.nullish()).describe(testamentValue.description!),
  book: optionalText.describe('Restrict to one book by name or id ("John", "JHN", "Juan").'),
  deuterocanon: z
    .union([z.boolean(), z.enum(["true", "false", "1", "0", ""]), z.null()])
    .optional()
    .describe("Also rank the deuterocanonical books (Tobit, Judith, Wisdom, Sirach, 1-4 Maccabees, ...; text from eng-web). Default false: the 66 books."),
};

/**
 * GET takes `q` and POST takes `query`, as the spec names them; each also accepts the other name, since
 * callers mix them up (other search APIs use either). One of the two is required; both may be sent
 * only with the same text.
 */
const QUERY_NAMES = { q: "query", query: "q" } as const;
type QueryName = keyof typeof QUERY_NAMES;
const aliasText = (name: QueryName) => queryText.optional().describe(`${queryText.description} Required unless '${QUERY_NAMES[name]}' is given.`);
const oneOfTheNames = { anyOf: [{ required: ["q"] }, { required: ["query"] }] };

/** GET /v1/scripture/search query string. */
export const SearchQuerySchema = z.object({ q: aliasText("q"), query: aliasText("query"), ...commonFields }).meta(oneOfTheNames);
/** POST /v1/scripture/search JSON body. */
export const SearchBodySchema = z.object({ query: aliasText("query"), q: aliasText("q"), ...commonFields }).meta(oneOfTheNames);

/** One value per parameter: a repeated query-string key (?limit=1&limit=2) is ambiguous. */
function single(raw: Raw, name: string): unknown {
  const v = raw[name];
  if (Array.isArray(v)) throw invalidParameter(`'${name}' was given more than once.`, name);
  return v;
}

/** A text parameter, its length checked against its cap (src/limits.ts) before anything reads it. */
function optionalString(raw: Raw, name: string, limit: TextLimit): string | undefined {
  const v = single(raw, name);
  const checked = optionalText.safeParse(v);
  if (!checked.success) throw invalidParameter(`'${name}' must be a string.`, name);
  if (checked.data === undefined || checked.data === null) return undefined;
  if (!fits(checked.data, limit)) throw invalidParameter(tooLongMessage(name, limit, checked.data.length), name);
  const trimmed = checked.data.trim();
  return trimmed === "" ? undefined : trimmed;
}

function parseLimit(raw: Raw): number {
  const v = single(raw, "limit");
  if (v === undefined || v === null || v === "") return 5;
  const n = limitValue.safeParse(v);
  if (!n.success) throw invalidParameter(`'limit' must be an integer from 1 to ${MAX_LIMIT}.`, "limit");
  return n.data;
}

const given = (v: unknown) => v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "");

/** The search text under the method's own name or its alias, and the name it came under. */
function searchText(raw: Raw, primary: QueryName): { q: unknown; name: QueryName } {
  const alias = QUERY_NAMES[primary];
  const own = single(raw, primary);
  const other = single(raw, alias);
  if (given(own) && given(other) && own !== other) {
    throw invalidParameter(`'${primary}' and '${alias}' name the same parameter but differ; send one of them.`, alias);
  }
  return given(own) || !given(other) ? { q: own, name: primary } : { q: other, name: alias };
}

/**
 * Validates a search request (GET query string or POST body) into a SearchRequest; every bad input
 * is a 400 in the error envelope. `queryParam` is "q" for GET and "query" for POST (each accepts the other).
 */
export function parseSearchRequest(raw: Raw, queryParam: QueryName, bibleIds: readonly string[]): SearchRequest & { rawQuery: string } {
  const { q, name } = searchText(raw, queryParam);
  if (q === undefined || q === null || (typeof q === "string" && q.trim() === "")) {
    throw invalidRequest(`'${queryParam}' (or '${QUERY_NAMES[queryParam]}') is required and must not be empty.`, queryParam);
  }
  if (typeof q !== "string") throw invalidRequest(`'${name}' must be a string.`, name);
  if (!fits(q, "query")) throw invalidParameter(tooLongMessage(name, "query", q.length), name);
  const crossBook = crossBookProblem(q);
  if (crossBook !== undefined) throw invalidParameter(crossBook, name);

  const bibleId = optionalString(raw, "bible_id", "name") ?? DEFAULT_TRANSLATION_ID;
  if (!bibleIds.includes(bibleId)) {
    throw invalidParameter(`Unknown bible_id '${bibleId}'. Available: ${bibleIds.join(", ")} (see GET /v1/translations).`, "bible_id");
  }

  const limit = parseLimit(raw);

  const testamentText = optionalString(raw, "testament", "name");
  if (testamentText !== undefined && !testamentValue.safeParse(testamentText).success) {
    throw invalidParameter(`'testament' must be "Old Testament" or "New Testament".`, "testament");
  }
  const testament = testamentText === undefined ? undefined : TESTAMENTS[testamentText.toLowerCase().replace(/\s+/g, " ")];

  const bookText = optionalString(raw, "book", "bookName");
  const book = bookText === undefined ? undefined : findBook(bookText);
  if (bookText !== undefined && book === undefined) {
    throw invalidParameter(`Unknown book '${bookText}'. Use a book name or id such as "John" or "JHN".`, "book");
  }

  const given = single(raw, "deuterocanon");
  const deutero = typeof given === "string" ? given.trim().toLowerCase() : given;
  const deuteroOk = commonFields.deuterocanon.safeParse(deutero);
  if (!deuteroOk.success) throw invalidParameter(`'deuterocanon' must be true or false.`, "deuterocanon");
  const deuterocanon = deutero === true || deutero === "true" || deutero === "1";

  return {
    rawQuery: q,
    query: q.trim(),
    bibleId,
    limit,
    ...(testament ? { testament } : {}),
    ...(book ? { book: book.id } : {}),
    ...(deuterocanon ? { deuterocanon } : {}),
  };
}
