import { Agent as HttpAgent, type ClientRequest, type IncomingMessage, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/**
 * The `fetch` the openai client uses to reach the provider: one keep-alive connection pool per
 * process, requests sent with node:http(s). Node's global fetch (undici) builds a spec-complete
 * Request, Response and stream pipeline for every call, which cost about 0.35 ms of CPU per
 * streamed provider call here, a third of the SDK's whole cost (docs/performance.md). This sends
 * the same request and hands the SDK a standard Response whose body streams as the bytes arrive.
 *
 * - Only what a chat-completions call needs takes this path: a string body (the SDK's JSON) or none.
 *   Anything else, and any redirect, goes to the global fetch, so behaviour there is fetch's own.
 * - It asks for an uncompressed body (`accept-encoding: identity`: a compressing server or proxy
 *   would hold back streamed tokens to fill its blocks); a body sent compressed anyway is decoded
 *   (gzip, deflate, br), as fetch decodes it.
 * - Idle sockets: Node's Agent closes a pooled socket a second before the server's announced
 *   `Keep-Alive: timeout=N`; a request whose reused socket the server closed anyway (ECONNRESET or
 *   EPIPE before any response, after the socket sat idle for STALE_AFTER_MS or more: the race at a
 *   keep-alive timeout) is sent once more on a new connection, as browsers and Node's docs do. A
 *   reset on a socket in steady use is the provider's failure and is reported as one.
 * - An AbortSignal destroys the request and its socket, before or during the response.
 */
export function createProviderFetch(): typeof fetch {
  const agents: Agents = {
    "http:": new HttpAgent({ keepAlive: true }),
    "https:": new HttpsAgent({ keepAlive: true }),
  };
  for (const agent of [agents["http:"], agents["https:"]]) agent.on("free", (socket: Socket) => idleSince.set(socket, performance.now()));
  return async function providerFetch(input, init) {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body = init?.body;
    const protocol = url.protocol;
    if (input instanceof Request || (body !== undefined && body !== null && typeof body !== "string") || (protocol !== "http:" && protocol !== "https:")) {
      return fetch(input, init);
    }
    const res = await send(url, init ?? {}, body ?? undefined, agents);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      return fetch(input, init);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else headers.set(name, value);
    }
    // A Response may not carry a body for these statuses (fetch gives them none either).
    const noBody = status === 204 || status === 205 || status === 304 || init?.method === "HEAD";
    if (noBody) res.resume();
    return new Response(noBody ? null : (Readable.toWeb(decoded(res)) as ReadableStream<Uint8Array>), {
      status,
      statusText: res.statusMessage ?? "",
      headers,
    });
  };
}

/**
 * Below this much idle time in the pool, a reset is not the keep-alive race: proxies and servers time
 * idle connections out after a second or more (a proxy closing at 1 s was seen to race a reuse at 950 ms
 * by our clock: its timer starts at the last byte it relayed, before our socket went back to the pool).
 */
const STALE_AFTER_MS = 500;

/** When each pooled socket was last handed back to its pool. */
const idleSince = new WeakMap<Socket, number>();

interface Agents {
  "http:": HttpAgent;
  "https:": HttpsAgent;
}

/** The body as sent, or decoded when the server compressed it anyway. */
function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip" ? createGunzip() : encoding === "deflate" ? createInflate() : encoding === "br" ? createBrotliDecompress() : undefined;
  if (!decoder) return res;
  res.on("error", (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/** A reused keep-alive socket that sat idle and that the server had closed: the request never reached it. */
function staleSocket(req: ClientRequest, idleMs: number, err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return req.reusedSocket && idleMs >= STALE_AFTER_MS && (code === "ECONNRESET" || code === "EPIPE");
}

function send(url: URL, init: RequestInit, body: string | undefined, agents: Agents, retried = false): Promise<IncomingMessage> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  if (body !== undefined && headers["content-length"] === undefined) headers["content-length"] = String(Buffer.byteLength(body));
  headers["accept-encoding"] ??= "identity";
  const https = url.protocol === "https:";
  const options = {
    method: init.method ?? "GET",
    headers,
    agent: https ? agents["https:"] : agents["http:"],
    ...(init.signal ? { signal: init.signal } : {}),
  };
  return new Promise((resolve, reject) => {
    let answered = false;
    let idleMs = 0;
    const req = https ? httpsRequest(url, options, onResponse) : httpRequest(url, options, onResponse);
    req.once("socket", (socket: Socket) => {
      const since = idleSince.get(socket);
      if (since !== undefined) idleMs = performance.now() - since;
    });
    function onResponse(res: IncomingMessage) {
      answered = true;
      resolve(res);
    }
    req.on("error", (err) => {
      if (!answered && !retried && !init.signal?.aborted && staleSocket(req, idleMs, err)) {
        send(url, init, body, agents, true).then(resolve, reject);
      } else {
        reject(err);
      }
    });
    req.end(body);
  });
}
