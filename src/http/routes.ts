import express, { type RequestHandler, type Router } from "express";
import { methodNotAllowed } from "../errors.js";

type Method = "get" | "post";

/** The largest request body the service reads. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

const parseJson: RequestHandler = express.json({ limit: BODY_LIMIT_BYTES, strict: false });

/**
 * The JSON body parser (1 MB); its failures become the contract's 400/413 in the error handler.
 * A body whose Content-Length already says it is over the limit is refused at once, from the header:
 * the parser would read (and drop) every byte first, so a client announcing 50 MB and sending it slowly
 * would wait for its answer until the request timeout. The connection is closed after the answer, since
 * the unread body is still on it. (An encoded body's length is its compressed size: the parser checks
 * what it inflates to.)
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  const declared = Number(req.headers["content-length"]);
  const encoding = (req.headers["content-encoding"] ?? "identity").toLowerCase();
  if (declared > BODY_LIMIT_BYTES && encoding === "identity") {
    if (!req.complete) res.setHeader("Connection", "close");
    next(Object.assign(new Error("request entity too large"), { type: "entity.too.large", status: 413 }));
    return;
  }
  parseJson(req, res, next);
};

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
