import { Agent as HttpAgent, type ClientRequest, type IncomingMessage, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { finished, Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { poolOutsideRequests } from "../../src/http/pooled-sockets.js";

/**
 * How the service reaches model providers: one keep-alive connection pool per process, requests sent with
 * node:http(s). Two doors onto it:
 * - `fetch`, the `fetch` the openai client uses (traced calls): the same request as the global fetch, and a
 *   standard Response whose body streams as the bytes arrive. Node's global fetch (undici) builds a
 *   spec-complete Request, Response and stream pipeline for every call, which cost about 0.35 ms of CPU per
 *   streamed provider call here, a third of the SDK's whole cost (docs/performance.md).
 * - `post`, for direct calls (provider-request.ts, untraced): a POST whose answer is read off the Node
 *   stream itself (NodeResponse below), without the Response, Headers and web stream that even a lean
 *   fetch builds for each call (about 3 % of the service's main thread under load, docs/performance.md
 *   session 23).
 *
 * What both do:
 * - Only what a chat-completions call needs takes this path: a string body (the SDK's JSON) or none.
 *   `fetch` hands anything else to the global fetch, so behaviour there is fetch's own; any redirect goes to
 *   the global fetch from either door.
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
export interface ProviderTransport {
  /** `fetch` for the openai SDK; an event stream's reads are re-cut into pieces of whole events (ssePieces). */
  fetch: typeof fetch;
  /** POSTs `body` with these headers (lower-case names); resolves at the answer's head, its body unread and read as the socket gives it. */
  post(url: string, headers: Readonly<Record<string, string>>, body: string, signal: AbortSignal): Promise<ProviderResponse>;
}

/**
 * What direct calls read of an answer: the part of a fetch Response they use. A Response is one (the
 * answer of a redirect, which the global fetch follows); NodeResponse is the other.
 */
export interface ProviderResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: Headers;
  readonly body: { getReader(): BodyReader } | null;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/** The part of a web stream's reader that direct calls use: one read at a time, and cancel. */
export interface BodyReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(reason?: unknown): Promise<void>;
}

export function createProviderTransport(limits: ProviderLimits = PROVIDER_LIMITS, pieceBytes: number = SSE_PIECE_BYTES): ProviderTransport {
  // `timeout` is what makes the Agent honour the server's Keep-Alive hint (hint - 1 s when shorter); a
  // socket in use only gets a 'timeout' event from it, which nothing here acts on (the Deadline times calls).
  const agents: Agents = {
    "http:": poolOutsideRequests(new HttpAgent({ keepAlive: true, timeout: IDLE_CLOSE_MS })),
    "https:": poolOutsideRequests(new HttpsAgent({ keepAlive: true, timeout: IDLE_CLOSE_MS })),
  };
  for (const agent of [agents["http:"], agents["https:"]]) agent.on("free", (socket: Socket) => idleSince.set(socket, performance.now()));
  const providerFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body = init?.body;
    const protocol = url.protocol;
    if (input instanceof Request || (body !== undefined && body !== null && typeof body !== "string") || (protocol !== "http:" && protocol !== "https:")) {
      return fetch(input, init);
    }
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    const method = init?.method ?? "GET";
    const res = await send(url, method, headers, body ?? undefined, init?.signal ?? undefined, agents);
    const status = res.statusCode ?? 0;
    if (redirected(res)) return fetch(input, init);
    const noBody = bodiless(status, method);
    if (noBody) res.resume();
    const sse = eventStream(res);
    return new Response(noBody ? null : sse ? inEventPieces(res, decoded(res), limits, pieceBytes) : (Readable.toWeb(bounded(res, decoded(res), limits.maxBodyBytes)) as ReadableStream<Uint8Array>), {
      status,
      statusText: res.statusMessage ?? "",
      headers: headersOf(res),
    });
  };
  return {
    fetch: providerFetch,
    async post(target, headers, body, signal) {
      // The route's URL is http(s): configuration admits no other (src/config.ts).
      const url = new URL(target);
      const res = await send(url, "POST", { ...headers }, body, signal, agents);
      if (redirected(res)) return fetch(target, { method: "POST", headers, body, signal });
      return new NodeResponse(res, limits);
    },
  };
}

/** A redirect, left to the global fetch to follow (its body is drained here). */
function redirected(res: IncomingMessage): boolean {
  const status = res.statusCode ?? 0;
  if (status < 300 || status >= 400 || !res.headers.location) return false;
  res.resume();
  return true;
}

/** A Response may not carry a body for these statuses (fetch gives them none either). */
const bodiless = (status: number, method: string) => status === 204 || status === 205 || status === 304 || method === "HEAD";

const eventStream = (res: IncomingMessage) => /^text\/event-stream\b/i.test(String(res.headers["content-type"] ?? ""));

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return headers;
}

/** Text as fetch decodes a body: UTF-8, a leading BOM dropped, invalid bytes replaced. */
const UTF8 = new TextDecoder();

/**
 * An answer as `post` hands it over: status and body read off the IncomingMessage, the same limits and
 * decoding as `fetch`'s Response, the Headers built only when asked for (an error, the classifier's
 * content type). Its body is read in the chunks the socket gives (sseEvents takes a read whole).
 */
