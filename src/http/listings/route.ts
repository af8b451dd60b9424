import { Router, type Request, type Response } from "express";
import { listingLanguage } from "../../prompts/language.js";
import type { Language } from "../../prompts/types.js";
import { AppError } from "../../errors.js";
import { route } from "../routes.js";

export interface ListingSources {
  models: string[];
  /** Unix seconds shown as each model's `created` (the models are the provider's; we only pass names on). */
  modelsCreated: number;
  translations: () => unknown[];
  /** Names and descriptions in lang (from `?lang=` or Accept-Language). */
  theologies: (lang: Language) => unknown[];
  profiles: (lang: Language) => unknown[];
}

/** Key-less listings. Shapes: spec (theologies, profiles), contract (translations, OpenAI-style models). */
export function listingsRouter(src: ListingSources): Router {
  const router = Router();
  route(router, "/v1/models", {
    get: (_req, res) =>
      void res.json({
        object: "list",
        data: src.models.map((id) => ({ id, object: "model", created: src.modelsCreated, owned_by: "biblical-chat" })),
      }),
  });
  // A named provider's models hold a slash (`alt/some-model`): the id is the rest of the path.
  route(router, "/v1/models/*model", {
    get: (req, res, next) => {
      const raw = (req.params as Record<string, string | string[]>).model;
      const id = Array.isArray(raw) ? raw.join("/") : String(raw);
      if (!src.models.includes(id)) {
        next(new AppError({ status: 404, type: "invalid_request_error", code: "model_not_found", param: "model", message: `The model '${id}' does not exist. See GET /v1/models.` }));
        return;
      }
      res.json({ id, object: "model", created: src.modelsCreated, owned_by: "biblical-chat" });
    },
  });
  route(router, "/v1/translations", { get: (_req, res) => void res.json({ translations: src.translations() }) });
  const lang = (req: Request, res: Response): Language => {
    const l = listingLanguage(req.query.lang, req.get("accept-language"));
    res.vary("Accept-Language").set("Content-Language", l);
    return l;
  };
  route(router, "/v1/theologies", { get: (req, res) => void res.json({ theologies: src.theologies(lang(req, res)) }) });
  route(router, "/v1/profiles", { get: (req, res) => void res.json({ profiles: src.profiles(lang(req, res)) }) });
  return router;
}
