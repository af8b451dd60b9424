import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from "openai";
import type { ProviderResponse, ProviderTransport } from "./provider-fetch.js";
import { isAbortError } from "./provider-sse.js";

/**
 * An untraced provider call sent straight through the transport's `post` (provider-fetch.ts), without the openai
 * SDK's per-call request machinery (`makeRequest`: options copied, headers merged and validated, debug
 * details formatted with logging off, retry bookkeeping, the response wrapped in a promise chain): about
 * 7 % of the service's CPU a chat, measured with `npm run bench:pair` (docs/performance.md, session 21).
 * What the caller sees is the SDK's: the same request bytes and headers
 * (taken from the SDK once per provider), and the SDK's own errors, made as it makes them (`client.js`
 * `makeRequest`, openai 6.x), so provider-errors.ts and the quirk fallbacks (models.ts `rejects`) read
 * them as before:
 * - a non-2xx answer: `APIError.generate(status, body JSON, body text when not JSON, headers)`;
 * - the caller's signal aborted, before or during the call: `APIUserAbortError`;
 * - no answer head within `timeoutMs`: `APIConnectionTimeoutError` (the timer covers the head only, as
 *   the SDK's does; the answer's body is timed by the run's Deadline, through the caller's signal);
 * - any other failure before the head: `APIConnectionError` with the failure as its cause.
 * Traced calls (LangSmith) keep the SDK's path: its wrapper records `create`'s calls. An upgrade of the
 * SDK that changes any of this fails test/unit/provider-request.test.ts, which sends each call both ways.
 */

/** Where one provider's calls go, and the headers every call repeats: everything but the key. */
export interface ProviderRoute {
  url: string;
  headers: Readonly<Record<string, string>>;
}

/** The route of `path` as the client would send it: its URL and headers, built by the SDK once. */
export async function providerRoute(client: OpenAI, path: string): Promise<ProviderRoute> {
  const { req, url } = await client.buildRequest({ method: "post", path, body: "{}", headers: { "content-type": "application/json" } });
  const headers: Record<string, string> = {};
  // The client holds no key (its Authorization is a placeholder): each call sets the caller's own.
  new Headers(req.headers).forEach((value, name) => {
    if (name !== "authorization") headers[name] = value;
  });
  return { url, headers };
}

/** POSTs a JSON body with the caller's key; resolves with a 2xx response, its body unread. */
export async function postDirect(
  transport: ProviderTransport,
  route: ProviderRoute,
  apiKey: string,
  body: string,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ProviderResponse> {
  if (signal.aborted) throw new APIUserAbortError();
  // The caller's signal stays tied to the request after the head: aborting it ends the body's stream too.
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal.addEventListener("abort", abort, { once: true });
  const timer = setTimeout(abort, timeoutMs);
  let response: ProviderResponse;
  try {
    response = await transport.post(route.url, { ...route.headers, authorization: `Bearer ${apiKey}` }, body, controller.signal);
  } catch (thrown) {
    if (signal.aborted) throw new APIUserAbortError();
    const err = thrown instanceof Error ? thrown : new Error(String(thrown));
    if (isAbortError(err) || /timed? ?out/i.test(String(err) + ("cause" in err ? String(err.cause) : ""))) throw new APIConnectionTimeoutError();
    throw new APIConnectionError({ cause: err });
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    const text = await response.text().catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
    const json = safeJSON(text);
    throw OpenAI.APIError.generate(response.status, json as object, json ? undefined : text, response.headers);
  }
  return response;
}

/** A 2xx non-streamed answer read as the SDK reads it: JSON when its content type says so, else text. */
export async function readBody<T>(response: ProviderResponse): Promise<T> {
  if (response.status === 204) return null as T;
  const mediaType = response.headers.get("content-type")?.split(";")[0]?.trim();
  if (mediaType?.includes("application/json") || mediaType?.endsWith("+json")) {
    if (response.headers.get("content-length") === "0") return undefined as T;
    return (await response.json()) as T;
  }
  return (await response.text()) as T;
}

function safeJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
