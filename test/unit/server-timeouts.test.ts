import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { request, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpServer, SERVER_TIMEOUTS } from "../../src/http/server-timeouts.js";

const quick = { keepAliveTimeout: 65_000, headersTimeout: 600, requestTimeout: 1_200, checkIntervalMs: 100 };
const servers: Server[] = [];

async function start(timeouts = quick): Promise<number> {
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => res.end("ok"));
  }, timeouts);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

/** How long until the server closes a socket that sends `first` and then trickles `drip` every 200 ms. */
function heldFor(port: number, first: string, drip: string): Promise<number> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket: Socket = connect(port, "127.0.0.1", () => socket.write(first));
    const timer = setInterval(() => socket.writable && socket.write(drip), 200);
    socket.on("data", () => undefined);
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(timer);
      resolve(performance.now() - started);
    });
  });
}

describe("the HTTP server's socket timeouts", () => {
  it("when the service's values are read, then idle keep-alive outlives a 60 s load balancer and slow requests are cut within seconds", () => {
    expect(SERVER_TIMEOUTS.keepAliveTimeout).toBeGreaterThan(60_000);
    expect(SERVER_TIMEOUTS.headersTimeout).toBeLessThanOrEqual(15_000);
    expect(SERVER_TIMEOUTS.requestTimeout).toBeLessThanOrEqual(60_000);
    expect(SERVER_TIMEOUTS.checkIntervalMs).toBeLessThanOrEqual(SERVER_TIMEOUTS.headersTimeout / 5);
  });

  it("when a client trickles its headers, then the connection is closed after headersTimeout", async () => {
    const port = await start();
    const held = await heldFor(port, "GET / HTTP/1.1\r\nHost: x\r\n", "X-Slow: 1\r\n");
    expect(held).toBeGreaterThanOrEqual(quick.headersTimeout - 50);
    expect(held).toBeLessThan(quick.headersTimeout + 1_500);
  });

  it("when a client trickles its body, then the connection is closed after requestTimeout", async () => {
    const port = await start();
    const held = await heldFor(port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", "a");
    expect(held).toBeGreaterThanOrEqual(quick.requestTimeout - 50);
    expect(held).toBeLessThan(quick.requestTimeout + 1_500);
  });

  it("when a keep-alive socket idles past headersTimeout, then it still carries the next request", async () => {
    const port = await start();
    const get = (socket: Socket) =>
      new Promise<string>((resolve) => {
        socket.once("data", (d) => resolve(String(d)));
        socket.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n");
      });
    const socket = connect(port, "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    expect(await get(socket)).toMatch(/^HTTP\/1\.1 200/);
    await new Promise((r) => setTimeout(r, quick.requestTimeout + 300));
    expect(await get(socket)).toMatch(/^HTTP\/1\.1 200/);
    socket.destroy();
  });

  it("when a client asks, then the Keep-Alive hint it gets names the long timeout (not Node's 5 s default)", async () => {
    const port = await start(SERVER_TIMEOUTS);
    const hint = await new Promise<string>((resolve, reject) => {
      request({ port, host: "127.0.0.1", headers: { connection: "keep-alive" } }, (res) => {
        res.resume();
        resolve(String(res.headers["keep-alive"]));
      })
        .on("error", reject)
        .end();
    });
    expect(hint).toBe("timeout=65");
  });
});

/** Everything the server writes back to `bytes` (sent at once, then trickled `drip` every 200 ms if given) until it closes. */
function exchange(port: number, bytes: string, drip?: string): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    const socket: Socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    const timer = drip ? setInterval(() => socket.writable && socket.write(drip), 200) : undefined;
    socket.on("data", (d) => (out += String(d)));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(timer);
      resolve(out);
    });
  });
}

function errorOf(raw: string) {
  const [head = "", body = ""] = raw.split("\r\n\r\n");
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), type: /content-type: ([^\r\n]*)/i.exec(head)?.[1], body: JSON.parse(body) };
}

describe("what the HTTP server answers a request it cannot hand to the app", () => {
  it("when the headers are too large, then 431 with the error envelope (not an empty body)", async () => {
    const port = await start();
    const got = errorOf(await exchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`));
    expect(got.status).toBe(431);
    expect(got.type).toMatch(/^application\/json/);
    expect(got.body).toEqual({ error: { message: expect.any(String), type: "invalid_request_error", code: "headers_too_large", param: null } });
  });

  it("when the request is not valid HTTP, then 400 invalid_request with the error envelope", async () => {
    const port = await start();
    const got = errorOf(await exchange(port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"));
    expect(got.status).toBe(400);
    expect(got.body).toEqual({ error: { message: expect.any(String), type: "invalid_request_error", code: "invalid_request", param: null } });
  });

  it("when a body trickles past requestTimeout, then 408 with the error envelope", async () => {
    const port = await start();
    const got = errorOf(await exchange(port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", "a"));
    expect(got.status).toBe(408);
    expect(got.body).toEqual({ error: { message: expect.any(String), type: "invalid_request_error", code: "request_timeout", param: null } });
  });
});

describe("requests Node would refuse without a body", () => {
  it("when the method is CONNECT, then 405 method_not_allowed with the error envelope (not a silently closed socket)", async () => {
    const port = await start();
    const got = errorOf(await exchange(port, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"));
    expect(got.status).toBe(405);
    expect(got.body).toEqual({ error: { message: expect.any(String), type: "invalid_request_error", code: "method_not_allowed", param: null } });
  });

  it("when an HTTP/1.1 request has no Host header, then 400 invalid_request with the error envelope", async () => {
    const port = await start();
    const got = errorOf(await exchange(port, "GET / HTTP/1.1\r\n\r\n"));
    expect(got.status).toBe(400);
    expect(got.body).toEqual({ error: { message: expect.stringContaining("Host"), type: "invalid_request_error", code: "invalid_request", param: null } });
  });

  it("when an HTTP/1.0 request has no Host header, then it is served (HTTP/1.0 has none)", async () => {
    const port = await start();
    expect(await exchange(port, "GET / HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1\.1 200/);
  });
});
