import { createServer, STATUS_CODES, type RequestListener, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { AppError, errorBody } from "../errors.js";

/**
 * The socket timeouts of the service's HTTP server (values and reasons: docs/reliability.md).
 * - keepAliveTimeout: idle keep-alive sockets live longer than the 60 s idle timeout of common load
 *   balancers, so the proxy (or a client's pool) drops an idle connection first and never sends a request
 *   on a socket the server is closing at that moment (an ECONNRESET for the caller).
 * - headersTimeout / requestTimeout: a client that trickles its headers, or its body, is cut off, so
 *   connections that send nothing useful cannot pile up (hundreds were held for a minute before). They run
 *   only while a request is being received, so idle keep-alive sockets keep their 65 s.
 * - checkIntervalMs: how often Node looks for such connections (its default, 30 s, would let one live
 *   that much longer than its timeout).
 */
export interface ServerTimeouts {
  keepAliveTimeout: number;
  headersTimeout: number;
  requestTimeout: number;
  checkIntervalMs: number;
}

export const SERVER_TIMEOUTS: ServerTimeouts = {
  keepAliveTimeout: 65_000,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  checkIntervalMs: 1_000,
};

/** An HTTP server for the app with the service's socket timeouts; listen() it yourself. */
export function createHttpServer(handler: RequestListener, timeouts: ServerTimeouts = SERVER_TIMEOUTS): Server {
  const server = createServer(
    { headersTimeout: timeouts.headersTimeout, requestTimeout: timeouts.requestTimeout, connectionsCheckingInterval: timeouts.checkIntervalMs },
    handler,
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  server.on("clientError", answerClientError);
  return server;
}

/** What Node refuses before the app sees a request, as the status and error code the app would give. */
function clientErrorOf(code: unknown): AppError {
  if (code === "HPE_HEADER_OVERFLOW") {
    return new AppError({ status: 431, type: "invalid_request_error", code: "headers_too_large", message: "The request's headers are too large." });
  }
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return new AppError({ status: 408, type: "invalid_request_error", code: "request_timeout", message: "The request was not received in time." });
  }
  return new AppError({ status: 400, type: "invalid_request_error", code: "invalid_request", message: "The request is not valid HTTP." });
}

/**
 * Node answers a request it cannot parse (or whose headers or body did not arrive in time) itself, with a
 * bare status line and no body; this gives those answers the error envelope every other error has. Nothing
 * of the request is quoted. A socket already answering, or gone, is only closed, as Node would.
 */
function answerClientError(err: Error & { code?: unknown }, socket: Duplex) {
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (err.code === "ECONNRESET" || !socket.writable || answering) {
    socket.destroy();
    return;
  }
  const appErr = clientErrorOf(err.code);
  const body = JSON.stringify(errorBody(appErr));
  socket.end(
    `HTTP/1.1 ${appErr.status} ${STATUS_CODES[appErr.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
