import type { RequestHandler, Router } from "express";
import { methodNotAllowed } from "../errors.js";

type Method = "get" | "post";

/**
 * Declares a path with its handlers and answers 405 (with Allow) for every other method, so that a
 * wrong method is told apart from an unknown route.
 */
export function route(router: Router, path: string, handlers: Partial<Record<Method, RequestHandler | RequestHandler[]>>) {
  const r = router.route(path);
  const allowed: string[] = [];
  for (const [method, handler] of Object.entries(handlers) as [Method, RequestHandler | RequestHandler[]][]) {
    r[method](...(Array.isArray(handler) ? handler : [handler]));
    allowed.push(method.toUpperCase());
    if (method === "get") allowed.push("HEAD");
  }
  r.all((req, _res, next) => next(req.method === "OPTIONS" ? undefined : methodNotAllowed(req.method, allowed)));
}
