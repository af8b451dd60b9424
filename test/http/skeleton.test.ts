import { connect } from "node:net";
import { Writable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { listen, type Listening } from "../helpers/listen.js";

let ready = false;
let draining = false;
let srv: Listening;
const logLines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({ write: (c, _e, cb) => (logLines.push(String(c)), cb()) });
  const app = createApp({
    config: loadConfig({}),
    logger: createLogger("debug", sink),
    readiness: { ready: () => ready, detail: () => ({ search: ready ? "ready" : "indexing" }) },
    listings: {
      models: ["gpt-4o-mini", "gpt-4o"],
      modelsCreated: 1700000000,
      translations: () => [{ id: "eng-web" }],
      theologies: () => [{ slug: "default" }],
      profiles: () => [{ slug: "universal_explorer" }],
    },
    routers: [],
    isDraining: () => draining,
  });
  srv = await listen(app);
});
afterAll(() => srv.close());

const get = (path: string, init?: RequestInit) => fetch(srv.url + path, init);

describe("service skeleton", () => {
  it("when alive, then /healthz is 200 and /readyz follows readiness", async () => {
    expect((await get("/healthz")).status).toBe(200);
    expect((await get("/readyz")).status).toBe(503);
    ready = true;
    const res = await get("/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ready", search: "ready" });
  });

  it("when a route is unknown, then 404 in the error envelope", async () => {
    const res = await get("/v1/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { message: expect.stringContaining("/v1/nope"), type: "invalid_request_error", code: "not_found", param: null },
    });
  });

  it("when the method is wrong, then 405 with Allow", async () => {
    const res = await get("/v1/models", { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
    expect((await res.json()).error.code).toBe("method_not_allowed");
  });

  it("when the body is over 1 MB, then 413 request_too_large", async () => {
    const res = await get("/v1/models", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ x: "a".repeat(1_100_000) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatchObject({ code: "request_too_large", type: "invalid_request_error" });
  });

  it("when the Content-Length announces more than 1 MB, then 413 from the header without waiting for the body, and the connection closes", async () => {
    // A raw socket: the client announces 50 MB, sends 1 KB and waits, as a slow or hostile client does.
    const { port } = new URL(srv.url);
    const socket = connect(Number(port), "127.0.0.1");
    const received: Buffer[] = [];
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.on("data", (d: Buffer) => received.push(d));
    socket.write("POST /v1/models HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n");
    socket.write(`{"x":"${"a".repeat(1000)}`);
    const outcome = await Promise.race([closed.then(() => "closed"), new Promise((r) => setTimeout(() => r("still open"), 5_000))]);
    socket.destroy();
    expect(outcome).toBe("closed");
    const text = Buffer.concat(received).toString();
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 413 Payload Too Large");
    expect(text.toLowerCase()).toContain("connection: close");
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)).error).toMatchObject({ code: "request_too_large", type: "invalid_request_error" });
  });

  it("when the JSON is malformed, then 400 invalid_request", async () => {
    const res = await get("/v1/models", { method: "POST", headers: { "content-type": "application/json" }, body: "{oops" });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("invalid_request");
  });

  it.each([
    ["gzip", "not gzip at all"],
    ["deflate", "{\"x\": 1}"],
    ["br", "\u0000\u0001garbage"],
  ])("when the body claims Content-Encoding %s but its bytes are not, then 400 invalid_request (not a 500)", async (encoding, body) => {
    const res = await get("/v1/models", { method: "POST", headers: { "content-type": "application/json", "content-encoding": encoding }, body });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: "invalid_request", type: "invalid_request_error", param: null });
  });

  it("when a gzipped body inflates past 1 MB, then 413 request_too_large", async () => {
    const body = gzipSync(JSON.stringify({ x: "a".repeat(1_100_000) }));
    const res = await get("/v1/models", { method: "POST", headers: { "content-type": "application/json", "content-encoding": "gzip" }, body });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("request_too_large");
  });

  it.each(["/v1/models/%ZZ", "/v1/models/%E0%A4%A", "/v1/models/abc%"])(
    "when a path segment is not valid percent-encoding (%s), then 400 invalid_request, not a 500 with an error line",
    async (path) => {
      const before = logLines.length;
      const res = await get(path);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: { message: expect.stringContaining("percent-encoding"), type: "invalid_request_error", code: "invalid_request", param: null },
      });
      await new Promise((r) => setTimeout(r, 20));
      expect(logLines.slice(before).filter((l) => JSON.parse(l).level >= 50)).toEqual([]);
    },
  );

  it("when listing models, then the OpenAI list shape with the default first", async () => {
    const body = await (await get("/v1/models")).json();
    expect(body.object).toBe("list");
    expect(body.data[0]).toEqual({ id: "gpt-4o-mini", object: "model", created: 1700000000, owned_by: "biblical-chat" });
    expect((await get("/v1/models/gpt-4o")).status).toBe(200);
    const missing = await get("/v1/models/nope");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("model_not_found");
  });

  it("when a browser asks, then CORS allows any origin without credentials", async () => {
    const res = await get("/v1/models", { method: "OPTIONS", headers: { origin: "https://example.org", "access-control-request-method": "POST" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("when draining, then new requests get 503 but liveness stays 200", async () => {
    draining = true;
    try {
      expect((await get("/v1/models")).status).toBe(503);
      expect((await get("/healthz")).status).toBe(200);
      expect((await get("/readyz")).status).toBe(503);
    } finally {
      draining = false;
    }
  });

  it("when a request is served, then its log line carries the request id and no headers", async () => {
    const res = await get("/v1/models", { headers: { authorization: "Bearer sk-skeleton-secret", "x-request-id": "abc-123" } });
    expect(res.headers.get("x-request-id")).toBe("abc-123");
    await new Promise((r) => setTimeout(r, 20));
    const line = logLines.find((l) => l.includes('"abc-123"'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ requestId: "abc-123", status: 200, path: "/v1/models" });
    expect(logLines.join("")).not.toContain("sk-skeleton-secret");
  });
});
