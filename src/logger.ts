import { createRequire } from "node:module";
import { Writable } from "node:stream";
import { pino, type DestinationStream, type LogFn, type Logger } from "pino";

export type { Logger };

export type LogFormat = "auto" | "json" | "pretty";

/** `auto` reads as a person would: pretty lines on a terminal, JSON (one object a line) for machines. */
export function resolveLogFormat(format: LogFormat, isTTY: boolean): "json" | "pretty" {
  return format === "auto" ? (isTTY ? "pretty" : "json") : format;
}

function prettyStream(destination: DestinationStream | undefined, colorize: boolean): DestinationStream {
  // Loaded only when wanted: JSON logging (production) never pays for it.
  const pretty = createRequire(import.meta.url)("pino-pretty") as typeof import("pino-pretty");
  // pino takes any object with write(); pino-pretty pipes into a real stream.
  const target =
    destination && typeof (destination as Partial<Writable>).on !== "function"
      ? new Writable({ write: (chunk, _enc, cb) => (destination.write(String(chunk)), cb()) })
      : destination;
  return pretty({ destination: target ?? 1, sync: true, colorize, singleLine: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service" });
}

/** In pretty mode the access line reads as a person reads it: `GET /v1/models 404 not_found 1.2 ms`. */
function accessLineAsText(this: Logger, args: Parameters<LogFn>, method: LogFn): void {
  const [obj, msg] = args as unknown[];
  if (msg === "request" && typeof obj === "object" && obj !== null && "method" in obj) {
    const { method: verb, path, status, ms, aborted, ...rest } = obj as Record<string, unknown>;
    const code = rest.code ? ` ${String(rest.code)}` : "";
    delete rest.code;
    return method.call(this, rest, `${String(verb)} ${String(path)} ${String(status)}${code} ${String(ms)} ms${aborted ? " (aborted)" : ""}`);
  }
  return method.apply(this, args);
}

/**
 * JSON logs, one object a line, or readable lines for a terminal (LOG_FORMAT). Header and key-like
 * fields are redacted wherever they appear, as a second line of defence: no code path is meant to log
 * them in the first place.
 */
export function createLogger(level: string, destination?: DestinationStream, format: LogFormat = "json"): Logger {
  const isTTY = destination === undefined && process.stdout.isTTY === true;
  const pretty = resolveLogFormat(format, isTTY) === "pretty";
  return pino(
    {
      level,
      ...(pretty ? { hooks: { logMethod: accessLineAsText } } : {}),
      base: { service: "biblical-chat" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          "authorization",
          "apiKey",
          "api_key",
          "*.authorization",
          "*.apiKey",
          "*.api_key",
          "headers.authorization",
          "req.headers.authorization",
        ],
        censor: "[redacted]",
      },
    },
    pretty ? prettyStream(destination, isTTY) : destination,
  );
}
