import type { Server } from "node:http";

/**
 * Idle keep-alive sockets live longer than the 60 s idle timeout of common load balancers, so the
 * proxy (or a client's pool) drops an idle connection first and never sends a request on a socket the
 * server is closing at that moment (an ECONNRESET for the caller). headersTimeout must exceed it.
 */
export function applyServerTimeouts(server: Server): Server {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
