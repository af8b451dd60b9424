import type { Response } from "express";

export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  // No Connection header: Node writes "keep-alive" itself when the socket stays open. Setting it here
  // overrode a client's "Connection: close", which then waited for the 65 s keep-alive timeout after [DONE].
  // Tells nginx-style proxies not to buffer, so each event reaches the client when written.
  "X-Accel-Buffering": "no",
});

/** One server-sent event carrying a JSON payload (or the literal [DONE]). */
export function sseEvent(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

export interface SseWriter {
  /** False once the client is gone: further writes are dropped. */
  readonly open: boolean;
  send(data: unknown): void;
  /** A named event (`event: <name>`), as the Responses API sends every event. */
  event(name: string, data: unknown): void;
  /** Writes `data: [DONE]` and ends the response. */
  done(): void;
  /** Ends the response without `[DONE]` (the Responses API sends none). */
  end(): void;
}

/** Sends the status line and headers at once and hands back a writer that flushes every event. */
export function startSse(res: Response, extraHeaders: Record<string, string> = {}): SseWriter {
  res.writeHead(200, { ...SSE_HEADERS, ...extraHeaders });
  res.flushHeaders();
  const isOpen = () => !res.destroyed && !res.writableEnded;
  return {
    get open() {
      return isOpen();
    },
    send(data) {
      if (isOpen()) res.write(sseEvent(data));
    },
    event(name, data) {
      if (isOpen()) res.write(`event: ${name}\n${sseEvent(data)}`);
    },
    done() {
      if (isOpen()) res.end(sseEvent("[DONE]"));
    },
    end() {
      if (isOpen()) res.end();
    },
  };
}
