import type { NextFunction, Request, Response } from "express";
import { AppError, errorBody, invalidRequest, notFound, toAppError } from "../errors.js";
import { MCP_PATH, mcpErrorBody } from "./mcp/route.js";

/** Body-parser (and path-decoding) failures: the caller's malformed request, mapped to the contract's codes instead of a 500. */
function fromBodyParser(err: unknown): AppError | undefined {
  const type = (err as { type?: unknown } | null)?.type;
  if (type === "entity.too.large") {
    return new AppError({
      status: 413,
      type: "invalid_request_error",
      code: "request_too_large",
      message: "Request body is larger than the 1 MB limit.",
    });
  }
  if (type === "entity.parse.failed") return invalidRequest("Request body is not valid JSON.");
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    return invalidRequest("Request body encoding is not supported; send UTF-8 JSON.");
  }
  if (type === "request.aborted" || type === "request.size.invalid") return invalidRequest("Request body was incomplete.");
  // The router could not decode a path parameter ("/v1/lexicon/%ZZ"): the caller's malformed URL, not our
  // failure. Its message quotes the raw segment, which may hold a key, so it is replaced, not passed on.
  if (err instanceof URIError && (err as { status?: unknown }).status === 400) {
    return invalidRequest("The request path is not valid percent-encoding.");
  }
  // A body whose bytes do not match its Content-Encoding (gzip, deflate, br): body-parser passes zlib's
  // own error on with status 400 and no `type`.
  if (typeof (err as { code?: unknown } | null)?.code === "string" && /^(Z_|ERR_(ZLIB|BROTLI))/.test((err as { code: string }).code)) {
    return invalidRequest("Request body could not be decoded: it does not match its Content-Encoding.");
  }
  return undefined;
}

export function notFoundHandler(req: Request, _res: Response, next: NextFunction) {
  next(notFound(`No route for ${req.method} ${req.safePath ?? req.path}.`));
}

/** The one error middleware: every error leaves in OpenAI's envelope (JSON-RPC's on /mcp); 5xx details stay in the log. */
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction) {
  const appErr = fromBodyParser(err) ?? toAppError(err);
  const log = req.log;
  // A 503 is a known state (search down, draining) that its owner logs once when it begins, not per request.
  if (appErr.status === 503) log?.info({ code: appErr.code, status: appErr.status }, "request refused: unavailable");
  else if (appErr.status >= 500) log?.error({ err: appErr.cause ?? err, code: appErr.code }, "request failed");
  else log?.debug({ code: appErr.code, status: appErr.status }, "request rejected");
  if (res.headersSent) {
    // Streaming handlers write their own in-stream error event; here we can only end the response.
    res.end();
    return;
  }
  for (const [k, v] of Object.entries(appErr.headers)) res.setHeader(k, v);
  // Messages quote what the caller sent ("Unknown theology 'x'", "No commentary 'x'"): anything in them
  // shaped like a key (the caller's own bearer token included) leaves redacted, whichever route wrote it.
  const message = req.redactKeys?.(appErr.message) ?? appErr.message;
  const shown = message === appErr.message ? appErr : new AppError({ ...appErr, message });
  // MCP clients read JSON-RPC: the same status and message in its shape.
  res.status(appErr.status).json(req.path === MCP_PATH ? mcpErrorBody(shown) : errorBody(shown));
}
