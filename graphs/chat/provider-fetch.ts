import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";

/**
 * The `fetch` the openai client uses to reach the provider: one keep-alive connection pool per
 * process, requests sent with node:http(s). Node's global fetch (undici) builds a spec-complete
 * Request, Response and stream pipeline for every call, which cost about 0.35 ms of CPU per
 * streamed provider call here, a third of the SDK's whole cost (docs/performance.md). This sends
 * the same bytes and hands the SDK a standard Response whose body streams as the bytes arrive.
 *
 * Only what a chat-completions call needs takes this path: a string body (the SDK's JSON) or none.
 * Anything else, and any redirect, goes to the global fetch, so behaviour there is fetch's own.
 * An AbortSignal destroys the request and its socket, before or during the response.
 */
export function createProviderFetch(): typeof fetch {
  const agents = {
    "http:": new HttpAgent({ keepAlive: true }),
    "https:": new HttpsAgent({ keepAlive: true }),
  };
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
    return new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
      status,
      statusText: res.statusMessage ?? "",
      headers,
    });
  };
}

function send(
  url: URL,
  init: RequestInit,
  body: string | undefined,
  agents: { "http:": HttpAgent; "https:": HttpsAgent },
): Promise<IncomingMessage> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  if (body !== undefined && headers["content-length"] === undefined) headers["content-length"] = String(Buffer.byteLength(body));
  const https = url.protocol === "https:";
  const options = {
    method: init.method ?? "GET",
    headers,
    agent: https ? agents["https:"] : agents["http:"],
    ...(init.signal ? { signal: init.signal } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = https ? httpsRequest(url, options, resolve) : httpRequest(url, options, resolve);
    req.on("error", reject);
    req.end(body);
  });
}
