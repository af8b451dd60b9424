import { AppError } from "../../errors.js";

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

const unauthorized = (code: "missing_api_key" | "invalid_api_key", message: string) =>
  new AppError({ status: 401, type: "invalid_request_error", code, message });

/**
 * The caller's own provider key from `Authorization: Bearer <key>`. Messages never echo the key
 * (not even masked): it is the caller's secret for another service.
 */
export function readApiKey(authorization: string | undefined): string {
  const match = authorization === undefined ? null : BEARER.exec(authorization.trim());
  if (!match) {
    throw unauthorized(
      "missing_api_key",
      "You didn't provide an API key. Send your model provider's key as 'Authorization: Bearer sk-...'.",
    );
  }
  const key = match[1]!;
  if (!key.startsWith("sk-") || key.length <= 3) {
    throw unauthorized("invalid_api_key", "The API key is not valid: keys start with 'sk-'.");
  }
  return key;
}
