import type { NextFunction, Request, Response } from "express";
import { AppError } from "../errors.js";

export interface RateLimitOptions {
  perMinute: number;
  /** Requests this limiter must not count (chat: each caller pays their own provider). */
  skip?: (req: Request) => boolean;
  /** Most client addresses tracked in one window; past it the oldest entry is forgotten. */
  maxClients?: number;
  now?: () => number;
}

const WINDOW_MS = 60_000;

/**
 * A per-IP fixed-window limiter for the key-less endpoints. Windows are aligned to the clock minute,
 * so a new window simply drops every count: no timers, and memory stays under `maxClients` entries.
 * The client is `req.ip`, which honours TRUST_PROXY.
 */
export function rateLimit(options: RateLimitOptions) {
  const now = options.now ?? Date.now;
  const maxClients = options.maxClients ?? 50_000;
  const counts = new Map<string, number>();
  let window = -1;

  return (req: Request, res: Response, next: NextFunction) => {
    if (options.skip?.(req)) return next();
    const t = now();
    const current = Math.floor(t / WINDOW_MS);
    if (current !== window) {
      window = current;
      counts.clear();
    }
    const ip = req.ip ?? req.socket.remoteAddress ?? "unknown";
    const count = (counts.get(ip) ?? 0) + 1;
    if (!counts.has(ip) && counts.size >= maxClients) counts.delete(counts.keys().next().value!);
    counts.set(ip, count);
    res.setHeader("X-RateLimit-Limit", String(options.perMinute));
    res.setHeader("X-RateLimit-Remaining", String(Math.max(0, options.perMinute - count)));
    const retryAfter = Math.max(1, Math.ceil(((current + 1) * WINDOW_MS - t) / 1000));
    const limited = () =>
      new AppError({
        status: 429,
        type: "invalid_request_error",
        code: "rate_limited",
        message: `Too many requests from this address: the limit is ${options.perMinute} a minute. Retry in ${retryAfter} s.`,
        headers: { "Retry-After": String(retryAfter) },
      });
    // A request that carries several calls (an MCP batch) is charged for each: the error when over, else undefined.
    res.locals.chargeRateLimit = (extra: number): AppError | undefined => {
      const total = (counts.get(ip) ?? 0) + extra;
      counts.set(ip, total);
      res.setHeader("X-RateLimit-Remaining", String(Math.max(0, options.perMinute - total)));
      return total <= options.perMinute ? undefined : limited();
    };
    if (count <= options.perMinute) return next();
    next(limited());
  };
}
