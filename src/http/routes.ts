import express, { type RequestHandler, type Router } from "express";
import { methodNotAllowed } from "../errors.js";

type Method = "get" | "post";

/** The JSON body parser (1 MB); its failures become the contract's 400/413 in the error handler. */
export const jsonBody: RequestHandler = express.json({ limit: "1mb", strict: false });

/**
 * Declares a path with its handlers and answers 405 (with Allow) for every other method, so that a
 * wrong method is told apart from an unknown route. The body is read just before a method's last
 * handler (and before the 405), so checks listed before it (chat's auth) run first whatever the body
 * holds, and a malformed body is still told 400/413 before anything else.
 */
export function route(router: Router, path: string, handlers: Partial<Record<Method, RequestHandler | RequestHandler[]>>) {
  const r = router.route(path);
  const allowed: string[] = [];
  for (const [method, handler] of Object.entries(handlers) as [Method, RequestHandler | RequestHandler[]][]) {
    const chain = Array.isArray(handler) ? [...handler] : [handler];
    chain.splice(chain.length - 1, 0, jsonBody);
    r[method](...chain);
    allowed.push(method.toUpperCase());
    if (method === "get") allowed.push("HEAD");
  }
  r.all(jsonBody, (req, _res, next) => next(req.method === "OPTIONS" ? undefined : methodNotAllowed(req.method, allowed)));
}
