import type { NextFunction, Request, Response } from "express";
import { type ApiKeyRule, checkApiKey, DEFAULT_API_KEY_PREFIXES, providerFor, type RequestCatalog } from "../../../graphs/chat/contract.js";
import { toHttpError } from "./errors.js";

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The caller's own provider key from `Authorization: Bearer <key>`, checked by the contract's key rule.
 * Messages never echo the key (not even masked): it is the caller's secret for another service.
 */
export function readApiKey(authorization: string | undefined, rule: ApiKeyRule = DEFAULT_API_KEY_PREFIXES, provider?: string): string {
  const match = authorization === undefined ? null : BEARER.exec(authorization.trim());
  try {
    return checkApiKey(match?.[1], rule, provider);
  } catch (err) {
    throw toHttpError(err);
  }
}

/**
 * The key checked by the rule of the provider the body's `model` reaches (a named provider's
 * KEY_PREFIXES; otherwise the default provider's). Only the model name is read from the body.
 */
export function readRequestKey(req: Request, catalog: Pick<RequestCatalog, "providers">): string {
  const model = typeof req.body === "object" && req.body !== null ? (req.body as { model?: unknown }).model : undefined;
  const provider = providerFor(model, catalog);
  return readApiKey(req.get("authorization"), provider.keyRule, provider.name);
}

/**
 * Auth comes first by contract: this runs before the body is read, so a bad key is told 401 whatever the
 * body. Which provider the request reaches is not known yet, so a key passes here when some configured
 * provider's rule accepts it; the handler then checks it against the rule of the provider its model
 * reaches (readRequestKey). With one provider the two checks are the same.
 */
export function requireApiKey(catalog: () => Pick<RequestCatalog, "providers">) {
  return (req: Request, _res: Response, next: NextFunction) => {
    try {
      const providers = catalog().providers.all();
      let first: unknown;
      for (const provider of providers) {
        try {
          readApiKey(req.get("authorization"), provider.keyRule, provider.name);
          return next();
        } catch (err) {
          first ??= err;
        }
      }
      next(first);
    } catch (err) {
      next(err);
    }
  };
}
