import { ChatError, type ChatErrorCode } from "../../../graphs/chat/errors.js";
import { AppError, type ErrorType } from "../../errors.js";

/** The HTTP status and error type of each chat domain error (docs/chat-api.md, errors). */
const HTTP: Record<ChatErrorCode, { status: number; type: ErrorType }> = {
  missing_api_key: { status: 401, type: "invalid_request_error" },
  invalid_api_key: { status: 401, type: "invalid_request_error" },
  invalid_request: { status: 400, type: "invalid_request_error" },
  invalid_parameter: { status: 400, type: "invalid_request_error" },
  model_not_found: { status: 400, type: "invalid_request_error" },
  provider_rate_limited: { status: 429, type: "invalid_request_error" },
  upstream_invalid_request: { status: 400, type: "invalid_request_error" },
  upstream_error: { status: 502, type: "server_error" },
  upstream_timeout: { status: 504, type: "server_error" },
  agent_step_limit: { status: 500, type: "server_error" },
};

/** The edge: a chat domain error becomes the contract's HTTP error; anything else passes unchanged. */
export function toHttpError<T>(err: T): AppError | T {
  if (!(err instanceof ChatError)) return err;
  const { status, type } = HTTP[err.code];
  return new AppError({
    status,
    type,
    code: err.code,
    message: err.message,
    param: err.param ?? null,
    headers: err.retryAfter ? { "Retry-After": err.retryAfter } : {},
    ...(err.cause !== undefined ? { cause: err.cause } : {}),
  });
}

/** The provider refused the caller's key (its 401/403): not our own check of the key's shape, which names no provider's answer. */
export const isKeyRefusal = (err: unknown): boolean => err instanceof ChatError && err.code === "invalid_api_key" && err.provider !== undefined;
