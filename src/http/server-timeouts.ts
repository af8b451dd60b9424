import { createServer, type RequestListener, type Server } from "node:http";

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
  return server;
}
