import { Router } from "express";
import { requireApiKey } from "../chat/auth.js";
import { answerHandler } from "../chat/handler.js";
import type { ChatRouteDeps } from "../chat/route.js";
import { route } from "../routes.js";
import { responsesFormat } from "./format.js";

export const RESPONSES_PATH = "/v1/responses";

/**
 * POST /v1/responses: OpenAI's Responses API in its stateless form, over the same runtime, contract
 * and handler as chat completions (key first, then the body; docs/clients.md).
 */
export function responsesRouter(deps: ChatRouteDeps): Router {
  const router = Router();
  route(router, RESPONSES_PATH, {
    post: [
      requireApiKey(() => deps.catalog),
      answerHandler(
        {
          run: deps.run,
          catalog: deps.catalog,
          defaults: { defaultModel: deps.config.defaultModel, preflightModel: deps.config.preflightModel },
          ...(deps.inFlight ? { inFlight: deps.inFlight } : {}),
        },
        responsesFormat,
      ),
    ],
  });
  return router;
}
