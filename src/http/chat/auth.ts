import type { NextFunction, Request, Response } from "express";
import { type ApiKeyRule, checkApiKey, DEFAULT_API_KEY_PREFIXES } from "../../../graphs/chat/contract.js";
import { toHttpError } from "./errors.js";

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The caller's own provider key from `Authorization: Bearer <key>`, checked by the contract's key rule.
 * Messages never echo the key (not even masked): it is the caller's secret for another service.
 */
export function readApiKey(authorization: string | undefined, rule: ApiKeyRule = DEFAULT_API_KEY_PREFIXES): string {
  const match = authorization === undefined ? null : BEARER.exec(authorization.trim());
  try {
    return checkApiKey(match?.[1], rule);
  } catch (err) {
    throw toHttpError(err);
  }
}

/**
 * Auth comes first by contract: this runs before the body is read, so a bad key is told 401 whatever the
 * body. The rule is read per request from the contract's catalog (built lazily with the runtime).
 */
export function requireApiKey(rule: () => ApiKeyRule) {
  return (req: Request, _res: Response, next: NextFunction) => {
    try {
      readApiKey(req.get("authorization"), rule());
      next();
    } catch (err) {
      next(err);
    }
  };
}
