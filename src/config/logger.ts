import { createRequire } from "node:module";
import type { DestinationStream, Logger } from "pino";

// pino is required on the first createLogger call, not at import: every command imports the configuration,
// and one that only prints its usage or reads a catalog writes no log.
const require = createRequire(import.meta.url);

const REDACT = ["req.headers.authorization", "*.apiKey", "*.authorization", "apiKey"];

/**
 * A buffered log writes when this much is waiting, or every BUFFER_FLUSH_MS: one write system call per
 * line cost a measurable share of a route (docs/performance.md, "Embedder").
 */
const BUFFER_BYTES = 4096;
const BUFFER_FLUSH_MS = 100;

export interface LoggerOptions {
  /**
   * JSON lines are buffered (flushed every 100 ms, and at exit by pino): for the service, which logs a line
   * per request. A line still buffered when the process is killed (SIGKILL) is lost.
   */
  buffered?: boolean;
}

/**
 * Logs on stderr, so that stdout stays clean for --json output and the MCP protocol; secrets are redacted.
 * A terminal gets one readable line per event (pino-pretty, synchronous, so nothing is lost on exit);
 * anything else, such as a log collector, gets pino's JSON lines. SWITCHBOARD_LOG_FORMAT=json|pretty
 * overrides the choice. The level may be given as a string or as the environment read by readEnv.
 */
export function createLogger(
  level: string | { SWITCHBOARD_LOG_LEVEL?: string } = process.env.SWITCHBOARD_LOG_LEVEL ?? "info",
  options: LoggerOptions = {},
): Logger {
  const name = typeof level === "string" ? level : (level.SWITCHBOARD_LOG_LEVEL ?? "info");
  const format = process.env.SWITCHBOARD_LOG_FORMAT ?? (process.stderr.isTTY ? "pretty" : "json");
  const pino = require("pino") as typeof import("pino");
  return pino.default(
    { level: name, redact: REDACT },
    format === "pretty"
      ? prettyStream()
      : options.buffered
        ? pino.destination({ dest: 2, sync: false, minLength: BUFFER_BYTES, periodicFlush: BUFFER_FLUSH_MS })
        : pino.destination(2),
  );
}

function prettyStream(): DestinationStream {
  // Loaded only for a terminal: a service writing JSON never pays for it.
  const pretty = require("pino-pretty") as (options: object) => DestinationStream;
  return pretty({ destination: 2, sync: true, ignore: "pid,hostname", translateTime: "SYS:HH:MM:ss.l" });
}

export type { Logger };
