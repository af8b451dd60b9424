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
 * The body parser runs app-wide before this router, so a malformed or oversized body fails first.
 * Auth is checked first by contract: an unauthenticated request is told 401 whatever its body.
 */
function authBeforeBodyErrors(err: unknown, req: Request, _res: Response, next: NextFunction) {
  try {
    readApiKey(req.get("authorization"));
    next(err);
  } catch (authErr) {
    next(authErr);
  }
}

export function chatRouter(deps: ChatRouteDeps): Router {
  const router = Router();
  router.use(CHAT_PATH, authBeforeBodyErrors);
  route(router, CHAT_PATH, {
    post: chatHandler({
      run: deps.run,
      catalog: deps.catalog,
      defaults: { defaultModel: deps.config.defaultModel, preflightModel: deps.config.preflightModel },
    }),
  });
  return router;
}
