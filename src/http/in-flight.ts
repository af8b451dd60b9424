import { AppError } from "../errors.js";

/**
 * Why the service itself ended a request that was still running: its overall deadline passed
 * (REQUEST_DEADLINE_MS), or the service is shutting down and the drain time (SHUTDOWN_TIMEOUT_MS) is over.
 * PROVIDER_TIMEOUT_MS bounds a provider's silence only; this bounds the whole request.
 */
export class RequestEnded extends Error {
  override name = "RequestEnded";
  constructor(readonly kind: "deadline" | "shutdown", readonly limitMs: number) {
    super(kind === "deadline" ? `request deadline of ${limitMs} ms passed` : "service shutting down");
  }
}

/** The error the caller gets for it: a response when nothing was sent yet, an in-stream event otherwise. */
export function endedError(ended: RequestEnded): AppError {
  if (ended.kind === "deadline") {
    const seconds = Math.round(ended.limitMs / 1000);
    return new AppError({
      status: 504,
      type: "server_error",
      code: "request_timeout",
      message: `The answer took longer than this service allows for one request (${seconds} s) and was stopped. Retry, or ask a narrower question.`,
    });
  }
  return new AppError({
    status: 503,
    type: "server_error",
    code: "service_unavailable",
    message: "The service is shutting down; retry shortly.",
    headers: { "Retry-After": "1" },
  });
}

export interface Ticket {
  signal: AbortSignal;
  /** Stops the deadline and forgets the request. */
  finish(): void;
}

/** The long requests in flight (chat), each with its deadline; the shutdown ends those still open. */
export interface InFlight {
  readonly deadlineMs: number;
  /** Tracks a request whose work listens to `abort`; the deadline aborts it with RequestEnded. */
  track(abort: AbortController): Ticket;
  /** Aborts every tracked request with RequestEnded("shutdown"); returns how many there were. */
  endAll(): number;
  readonly size: number;
}

export function createInFlight(deadlineMs: number): InFlight {
  const open = new Set<AbortController>();
  return {
    deadlineMs,
    track(abort) {
      const timer = setTimeout(() => abort.abort(new RequestEnded("deadline", deadlineMs)), deadlineMs);
      timer.unref();
      open.add(abort);
      return {
        signal: abort.signal,
        finish() {
          clearTimeout(timer);
          open.delete(abort);
        },
      };
    },
    endAll() {
      const n = open.size;
      for (const abort of open) abort.abort(new RequestEnded("shutdown", 0));
      open.clear();
      return n;
    },
    get size() {
      return open.size;
    },
  };
}
