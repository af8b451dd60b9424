import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { applyServerTimeouts } from "../../src/http/server-timeouts.js";

describe("the HTTP server's socket timeouts", () => {
  it("when applied, then idle keep-alive sockets outlive a 60 s load-balancer idle timeout and headersTimeout exceeds them", () => {
    const server = applyServerTimeouts(createServer());
    expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
  });

  it("when a client asks, then the Keep-Alive hint it gets names the long timeout (not Node's 5 s default)", async () => {
    const server = applyServerTimeouts(createServer((_req, res) => res.end("ok")));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    const hint = await new Promise<string>((resolve, reject) => {
      request({ port, host: "127.0.0.1", headers: { connection: "keep-alive" } }, (res) => {
        res.resume();
        resolve(String(res.headers["keep-alive"]));
      })
        .on("error", reject)
        .end();
    });
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    expect(hint).toBe("timeout=65");
  });
});