class NodeResponse implements ProviderResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly body: { getReader(): BodyReader } | null;
  private built: Headers | undefined;

  constructor(
    private readonly res: IncomingMessage,
    limits: ProviderLimits,
  ) {
    this.status = res.statusCode ?? 0;
    this.ok = this.status >= 200 && this.status < 300;
    if (bodiless(this.status, "POST")) {
      res.resume();
      this.body = null;
      return;
    }
    const reader = eventStream(res)
      ? new ChunkReader(decoded(res), eventLimits(res, limits))
      : new ChunkReader(bounded(res, decoded(res), limits.maxBodyBytes));
    let taken = false;
    this.body = {
      getReader() {
        if (taken) throw new TypeError("the provider's answer is already being read");
        taken = true;
        return reader;
      },
    };
  }

  get headers(): Headers {
    return (this.built ??= headersOf(this.res));
  }

  async text(): Promise<string> {
    if (!this.body) return "";
    const reader = this.body.getReader();
    const chunks: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    return UTF8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}

/**
 * A Node stream's chunks handed out as a web stream's reader hands them out, without the web stream: a
 * read takes a chunk that waits, or waits for the next. The body is paused while a chunk waits for its
 * read and resumed by the read that takes it, as Readable.toWeb does. The body failing or closing before
 * its end fails the pending and later reads (chunks not yet read are dropped, as a web stream's error
 * drops its queue); cancelling destroys the body (and with it the request's socket). `accept` sees each
 * chunk first: false drops it (it has failed the body).
 */
class ChunkReader implements BodyReader {
  private readonly waiting: Uint8Array[] = [];
  private pending: { resolve(read: ReadableStreamReadResult<Uint8Array>): void; reject(err: unknown): void } | undefined;
  private state: "open" | "ended" | "failed" | "cancelled" = "open";
  private failure: unknown;

  constructor(
    private readonly body: Readable,
    accept: (chunk: Buffer) => boolean = () => true,
  ) {
    body.on("data", (chunk: Buffer) => {
      if (this.state !== "open" || !accept(chunk)) return;
      const pending = this.pending;
      if (pending) {
        this.pending = undefined;
        pending.resolve({ done: false, value: chunk });
      } else {
        this.waiting.push(chunk);
        body.pause();
      }
    });
    body.once("end", () => this.settle("ended"));
    // Called after a normal end too: the error (its stack captured, tens of microseconds) only when still open.
    finished(body, (err) => {
      if (this.state === "open") this.settle("failed", err ?? new Error("the provider's response closed before its end"));
    });
  }

  read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    const chunk = this.waiting.shift();
    if (chunk) {
      if (this.waiting.length === 0 && this.state === "open") this.body.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.state === "failed") return Promise.reject(this.failure);
    if (this.state !== "open") return Promise.resolve({ done: true, value: undefined });
    if (this.pending) return Promise.reject(new TypeError("one read at a time"));
    this.body.resume();
    return new Promise((resolve, reject) => (this.pending = { resolve, reject }));
  }

  cancel(reason?: unknown): Promise<void> {
    if (this.state === "open") {
      this.state = "cancelled";
      this.waiting.length = 0;
      this.takePending()?.resolve({ done: true, value: undefined });
      this.body.destroy(reason instanceof Error ? reason : undefined);
    }
    return Promise.resolve();
  }

  private settle(state: "ended" | "failed", err?: unknown): void {
    if (this.state !== "open") return;
    this.state = state;
    const pending = this.takePending();
    if (state === "failed") {
      this.failure = err;
      this.waiting.length = 0;
      pending?.reject(err);
    } else {
      pending?.resolve({ done: true, value: undefined });
    }
  }

  private takePending() {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }
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
// (Only the SDK's reader, on traced calls, reads through `fetch`. The reader of direct calls, provider-sse.ts,
// does not copy per event and takes each read whole: `post` hands the socket's chunks on as they come.)

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
  const accept = eventLimits(res, limits);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      body.on("data", (chunk: Buffer) => {
        if (ended || !accept(chunk)) return;
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

/**
 * An event stream's limits, checked chunk by chunk (as read, decoded): past one, the response is destroyed,
 * which fails its body too (decoded() passes its errors on) and closes the socket, and the chunk is refused.
 */
function eventLimits(res: IncomingMessage, limits: ProviderLimits): (chunk: Buffer) => boolean {
  let total = 0;
  let sinceEventEnd = 0;
  return (chunk) => {
    total += chunk.length;
    const end = afterLastEventEnd(chunk);
    sinceEventEnd = end < 0 ? sinceEventEnd + chunk.length : chunk.length - end;
    if (sinceEventEnd > limits.maxEventBytes) res.destroy(tooLarge("event", limits.maxEventBytes));
    else if (total > limits.maxStreamBytes) res.destroy(tooLarge("event stream", limits.maxStreamBytes));
    else return true;
    return false;
  };
}

/** A reused keep-alive socket that sat idle and that the server had closed: the request never reached it. */
function staleSocket(req: ClientRequest, idleMs: number, err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return req.reusedSocket && idleMs >= STALE_AFTER_MS && (code === "ECONNRESET" || code === "EPIPE");
}

/** Sends the request; `headers` (lower-case names) are the request's own, completed here. */
function send(url: URL, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined, agents: Agents, retried = false): Promise<IncomingMessage> {
  if (body !== undefined && headers["content-length"] === undefined) headers["content-length"] = String(Buffer.byteLength(body));
  headers["accept-encoding"] ??= "identity";
  const https = url.protocol === "https:";
  const options = {
    method,
    headers,
    // The resend gets a connection of its own (`agent: false`: a new socket, closed after the answer).
    agent: retried ? false : https ? agents["https:"] : agents["http:"],
    ...(signal ? { signal } : {}),
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
      if (!answered && !retried && !signal?.aborted && staleSocket(req, idleMs, err)) {
        send(url, method, headers, body, signal, agents, true).then(resolve, reject);
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
