/**
 * Every error the service answers with travels as an AppError and leaves as OpenAI's error envelope,
 * so the official SDKs map it to their error classes (they read error.type, error.code, error.param).
 */
export type ErrorType = "invalid_request_error" | "server_error";

export interface AppErrorInit {
  status: number;
  type: ErrorType;
  code: string;
  message: string;
  param?: string | null;
  /** Extra fields merged into the error object (e.g. limit/count for conversation_limit_exceeded). */
  extra?: Record<string, unknown>;
  /** Extra response headers (e.g. Retry-After). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  readonly param: string | null;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(init: AppErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "AppError";
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.param = init.param ?? null;
    this.extra = init.extra ?? {};
    this.headers = init.headers ?? {};
  }
}

export interface ErrorBody {
  error: { message: string; type: ErrorType; code: string; param: string | null } & Record<string, unknown>;
}

export function errorBody(err: AppError): ErrorBody {
  return { error: { message: err.message, type: err.type, code: err.code, param: err.param, ...err.extra } };
}

export const invalidRequest = (message: string, param?: string) =>
  new AppError({ status: 400, type: "invalid_request_error", code: "invalid_request", message, param });

export const invalidParameter = (message: string, param?: string) =>
  new AppError({ status: 400, type: "invalid_request_error", code: "invalid_parameter", message, param });

export const unsupportedParameter = (message: string, param: string) =>
  new AppError({ status: 400, type: "invalid_request_error", code: "unsupported_parameter", message, param });

export const notFound = (message = "Not found.") =>
  new AppError({ status: 404, type: "invalid_request_error", code: "not_found", message });

export const methodNotAllowed = (method: string, allowed: string[]) =>
  new AppError({
    status: 405,
    type: "invalid_request_error",
    code: "method_not_allowed",
    message: `Method ${method} is not allowed here. Allowed: ${allowed.join(", ")}.`,
    headers: { Allow: allowed.join(", ") },
  });

export const serviceUnavailable = (message: string, code = "service_unavailable") =>
  new AppError({ status: 503, type: "server_error", code, message });

/** The message of a 5xx never carries internals: the cause stays in the log only. */
export const internalError = (cause?: unknown) =>
  new AppError({
    status: 500,
    type: "server_error",
    code: "internal_error",
    message: "The server had an error while processing your request.",
    cause,
  });

/** Anything thrown that is not an AppError becomes a 500 whose details stay in the log. */
export function toAppError(err: unknown): AppError {
  return err instanceof AppError ? err : internalError(err);
}
