import { Router, type Request, type Response } from "express";
import { invalidRequest, serviceUnavailable } from "../../errors.js";
import { SearchUnavailableError, type ScriptureSearch } from "../../scripture/search/search.js";
import { translationIds } from "../../scripture/translations.js";
import { route } from "../routes.js";
import { searchResponseBody } from "./body.js";
import { parseSearchRequest } from "./schema.js";

type Searcher = Pick<ScriptureSearch, "search">;

/** GET and POST /v1/scripture/search (no key): spec and contract, ranking on eng-web. */
export function searchRouter(search: Searcher, bibleIds: () => readonly string[] = translationIds): Router {
  const router = Router();
  const handle = (source: "query" | "body") => async (req: Request, res: Response) => {
    const raw: unknown = source === "query" ? req.query : req.body;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw invalidRequest("The request body must be a JSON object with a 'query' field.");
    }
    const parsed = parseSearchRequest(raw as Record<string, unknown>, source === "query" ? "q" : "query", bibleIds());
    const { rawQuery, ...request } = parsed;
    try {
      const { results, type, lowConfidence } = await search.search(request);
      // What res.json would send, with the chapter texts' JSON cached (body.ts).
      res.set("Content-Type", "application/json; charset=utf-8");
      res.send(searchResponseBody({ results, query: rawQuery, bible_id: request.bibleId, total: results.length, type, low_confidence: lowConfidence === true }));
    } catch (err) {
      if (err instanceof SearchUnavailableError) throw serviceUnavailable(err.message, "search_unavailable");
      throw err;
    }
  };
  route(router, "/v1/scripture/search", { get: handle("query"), post: handle("body") });
  return router;
}
