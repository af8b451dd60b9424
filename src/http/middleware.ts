import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../logger.js";
import { bearerToken, keyRedactor, REDACTED, type KeyRedactor } from "./key-redaction.js";

declare module "express-serve-static-core" {
  interface Request {
    id: string;
    log: Logger;
    /** req.path with anything shaped like a key redacted: the only form of the path logs and messages use. */
    safePath: string;
    /** The text with anything shaped like a key (this caller's included) redacted, for messages that quote the request. */
    redactKeys(text: string): string;
  }
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Event-loop stalls, sampled by a timer every LOOP_TICK_MS. A request is first seen when the loop gets to
 * it: one sent while the loop was blocked (say by 15 s of CPU work) sat unseen in its socket for up to the
 * whole stall, and timing it from when it was seen logged 753 ms for a chat that took its caller 15.5 s.
 * After a stall the timer usually runs before the socket is read (timers come first in a loop turn), so
 * the stall it saw is kept for the requests read right after it. Process-wide, as the loop is.
 */
const LOOP_TICK_MS = 20;
const loop = { watching: false, lastTick: 0, stallEnd: -Infinity, stallMs: 0 };

function watchLoop() {
  if (loop.watching) return;
  loop.watching = true;
  loop.lastTick = performance.now();
  setInterval(() => {
    const now = performance.now();
    const late = now - loop.lastTick - LOOP_TICK_MS;
    if (late > LOOP_TICK_MS) Object.assign(loop, { stallEnd: now, stallMs: late });
    loop.lastTick = now;
  }, LOOP_TICK_MS).unref();
}

/** How long a request seen at `now` may have waited unseen: the stall that just ended or is ending now. */
function unseenWait(now: number): number {
  const ongoing = now - loop.lastTick - LOOP_TICK_MS;
  const ended = now - loop.stallEnd < LOOP_TICK_MS ? loop.stallMs : 0;
  // A timer late by a tick or less is ordinary scheduling, not a stall a caller waited through.
  return Math.max(ongoing > LOOP_TICK_MS ? ongoing : 0, ended);
}

// Health probes poll every few seconds; at info they would drown the lines that matter.
const PROBES = new Set(["/healthz", "/readyz"]);

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane) and a child logger carrying it,
 * and writes one access line when the response is done: at debug for health probes, with the error
 * envelope's `code` when the status is 4xx or 5xx. `ms` counts from when the request could have arrived:
 * after an event-loop stall that is the stall's start (`queuedMs`, an upper bound of the unseen wait).
 * Headers are never logged: the caller's Authorization header holds their provider key.
 */
export function requestContext(logger: Logger, redact: KeyRedactor = keyRedactor()) {
  watchLoop();
  return (req: Request, res: Response, next: NextFunction) => {
    const callerKey = bearerToken(req.get("authorization"));
    const given = req.get("x-request-id");
    // A caller's id that holds a key is not taken: it would be logged with every line and sent back.
    req.id = given && REQUEST_ID.test(given) && !redact(given, callerKey).includes(REDACTED) ? given : randomUUID();
    req.redactKeys = (text) => redact(text, callerKey);
    req.safePath = req.redactKeys(req.path);
    req.log = logger.child({ requestId: req.id });
    res.setHeader("X-Request-Id", req.id);
    const seen = performance.now();
    // Up to this long the request may have waited before the loop could read it: counted, as the caller waited it.
    const queuedMs = unseenWait(seen);
    // Every error leaves as the JSON envelope, whoever writes it (error handler, drain, rate limiter).
    let code: unknown;
    const json = res.json.bind(res);
    res.json = (body?: unknown) => {
      if (res.statusCode >= 400) code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
      return json(body);
    };
    res.on("close", () => {
      const ms = performance.now() - seen + queuedMs;
      // What the client really got: no status line at all is 499 (nginx's "client closed request"), not
      // the 200 Node presets; a stream that ended in an error event carries that error's code.
      const status = res.headersSent ? res.statusCode : 499;
      const streamCode: unknown = res.locals.errorCode;
      const line = {
        method: req.method,
        path: req.safePath,
        status,
        ...(status >= 400 && typeof code === "string" ? { code } : {}),
        ...(status < 400 && typeof streamCode === "string" ? { code: streamCode } : {}),
        ms: Math.round(ms * 10) / 10,
        ...(queuedMs > 0 ? { queuedMs: Math.round(queuedMs) } : {}),
        aborted: !res.writableFinished,
      };
      if (PROBES.has(req.path)) req.log.debug(line, "request");
      else req.log.info(line, "request");
    });
    next();
  };
}

/** OpenAI's API answers any origin without credentials; operators can narrow it with CORS_ORIGINS. */
export function cors(origins: string) {
  const allowed = origins.split(",").map((o) => o.trim()).filter(Boolean);
  const any = allowed.includes("*");
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get("origin");
    if (origin && (any || allowed.includes(origin))) {
      res.setHeader("Access-Control-Allow-Origin", any ? "*" : origin);
      if (!any) res.vary("Origin");
      res.setHeader("Access-Control-Expose-Headers", "X-Request-Id, X-Prompt-Versions, Retry-After");
    }
    if (req.method === "OPTIONS" && origin) {
      res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      res.setHeader(
        "Access-Control-Allow-Headers",
        req.get("access-control-request-headers") ?? "Authorization, Content-Type, X-Convert-Scripture-Links",
      );
      res.setHeader("Access-Control-Max-Age", "600");
      res.status(204).end();
      return;
    }
    next();
  };
}
