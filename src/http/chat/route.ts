import { Router } from "express";
import type { RequestCatalog } from "../../../graphs/chat/contract.js";
import type { RunChat } from "../../../graphs/chat/runtime.js";
import type { Config } from "../../config.js";
import type { InFlight } from "../in-flight.js";
import { route } from "../routes.js";
import { requireApiKey } from "./auth.js";
import { chatHandler } from "./handler.js";

export type { RunChat } from "../../../graphs/chat/runtime.js";

export const CHAT_PATH = "/v1/chat/completions";

export interface ChatRouteDeps {
  /** The chat runtime's run (graphs/chat/runtime.ts), or a scripted runner in adapter tests. */
  run: RunChat;
  catalog: RequestCatalog;
  config: Pick<Config, "defaultModel" | "preflightModel">;
  /** Each request's overall deadline and the shutdown's end of open streams (src/http/in-flight.ts). */
  inFlight?: InFlight;
}

export function chatRouter(deps: ChatRouteDeps): Router {
  const router = Router();
  route(router, CHAT_PATH, {
    // The key is checked before the body is read (route() parses it just before the handler).
    post: [
      requireApiKey(() => deps.catalog),
      chatHandler({
        run: deps.run,
        catalog: deps.catalog,
        defaults: { defaultModel: deps.config.defaultModel, preflightModel: deps.config.preflightModel },
        ...(deps.inFlight ? { inFlight: deps.inFlight } : {}),
      }),
    ],
  });
  return router;
}
