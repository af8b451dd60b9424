import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse, STATUS_CODES } from "node:http";
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

/**
 * An HTTP server for the app with the service's socket timeouts; listen() it yourself. What Node itself
 * refuses before the app sees a request (unparsable HTTP, headers too large, too slow, no Host, CONNECT)
 * gets the same error envelope as every other error, instead of Node's bare status line or closed socket.
 */
export function createHttpServer(handler: RequestListener, timeouts: ServerTimeouts = SERVER_TIMEOUTS): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headersTimeout,
      requestTimeout: timeouts.requestTimeout,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
      // Node's own refusal of an HTTP/1.1 request without Host is an empty 400; ours below has the envelope.
      requireHostHeader: false,
    },
    (req, res) => {
      if (req.httpVersion === "1.1" && req.headers.host === undefined) return void refuse(res, missingHost());
      handler(req, res);
    },
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  server.on("clientError", answerClientError);
  // Without a listener Node closes a CONNECT's socket without a word.
  server.on("connect", (_req: IncomingMessage, socket: Duplex) => writeError(socket, connectNotAllowed()));
  return server;
}

const missingHost = () =>
  new AppError({ status: 400, type: "invalid_request_error", code: "invalid_request", message: "An HTTP/1.1 request needs a Host header." });

const connectNotAllowed = () =>
  new AppError({ status: 405, type: "invalid_request_error", code: "method_not_allowed", message: "Method CONNECT is not allowed here.", headers: { Allow: "GET, HEAD, POST, OPTIONS" } });

function refuse(res: ServerResponse, appErr: AppError) {
  const body = JSON.stringify(errorBody(appErr));
  res.writeHead(appErr.status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body), Connection: "close", ...appErr.headers });
  res.end(body);
}

/** An error response written straight to a socket no response object owns, then the socket closed. */
function writeError(socket: Duplex, appErr: AppError) {
  const body = JSON.stringify(errorBody(appErr));
  const extra = Object.entries(appErr.headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  socket.on("error", () => undefined);
  socket.end(
    `HTTP/1.1 ${appErr.status} ${STATUS_CODES[appErr.status]}\r\nContent-Type: application/json; charset=utf-8\r\n${extra}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
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
  writeError(socket, clientErrorOf(err.code));
}
