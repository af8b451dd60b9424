import { connect } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.js";
import { requestContext } from "../../src/http/middleware.js";
import { listen, type Listening } from "../helpers/listen.js";

const lines: Record<string, unknown>[] = [];
let server: Listening;

beforeAll(async () => {
  const logger = createLogger("info", new Writable({ write: (c, _e, cb) => (lines.push(JSON.parse(String(c)) as Record<string, unknown>), cb()) }), "json");
  const app = express();
  app.use(requestContext(logger));
  app.get("/work", (_req, res) => void setTimeout(() => res.json({ ok: true }), 50));
  server = await listen(app);
  // Let the loop watch take its first samples.
  await new Promise((r) => setTimeout(r, 100));
});
afterAll(() => server.close());

/** Sends a raw GET and resolves with the whole response once the server closes it. */
function rawGet(path: string, blockMs: number): Promise<{ elapsed: number; response: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let response = "";
    const socket = connect(Number(port), "127.0.0.1", () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      // The request now sits in the kernel while this thread (the server's too) is busy, as it was during
      // a first start that trained the search index on the event loop.
      const until = performance.now() + blockMs;
      while (performance.now() < until);
    });
    socket.on("data", (d) => (response += String(d)));
    socket.on("end", () => resolve({ elapsed: performance.now() - started, response }));
    socket.on("error", reject);
  });
}

const accessLine = (path: string) => lines.find((l) => l.msg === "request" && l.path === path);

describe("the access log's request time", () => {
  it("when a request waits unseen while the event loop is blocked, then its logged time counts the wait, as its caller saw it", async () => {
    const { elapsed, response } = await rawGet("/work?blocked", 600);
    expect(response).toMatch(/^HTTP\/1\.1 200/);
    const line = accessLine("/work");
    expect(elapsed).toBeGreaterThan(600);
    expect(line?.queuedMs).toBeGreaterThanOrEqual(500);
    expect(line?.ms as number).toBeGreaterThanOrEqual(600);
    // An upper bound of the unseen wait: at most a timer tick (and a busy machine's lateness) over.
    expect(line?.ms as number).toBeLessThanOrEqual(elapsed + 100);
  });

  it("when the loop is free, then the logged time is the handling time and no wait is added", async () => {
    lines.length = 0;
    const { elapsed } = await rawGet("/work?free", 0);
    const line = accessLine("/work");
    // A busy shared machine may delay a timer now and then; no stall of the size above is invented.
    expect(line?.queuedMs ?? 0).toBeLessThan(200);
    expect(line?.ms as number).toBeGreaterThanOrEqual(50);
    expect(line?.ms as number).toBeLessThanOrEqual(elapsed + 25);
  });
});
