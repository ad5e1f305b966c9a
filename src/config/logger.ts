import pino, { type Logger } from "pino";

/** Structured logs on stderr, so that stdout stays clean for --json output. Secrets are redacted. */
export function createLogger(level: string = process.env.SWITCHBOARD_LOG_LEVEL ?? "info"): Logger {
  return pino(
    {
      level,
      redact: ["req.headers.authorization", "*.apiKey", "*.authorization", "apiKey"],
    },
    pino.destination(2),
  );
}

export type { Logger };
