import { Router, type NextFunction, type Request, type Response } from "express";
import type { Config } from "../../config.js";
import { route } from "../routes.js";
import { readApiKey } from "./auth.js";
import type { ChatCatalog } from "./catalog.js";
import { chatHandler, type RunChat } from "./handler.js";

export type { ChatCatalog } from "./catalog.js";
export { chatCatalog } from "./catalog.js";
export type { RunChat } from "./handler.js";

export const CHAT_PATH = "/v1/chat/completions";

export interface ChatRouteDeps {
  /** runChat bound to a compiled graph (or a scripted runner in adapter tests). */
  run: RunChat;
  catalog: ChatCatalog;
  config: Pick<Config, "defaultModel" | "preflightModel">;
}

/**
 * The body parser runs app-wide before any router, so a malformed or oversized body fails before the
 * chat handler runs, and an error middleware inside a router never sees it. Auth comes first by
 * contract, so give this to createApp's `errorHooks`: an unauthenticated chat request is told 401
 * whatever its body.
 */
export function chatAuthFirst(err: unknown, req: Request, _res: Response, next: NextFunction) {
  if (req.method !== "POST" || req.path.replace(/\/+$/, "") !== CHAT_PATH) return next(err);
  try {
    readApiKey(req.get("authorization"));
    next(err);
  } catch (authErr) {
    next(authErr);
  }
}

export function chatRouter(deps: ChatRouteDeps): Router {
  const router = Router();
  route(router, CHAT_PATH, {
    post: chatHandler({
      run: deps.run,
      catalog: deps.catalog,
      defaults: { defaultModel: deps.config.defaultModel, preflightModel: deps.config.preflightModel },
    }),
  });
  return router;
}
