import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { type ChatRequest, isChatBody, type RecordedRequest } from "./chat-request.js";
import { respondToChat } from "./chat-responder.js";
import { defaultReply } from "./default-script.js";
import { respondToEmbeddings } from "./embeddings-responder.js";
import type { Matcher } from "./matchers.js";
import { type FakeReply, reply } from "./replies.js";

export type ReplySource = FakeReply | ((request: ChatRequest) => FakeReply | Promise<FakeReply>);

export interface FakeProviderOptions {
  /** Added before every reply that sets no delay of its own; 0 (the default) for benchmarks. */
  delayMs?: number;
  /** Embedding size when the request names no `dimensions`. */
  embeddingDimensions?: number;
  models?: string[];
  /** Replaces the built-in default script. */
  fallback?: ReplySource;
  /** Oldest records are dropped past this many, so soak runs stay flat in memory. */
  maxRecorded?: number;
  /** Port to listen on; 0 (an ephemeral port) unless run standalone. */
  port?: number;
  /** Told of each request once its response is written (its record then has `finishedAt`); nothing on the wire. */
  onFinished?: (record: RecordedRequest) => void;
}

export interface RuleOptions {
  /** The rule retires after this many uses; unlimited by default. */
  times?: number;
}

interface Rule {
  matcher: Matcher;
  source: ReplySource;
  remaining: number;
}

export interface FakeProviderStats {
  openSockets: number;
  totalSockets: number;
  closedSockets: number;
  /** Requests whose client closed the connection before the response was complete. */
  abortedRequests: number;
  chatRequests: number;
}

export interface FakeProvider {
  baseURL: string;
  port: number;
  /** Every request, oldest first (up to `maxRecorded`). */
  requests: RecordedRequest[];
  /** The chat-completions requests only. */
  readonly chatRequests: ChatRequest[];
  readonly stats: FakeProviderStats;
  /** Serve matching chat requests with `source`; rules are tried in the order they were added. */
  on(matcher: Matcher, source: ReplySource, options?: RuleOptions): FakeProvider;
  once(matcher: Matcher, source: ReplySource): FakeProvider;
  /** Replies for the next chat requests that no rule claims, in order. */
  enqueue(...sources: ReplySource[]): FakeProvider;
  /** Replies for the next embeddings requests; faults as for chat, anything else serves vectors. */
  enqueueEmbeddings(...replies: FakeReply[]): FakeProvider;
  /** Replace what unclaimed, unqueued requests get (the default script unless set). */
  setFallback(source: ReplySource | undefined): FakeProvider;
  /** Forget requests, rules, queue and counters (sockets stay as they are). */
  reset(): void;
  /** Resolves once `predicate` holds, polling every few ms; rejects after `timeoutMs`. */
  waitFor(predicate: (provider: FakeProvider) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_MODELS = ["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "text-embedding-3-small"];
const MODELS_CREATED = 1_700_000_000;

function now(): number {
  return performance.timeOrigin + performance.now();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function sendError(res: ServerResponse, status: number, message: string, param: string | null = null, code: string | null = null) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message, type: "invalid_request_error", param, code } }));
}

