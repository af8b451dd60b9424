import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { Express } from "express";
import { createHttpServer, SERVER_TIMEOUTS, type ServerTimeouts } from "../../src/http/server-timeouts.js";

export interface Listening {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Starts an app on an ephemeral loopback port with the service's own socket timeouts; close() drops keep-alive sockets first. */
export async function listen(app: Express, timeouts: ServerTimeouts = SERVER_TIMEOUTS): Promise<Listening> {
  const server = await new Promise<Server>((resolve) => {
    const s = createHttpServer(app, timeouts);
    s.listen(0, "127.0.0.1", () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
