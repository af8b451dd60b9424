import { pino, type Logger, type DestinationStream } from "pino";

export type { Logger };

/**
 * JSON logs, one object a line. Header and key-like fields are redacted wherever they appear, as a
 * second line of defence: no code path is meant to log them in the first place.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
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
    destination,
  );
}
