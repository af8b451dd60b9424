import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { WINDOW_MS, type RateLimitCounter } from "./rate-limit.js";

export interface RedisCounterLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/**
 * Counts shared by every replica in one Redis (RATE_LIMIT_REDIS_URL), through rate-limiter-flexible.
 * While Redis does not answer, each process counts alone (its insurance limiter), so the key-less
 * endpoints keep serving; the change is logged once each way.
 */
export function redisCounter(options: { url: string; perMinute: number; logger: RedisCounterLogger }): RateLimitCounter & { close(): Promise<void> } {
  // No offline queue: a request never waits for a Redis that is away, it falls back at once.
  const client = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  let up: boolean | undefined;
  const state = (next: boolean, err?: Error) => {
    if (up === next) return;
    up = next;
    if (next) options.logger.info({}, "rate limit: counting in Redis, shared by every replica");
    else options.logger.warn({ err: err?.message }, "rate limit: Redis not answering; each replica counts alone until it does");
  };
  client.on("ready", () => state(true));
  client.on("error", (err: Error) => state(false, err));
  const duration = WINDOW_MS / 1000;
  const limiter = new RateLimiterRedis({
    storeClient: client,
    keyPrefix: "biblical-chat:rl",
    points: options.perMinute,
    duration,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory({ points: options.perMinute, duration }),
  });
  const result = (r: RateLimiterRes) => ({ count: r.consumedPoints, resetMs: r.msBeforeNext });
  return {
    async hit(client, points = 1) {
      try {
        return result(await limiter.consume(client, points));
      } catch (rejected) {
        if (rejected instanceof RateLimiterRes) return result(rejected);
        throw rejected;
      }
    },
    async peek(client) {
      try {
        const r = await limiter.get(client);
        return r ? result(r) : undefined;
      } catch {
        return undefined;
      }
    },
    async close() {
      client.disconnect();
    },
  };
}
