import { Router } from "express";
import { route } from "../routes.js";
import { buildOpenApiDocument } from "./document.js";

/** GET /openapi.json (no key). The document is built once: it follows from code, not from requests. */
export function openapiRouter(version?: string): Router {
  const router = Router();
  const body = JSON.stringify(buildOpenApiDocument(version));
  route(router, "/openapi.json", {
    get: (_req, res) => {
      res.setHeader("Cache-Control", "public, max-age=300");
      res.type("application/json").send(body);
    },
  });
  return router;
}