export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const maxRecorded = options.maxRecorded ?? 10_000;
  const dimensions = options.embeddingDimensions ?? 64;
  const models = options.models ?? DEFAULT_MODELS;
  let rules: Rule[] = [];
  let queue: ReplySource[] = [];
  let embeddingsQueue: FakeReply[] = [];
  let fallback: ReplySource = options.fallback ?? defaultReply;
  let seq = 0;
  let closing = false;
  const sockets = new Set<Socket>();
  const stats: FakeProviderStats = { openSockets: 0, totalSockets: 0, closedSockets: 0, abortedRequests: 0, chatRequests: 0 };

  function pickSource(request: ChatRequest): ReplySource {
    for (const rule of rules) {
      if (rule.remaining > 0 && rule.matcher(request)) {
        rule.remaining -= 1;
        if (rule.remaining === 0) rules = rules.filter((r) => r !== rule);
        return rule.source;
      }
    }
    return queue.shift() ?? fallback;
  }

  async function resolve(source: ReplySource, request: ChatRequest): Promise<FakeReply> {
    const scripted = typeof source === "function" ? await source(request) : source;
    if (scripted.kind !== "normal") return scripted;
    // A fallback may itself say "normal"; the built-in script then ends the chain.
    const fromFallback = typeof fallback === "function" ? await fallback(request) : fallback;
    const base = fromFallback.kind === "normal" ? defaultReply(request) : fromFallback;
    const timing = Object.fromEntries(Object.entries(scripted).filter(([k, v]) => k !== "kind" && v !== undefined));
    return { ...base, ...timing } as FakeReply;
  }

  function withDefaultDelay(reply: FakeReply): FakeReply {
    return reply.delayMs === undefined && options.delayMs ? { ...reply, delayMs: options.delayMs } : reply;
  }

  async function handleChat(record: RecordedRequest, raw: string, res: ServerResponse) {
    if (!isChatBody(record.body)) {
      sendError(res, 400, "'model' and 'messages' are required properties.", "messages");
      return;
    }
    const request = record as ChatRequest;
    stats.chatRequests += 1;
    const reply = withDefaultDelay(await resolve(pickSource(request), request));
    await respondToChat({ request, res, rawLength: raw.length, now }, reply);
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const record: RecordedRequest = {
      seq: ++seq,
      method: req.method ?? "GET",
      path: (req.url ?? "/").split("?")[0] ?? "/",
      headers: req.headers,
      body: undefined,
      receivedAt: now(),
      aborted: false,
    };
    provider.requests.push(record);
    if (provider.requests.length > maxRecorded) provider.requests.shift();
    res.on("finish", () => {
      record.finishedAt = now();
      options.onFinished?.(record);
    });
    res.on("close", () => {
      if (!res.writableFinished && !closing) {
        record.aborted = true;
        stats.abortedRequests += 1;
      }
    });
    const raw = await readBody(req);
    if (raw.length > 0) {
      try {
        record.body = JSON.parse(raw);
      } catch {
        sendError(res, 400, "We could not parse the JSON body of your request.");
        return;
      }
    }
    const key = `${record.method} ${record.path.replace(/\/+$/, "")}`;
    if (key === "POST /v1/chat/completions") return handleChat(record, raw, res);
    if (key === "POST /v1/embeddings") {
      const scripted = withDefaultDelay(embeddingsQueue.shift() ?? reply.normal());
      return respondToEmbeddings(res, record, dimensions, scripted);
    }
    if (key === "GET /v1/models") {
      const data = models.map((id) => ({ id, object: "model", created: MODELS_CREATED, owned_by: "openai" }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data }));
      return;
    }
    const model = /^GET \/v1\/models\/(.+)$/.exec(key)?.[1];
    if (model !== undefined && models.includes(decodeURIComponent(model))) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: decodeURIComponent(model), object: "model", created: MODELS_CREATED, owned_by: "openai" }));
      return;
    }
    sendError(res, 404, `Unknown request URL: ${record.method} ${record.path}.`, null, "unknown_url");
  }

  const server = createServer({ noDelay: true, keepAlive: true }, (req, res) => {
    res.setHeader("x-request-id", `req_fake${seq + 1}`);
    route(req, res).catch((error: unknown) => {
      // A script that throws is a bug in the test; answer 500 so the test fails visibly, not by hanging.
      if (!res.headersSent) sendError(res, 500, `fake provider script failed: ${String(error)}`);
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    stats.openSockets += 1;
    stats.totalSockets += 1;
    socket.on("close", () => {
      sockets.delete(socket);
      stats.openSockets -= 1;
      stats.closedSockets += 1;
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const provider: FakeProvider = {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests: [],
    get chatRequests() {
      return provider.requests.filter((r): r is ChatRequest => r.path.startsWith("/v1/chat/completions") && isChatBody(r.body));
    },
    stats,
    on(matcher, source, ruleOptions = {}) {
      rules.push({ matcher, source, remaining: ruleOptions.times ?? Number.POSITIVE_INFINITY });
      return provider;
    },
    once(matcher, source) {
      return provider.on(matcher, source, { times: 1 });
    },
    enqueue(...sources) {
      queue.push(...sources);
      return provider;
    },
    enqueueEmbeddings(...replies) {
      embeddingsQueue.push(...replies);
      return provider;
    },
    setFallback(source) {
      fallback = source ?? options.fallback ?? defaultReply;
      return provider;
    },
    reset() {
      provider.requests.length = 0;
      rules = [];
      queue = [];
      embeddingsQueue = [];
      fallback = options.fallback ?? defaultReply;
      stats.abortedRequests = 0;
      stats.chatRequests = 0;
      stats.totalSockets = stats.openSockets;
      stats.closedSockets = 0;
    },
    async waitFor(predicate, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(provider)) {
        if (Date.now() > deadline) throw new Error(`fake provider: condition not met within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async close() {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Wait for every socket's own close too, so the counters are final when close() resolves.
      const socketsClosed = [...sockets].map((socket) => new Promise((resolve) => socket.once("close", resolve)));
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await Promise.all([closed, ...socketsClosed]);
    },
  };
  return provider;
}
