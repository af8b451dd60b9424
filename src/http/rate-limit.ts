import type { NextFunction, Request, Response } from "express";
import { AppError } from "../errors.js";

/** Counts a client's requests in the current window: in this process, or shared by every replica (rate-limit-redis.ts). */
export interface RateLimitCounter {
  /** Adds `points` (1 a request; an MCP batch's further calls) and returns the window's count so far. */
  hit(client: string, points?: number): Promise<{ count: number; resetMs: number }> | { count: number; resetMs: number };
  /** The window's count so far without adding to it (undefined: nothing counted yet); stores nothing. */
  peek(client: string): Promise<{ count: number; resetMs: number } | undefined> | { count: number; resetMs: number } | undefined;
}

export interface RateLimitOptions {
  perMinute: number;
  /** Requests this limiter must not count (chat: each caller pays their own provider). */
  skip?: (req: Request) => boolean;
  /** Where counts live; this process's memory (memoryCounter) by default. */
  counter?: RateLimitCounter;
  /** For the default counter: most client addresses tracked in one window; past it the oldest entry is forgotten. */
  maxClients?: number;
  now?: () => number;
}

export const WINDOW_MS = 60_000;

/**
 * A fixed window aligned to the clock minute, in this process: a new window simply drops every count,
 * so there are no timers and memory stays under `maxClients` entries.
 */
export function memoryCounter(options: { maxClients?: number; now?: () => number } = {}): RateLimitCounter {
  const now = options.now ?? Date.now;
  const maxClients = options.maxClients ?? 50_000;
  const counts = new Map<string, number>();
  let window = -1;
  return {
    hit(client, points = 1) {
      const t = now();
      const current = Math.floor(t / WINDOW_MS);
      if (current !== window) {
        window = current;
        counts.clear();
      }
      const count = (counts.get(client) ?? 0) + points;
      if (!counts.has(client) && counts.size >= maxClients) counts.delete(counts.keys().next().value!);
      counts.set(client, count);
      return { count, resetMs: (current + 1) * WINDOW_MS - t };
    },
    peek(client) {
      const t = now();
      const current = Math.floor(t / WINDOW_MS);
      const count = current === window ? counts.get(client) : undefined;
      return count === undefined ? undefined : { count, resetMs: (current + 1) * WINDOW_MS - t };
    },
  };
}

/** Who a request comes from, for every limit here: `req.ip`, which honours TRUST_PROXY. */
export const clientOf = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? "unknown";

const retryAfterOf = (resetMs: number) => Math.max(1, Math.ceil(resetMs / 1000));

/** What a request charged for several calls (an MCP batch) learns: the limit's error when over, else undefined. */
export type ChargeRateLimit = (extra: number) => Promise<AppError | undefined>;

/**
 * A per-IP limit for the key-less endpoints. The client is `req.ip`, which honours TRUST_PROXY. With
 * RATE_LIMIT_REDIS_URL the counts are shared by every replica, so X-RateLimit-Limit is what a client
 * gets in all; without it they are this process's own (docs/operators.md). A request that carries
 * several calls (an MCP batch) is charged for each through `res.locals.chargeRateLimit`.
 */
export function rateLimit(options: RateLimitOptions) {
  const counter = options.counter ?? memoryCounter({ ...(options.maxClients ? { maxClients: options.maxClients } : {}), ...(options.now ? { now: options.now } : {}) });
  return (req: Request, res: Response, next: NextFunction) => {
    if (options.skip?.(req)) return next();
    const ip = clientOf(req);
    const limited = (resetMs: number) => {
      const retryAfter = retryAfterOf(resetMs);
      return new AppError({
        status: 429,
        type: "invalid_request_error",
        code: "rate_limited",
        message: `Too many requests from this address: the limit is ${options.perMinute} a minute. Retry in ${retryAfter} s.`,
        headers: { "Retry-After": String(retryAfter) },
      });
    };
    const charged = ({ count, resetMs }: { count: number; resetMs: number }): AppError | undefined => {
      res.setHeader("X-RateLimit-Limit", String(options.perMinute));
      res.setHeader("X-RateLimit-Remaining", String(Math.max(0, options.perMinute - count)));
      return count <= options.perMinute ? undefined : limited(resetMs);
    };
    const charge: ChargeRateLimit = async (extra) => charged(await counter.hit(ip, extra));
    res.locals.chargeRateLimit = charge;
    const apply = (out: { count: number; resetMs: number }) => next(charged(out));
    const out = counter.hit(ip, 1);
    if (out instanceof Promise) out.then(apply, next);
    else apply(out);
  };
}

/** What the chat handler calls when the provider refused the request's key (HTTP 401/403). */
export type CountKeyRefusal = () => void;

/** The refusals' counts live in the rate limit's counter, under their own client keys. */
const REFUSALS = "key-refused:";

/**
 * Chat costs tens of ms of CPU (preflight rules, care check, prefetched search) before the provider
 * answers, and chat is outside the key-less limit: a client sending keys the provider refuses could make
 * the service do that work without end. Each refusal is counted against the client (`clientOf`, in the
 * rate limit's counter: this process's memory or the replicas' Redis); once a client has `perMinute` in
 * the window, its chats get 429 `rate_limited` with Retry-After before any work, until the window passes.
 * A client whose key works is never counted. The handler reports a refusal through
 * `res.locals.countKeyRefusal`.
 */
export function keyRefusalLimit(options: { perMinute: number; counter: RateLimitCounter }) {
  const { perMinute, counter } = options;
  return (req: Request, res: Response, next: NextFunction) => {
    const client = REFUSALS + clientOf(req);
    const count: CountKeyRefusal = () => {
      // A counter that fails (Redis away and no insurance) must not turn a 401 into another error.
      try {
        const out = counter.hit(client, 1);
        if (out instanceof Promise) out.catch(() => undefined);
      } catch {
        /* not counted */
      }
    };
    res.locals.countKeyRefusal = count;
    const apply = (seen: { count: number; resetMs: number } | undefined) => {
      if (!seen || seen.count < perMinute) return next();
      const retryAfter = retryAfterOf(seen.resetMs);
      next(
        new AppError({
          status: 429,
          type: "invalid_request_error",
          code: "rate_limited",
          message: `Too many chats from this address had their API key refused by the model provider (at most ${perMinute} a minute). Check the key, then retry in ${retryAfter} s.`,
          headers: { "Retry-After": String(retryAfter) },
        }),
      );
    };
    let seen: ReturnType<RateLimitCounter["peek"]>;
    try {
      seen = counter.peek(client);
    } catch {
      return next();
    }
    if (seen instanceof Promise) seen.then(apply, () => next());
    else apply(seen);
  };
}
