import { Agent as HttpAgent, type ClientRequest, type IncomingMessage, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { finished, Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { poolOutsideRequests } from "../../src/http/pooled-sockets.js";

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
 * - Idle sockets: a pooled socket is closed after IDLE_CLOSE_MS idle (fetch's own default), or a
 *   second before the server's announced `Keep-Alive: timeout=N` when that comes sooner (Node's Agent
 *   reads the header only when it is given a timeout of its own; without one it kept every idle socket
 *   until the server closed it). A request whose reused socket the server closed
 *   anyway (ECONNRESET or EPIPE before any response, after the socket sat idle for STALE_AFTER_MS or
 *   more: the race at a keep-alive timeout) is sent once more on a new connection of its own, as
 *   browsers and Node's docs do: not on another pooled socket, which sat idle as long and may be just
 *   as closed. A reset on a socket in steady use is the provider's failure and is reported as one.
 * - An AbortSignal destroys the request and its socket, before or during the response.
 * - Sizes are bounded (PROVIDER_LIMITS): past a limit the response is destroyed with an error, which the
 *   caller gets as the provider's failure (502 upstream_error, or the in-stream error event).
 */
export function createProviderFetch(limits: ProviderLimits = PROVIDER_LIMITS, pieceBytes: number = SSE_PIECE_BYTES): typeof fetch {
  // `timeout` is what makes the Agent honour the server's Keep-Alive hint (hint - 1 s when shorter); a
  // socket in use only gets a 'timeout' event from it, which nothing here acts on (the Deadline times calls).
  const agents: Agents = {
    "http:": poolOutsideRequests(new HttpAgent({ keepAlive: true, timeout: IDLE_CLOSE_MS })),
    "https:": poolOutsideRequests(new HttpsAgent({ keepAlive: true, timeout: IDLE_CLOSE_MS })),
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
    const sse = /^text\/event-stream\b/i.test(String(res.headers["content-type"] ?? ""));
    return new Response(noBody ? null : sse ? inEventPieces(res, decoded(res), limits, pieceBytes) : (Readable.toWeb(bounded(res, decoded(res), limits.maxBodyBytes)) as ReadableStream<Uint8Array>), {
      status,
      statusText: res.statusMessage ?? "",
      headers,
    });
  };
}

/**
 * How much of one provider response this transport takes. An honest answer is far below each: the agent's
 * answer is cut at `max_words` (2,000 at most), its events are a few hundred bytes, and the classifier's
 * non-streamed answer is a small JSON object.
 * - maxEventBytes: one server-sent event. The SDK's line reader keeps a line whole and scans all of it
 *   again for every chunk that extends it, so one 8 MB event cost 3.4 s of CPU, one of 30 MB 54 s with
 *   the event loop stalled for seconds (every caller waits); a limit of 1 MiB keeps that in milliseconds.
 * - maxStreamBytes: a whole event stream (the memory of an endless run of small events, such as tool-call
 *   arguments, that no word limit cuts); room for a reasoning model's long thoughts.
 * - maxBodyBytes: a whole body that is not a stream (the classifier's answer, an error body).
 */
export interface ProviderLimits {
  maxEventBytes: number;
  maxStreamBytes: number;
  maxBodyBytes: number;
}

export const PROVIDER_LIMITS: ProviderLimits = { maxEventBytes: 1 << 20, maxStreamBytes: 64 << 20, maxBodyBytes: 8 << 20 };

const tooLarge = (what: string, limit: number) => new Error(`the provider's ${what} is larger than ${limit} bytes`);

/** The body as read, failing (and closing the provider's connection) once it passes `max` bytes. */
function bounded(res: IncomingMessage, body: Readable, max: number): Readable {
  let bytes = 0;
  res.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > max) res.destroy(tooLarge("response", max));
  });
  return body;
}

/** Where the last event of a chunk ends (just past its blank line: LF LF, CRLF CRLF or CR CR), or -1. */
function afterLastEventEnd(chunk: Buffer): number {
  const lf = chunk.lastIndexOf("\n\n");
  const crlf = chunk.lastIndexOf("\n\r\n");
  const cr = chunk.lastIndexOf("\r\r");
  return Math.max(lf < 0 ? -1 : lf + 2, crlf < 0 ? -1 : crlf + 3, cr < 0 ? -1 : cr + 2);
}

/**
 * Below this much idle time in the pool, a reset is not the keep-alive race: proxies and servers time
 * idle connections out after a second or more (a proxy closing at 1 s was seen to race a reuse at 950 ms
 * by our clock: its timer starts at the last byte it relayed, before our socket went back to the pool).
 */
