import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI, { type APIError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProviderTransport } from "../../graphs/chat/provider-fetch.js";
import { postDirect, providerRoute, readBody, type ProviderRoute } from "../../graphs/chat/provider-request.js";
import { toProviderError } from "../../graphs/chat/provider-errors.js";

// The direct request (untraced calls, the transport's `post` and its NodeResponse) against the SDK's own
// `post` (the transport's `fetch` and its Response): each answer below must give the same request on the
// wire and the same error, field by field.
const KEY = "sk-test-direct-0000";
const BODY = JSON.stringify({ model: "m", stream: false, messages: [{ role: "user", content: "Hi" }] });
let server: Server;
let base: string;
let closed = 0;
const received: { headers: IncomingMessage["headers"]; body: string; url: string }[] = [];

const answers: Record<string, (res: ServerResponse) => void> = {
  "/ok": (res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "c1", choices: [] })),
  "/text": (res) => res.writeHead(200, { "content-type": "text/plain" }).end("plain words"),
  "/400-field": (res) =>
    res
      .writeHead(400, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { message: "Unrecognized request argument supplied: stream_options", type: "invalid_request_error", param: "stream_options", code: null } })),
  "/401": (res) => res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}`, code: "invalid_api_key" } })),
  "/404": (res) => res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "The model `m` does not exist" } })),
  "/422-text": (res) => res.writeHead(422, { "content-type": "text/plain" }).end("response_format is not supported"),
  "/429": (res) => res.writeHead(429, { "content-type": "application/json", "retry-after": "7", "x-request-id": "req_9" }).end(JSON.stringify({ error: { message: "slow down" } })),
  "/500-empty": (res) => res.writeHead(500).end(),
  "/503-html": (res) => res.writeHead(503, { "content-type": "text/html" }).end("<html>busy</html>"),
  "/reset": (res) => res.socket?.destroy(),
  "/hang": (res) => res.on("close", () => closed++),
  "/stream-hang": (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" }).write("data: first\n\n");
    res.on("close", () => closed++);
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => {
      received.push({ headers: req.headers, body, url: req.url ?? "" });
      const path = (req.url ?? "").replace(/^\/v1/, "").replace(/\/chat\/completions$/, "");
      (answers[path] ?? answers["/404"]!)(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const transport = createProviderTransport();
const clientAt = (path: string, timeout = 5_000) =>
  new OpenAI({ apiKey: "key-sent-per-request", baseURL: `${base}/v1${path}`, timeout, maxRetries: 0, fetch: transport.fetch });
const viaSdk = (path: string, signal: AbortSignal, timeout?: number) =>
  clientAt(path, timeout).post<unknown>("/chat/completions", { body: BODY, headers: { Authorization: `Bearer ${KEY}`, "content-type": "application/json" }, signal });
const viaDirect = async (path: string, signal: AbortSignal, timeout = 5_000) =>
  readBody<unknown>(await postDirect(transport, await providerRoute(clientAt(path, timeout), "/chat/completions"), KEY, BODY, signal, timeout));

/** What a caller (or our error mapping) can read off a thrown error. */
function shape(err: unknown) {
  const e = err as APIError;
  return {
    cls: e?.constructor?.name,
    name: e?.name,
    message: e?.message,
    status: e?.status,
    error: e?.error,
    code: e?.code,
    param: e?.param,
    type: e?.type,
    retryAfter: e?.headers?.get?.("retry-after") ?? null,
    requestID: e?.requestID ?? null,
    cause: (e?.cause as Error | undefined)?.constructor?.name ?? null,
    mapped: toProviderError(err, { provider: "default", model: "m", timeoutMs: 5_000 }).code,
  };
}

async function outcome(run: Promise<unknown>) {
  try {
    return { value: await run };
  } catch (err) {
    return { error: shape(err) };
  }
}

describe("a direct provider request (untraced calls)", () => {
  it("when the provider answers, then the request on the wire is the SDK's, key included, and the body is read as the SDK reads it", async () => {
    for (const path of ["/ok", "/text"]) {
      received.length = 0;
      const sdk = await viaSdk(path, new AbortController().signal);
      const direct = await viaDirect(path, new AbortController().signal);
      expect(direct).toEqual(sdk);
      expect(received).toHaveLength(2);
      expect(received[1]).toEqual(received[0]);
      expect(received[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
    }
  });

  it("when the provider refuses the request, then the error is the SDK's, field by field, and maps the same", async () => {
    for (const path of ["/400-field", "/401", "/404", "/422-text", "/429", "/500-empty", "/503-html", "/reset"]) {
      const sdk = await outcome(viaSdk(path, new AbortController().signal));
      const direct = await outcome(viaDirect(path, new AbortController().signal));
      expect(sdk.error, path).toBeDefined();
      expect(direct, path).toEqual(sdk);
    }
  });

  it("when a 400 names a refused field, then the message still names it (the quirk fallback's test)", async () => {
    const { error } = await outcome(viaDirect("/400-field", new AbortController().signal));
    expect(error).toMatchObject({ status: 400, cls: "BadRequestError" });
    expect(error?.message).toMatch(/stream_options/);
  });

  it("when the provider sends no answer head in time, then the SDK's timeout error, and the request is closed", async () => {
    const before = closed;
    const sdk = await outcome(viaSdk("/hang", new AbortController().signal, 150));
    const direct = await outcome(viaDirect("/hang", new AbortController().signal, 150));
    expect(sdk.error).toMatchObject({ cls: "APIConnectionTimeoutError", mapped: "upstream_timeout" });
    expect(direct).toEqual(sdk);
    await expect.poll(() => closed - before).toBe(2);
  });

  it("when the caller aborts, before the call or while it waits, then the SDK's abort error, and the request is closed", async () => {
    const aborted = AbortSignal.abort();
    expect(await outcome(viaDirect("/ok", aborted))).toEqual(await outcome(viaSdk("/ok", aborted)));
    const before = closed;
    const results = [];
    for (const call of [viaSdk, viaDirect]) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      results.push(await outcome(call("/hang", controller.signal)));
    }
    expect(results[0]!.error).toMatchObject({ cls: "APIUserAbortError" });
    expect(results[1]).toEqual(results[0]);
    await expect.poll(() => closed - before).toBe(2);
  });

  it("when the caller aborts while the answer streams, then the stream fails and the provider's request is closed", async () => {
    const before = closed;
    const controller = new AbortController();
    const route = await providerRoute(clientAt("/stream-hang"), "/chat/completions");
    // A timeout shorter than the wait below: it covers the answer's head only, as the SDK's does.
    const response = await postDirect(transport, route, KEY, BODY, controller.signal, 100);
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: first\n\n");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closed).toBe(before);
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    await expect.poll(() => closed - before).toBe(1);
  });

  it("when a provider's route is built, then it holds no key", async () => {
    const route: ProviderRoute = await providerRoute(clientAt(""), "/chat/completions");
    expect(route.url).toBe(`${base}/v1/chat/completions`);
    expect(Object.keys(route.headers)).not.toContain("authorization");
    expect(JSON.stringify(route)).not.toMatch(/key-sent-per-request|Bearer/);
  });
});
