import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProviderFetch } from "../../graphs/chat/provider-fetch.js";

// A tiny provider-like server: each path is one behaviour the transport must keep.
let server: Server;
let base: string;
let closedStreams = 0;
let releaseStream: (() => void) | undefined;
const received: { method?: string; headers: IncomingMessage["headers"]; body: string }[] = [];

function handle(req: IncomingMessage, res: ServerResponse) {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (d: string) => (body += d));
  req.on("end", () => {
    received.push({ method: req.method, headers: req.headers, body });
    if (req.url === "/json") {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "7", "x-request-id": "req_1" });
      res.end(JSON.stringify({ error: { message: "slow down" } }));
    } else if (req.url === "/stream") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: first\n\n");
      res.on("close", () => closedStreams++);
      // The rest only when the test says so: the first piece must arrive before the response ends.
      releaseStream = () => res.end("data: [DONE]\n\n");
    } else if (req.url === "/hang") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: first\n\n");
      res.on("close", () => closedStreams++);
    } else if (req.url === "/moved") {
      res.writeHead(307, { location: "/json" });
      res.end();
    } else {
      res.writeHead(404).end();
    }
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const providerFetch = createProviderFetch();

describe("the provider transport (graphs/chat/provider-fetch.ts)", () => {
  it("when it posts a JSON body, then the server gets the method, headers and body, and the caller the status, headers and body", async () => {
    const res = await providerFetch(`${base}/json`, {
      method: "POST",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: JSON.stringify({ model: "m" }),
    });
    const seen = received.at(-1)!;
    expect(seen.method).toBe("POST");
    expect(seen.headers.authorization).toBe("Bearer sk-test");
    expect(seen.headers["content-length"]).toBe(String(Buffer.byteLength(JSON.stringify({ model: "m" }))));
    expect(seen.body).toBe('{"model":"m"}');
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.headers.get("x-request-id")).toBe("req_1");
    expect(await res.json()).toEqual({ error: { message: "slow down" } });
  });

  it("when the response streams, then the first piece is readable before the response ends", async () => {
    const res = await providerFetch(`${base}/stream`, { method: "POST", body: "{}" });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
    releaseStream?.();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe("data: [DONE]\n\n");
  });

  it("when the signal aborts during the response, then reading fails and the server sees the connection close", async () => {
    const controller = new AbortController();
    const before = closedStreams;
    const res = await providerFetch(`${base}/hang`, { method: "POST", body: "{}", signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort(new Error("cut"));
    await expect(reader.read()).rejects.toBeDefined();
    await expect.poll(() => closedStreams).toBe(before + 1);
  });

  it("when the signal is already aborted, then the call rejects without a response", async () => {
    const controller = new AbortController();
    controller.abort(new Error("gone"));
    await expect(providerFetch(`${base}/json`, { method: "POST", body: "{}", signal: controller.signal })).rejects.toBeDefined();
  });

  it("when the server redirects, then the redirect is followed as fetch follows it", async () => {
    const res = await providerFetch(`${base}/moved`, { method: "POST", body: "{}" });
    expect(res.status).toBe(429);
    expect(res.url.endsWith("/json")).toBe(true);
  });

  it("when nothing listens, then the call rejects", async () => {
    await expect(providerFetch("http://127.0.0.1:1/v1/chat/completions", { method: "POST", body: "{}" })).rejects.toBeDefined();
  });
});