const STALE_AFTER_MS = 500;

/** A pooled socket idle this long is closed, unless the server's announced keep-alive timeout ends sooner (undici's default). */
const IDLE_CLOSE_MS = 4_000;

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

/**
 * The most bytes of whole events the SDK is handed at once. Its SSE reader copies what is left of its
 * buffer after every event it takes out, so a read holding a whole answer (a fast provider, or a busy
 * event loop that let the socket fill) cost the square of the events: 70 events of 230 bytes meant
 * about 560 KB copied for a 16 KB answer. Pieces of a few events keep that linear, with a handful of
 * reads per answer instead of one per event.
 */
export const SSE_PIECE_BYTES = 2048;
// (A reader that does not copy per event, provider-sse.ts, takes each read whole: createProviderFetch's
// pieceBytes is then Infinity. models.ts decides: the SDK's reader still reads a traced call's stream.)

/**
 * Cuts a chunk of an event stream after event ends ("\n\n"), each piece holding whole events up to
 * `max` bytes (an event longer than that is a piece of its own; a partial event at the end is the
 * last piece). Views of the chunk, no copies: the pieces joined are the chunk.
 */
export function ssePieces(chunk: Uint8Array, max = SSE_PIECE_BYTES): Uint8Array[] {
  if (chunk.length <= max) return [chunk];
  const pieces: Uint8Array[] = [];
  let start = 0;
  let lastEnd = -1;
  for (let i = 1; i < chunk.length; i++) {
    if (chunk[i] !== 10 || chunk[i - 1] !== 10) continue;
    const end = i + 1;
    if (end - start > max && lastEnd > start) {
      pieces.push(chunk.subarray(start, lastEnd));
      start = lastEnd;
    }
    lastEnd = end;
  }
  if (chunk.length - start > max && lastEnd > start && lastEnd < chunk.length) {
    pieces.push(chunk.subarray(start, lastEnd));
    start = lastEnd;
  }
  pieces.push(chunk.subarray(start));
  return pieces;
}

/**
 * The event stream as the Response's body, each chunk re-cut by ssePieces: a web stream read straight
 * off the Node stream (paused while the reader has a piece waiting, resumed when it reads), as
 * Readable.toWeb does. The body failing or closing before its end fails the reader; the reader
 * cancelling destroys the body (and with it the request's socket).
 */
function inEventPieces(res: IncomingMessage, body: Readable, limits: ProviderLimits, pieceBytes: number): ReadableStream<Uint8Array> {
  // Set at the body's end or failure, and when the reader cancels: a cancelled stream is closed, and
  // closing it again (the body's end already on its way) throws from an event handler, uncaught.
  let ended = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let total = 0;
      let sinceEventEnd = 0;
      body.on("data", (chunk: Buffer) => {
        if (ended) return;
        total += chunk.length;
        const end = afterLastEventEnd(chunk);
        sinceEventEnd = end < 0 ? sinceEventEnd + chunk.length : chunk.length - end;
        // Destroying the response fails `body` too (decoded() passes its errors on), and closes the socket.
        if (sinceEventEnd > limits.maxEventBytes) return void res.destroy(tooLarge("event", limits.maxEventBytes));
        if (total > limits.maxStreamBytes) return void res.destroy(tooLarge("event stream", limits.maxStreamBytes));
        if (chunk.length <= pieceBytes) controller.enqueue(chunk);
        else for (const piece of ssePieces(chunk, pieceBytes)) controller.enqueue(piece);
        if ((controller.desiredSize ?? 0) <= 0) body.pause();
      });
      body.once("end", () => {
        if (ended) return;
        ended = true;
        controller.close();
      });
      finished(body, (err) => {
        if (ended) return;
        ended = true;
        controller.error(err ?? new Error("the provider's response closed before its end"));
      });
    },
    pull() {
      body.resume();
    },
    cancel(reason) {
      ended = true;
      body.destroy(reason instanceof Error ? reason : undefined);
    },
  });
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
    // The resend gets a connection of its own (`agent: false`: a new socket, closed after the answer).
    agent: retried ? false : https ? agents["https:"] : agents["http:"],
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
    // The head is queued on its own before the body: end(body) would otherwise prepend it to the body,
    // a new string of the whole request (36 KB for the agent's, two bytes a character when the passages
    // hold curly quotes) that the socket write copies flat once more. Both wait in the request until
    // its socket is assigned and leave in one corked write: the same bytes on the wire.
    if (body !== undefined) req.flushHeaders();
    req.end(body);
  });
}
