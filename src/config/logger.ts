import { createRequire } from "node:module";
import type { DestinationStream, Logger } from "pino";

// pino is required on the first createLogger call, not at import: every command imports the configuration,
// and one that only prints its usage or reads a catalog writes no log.
const require = createRequire(import.meta.url);

const REDACT = ["req.headers.authorization", "*.apiKey", "*.authorization", "apiKey"];

/**
 * The per-request lines of a buffered log are written when this much is waiting, or every BUFFER_FLUSH_MS:
 * one write system call per line cost a measurable share of a route (docs/performance.md, "Embedder").
 */
const BUFFER_BYTES = 4096;
const BUFFER_FLUSH_MS = 100;

export interface LoggerOptions {
  /**
   * The one-line-per-request JSON lines are buffered (flushed every 100 ms, and at exit by pino): for the
   * service. Every other line (ready, a tool deleted or promoted, a warning) flushes them and is written at
   * once, so an event is never late and never lost; a request line buffered when the process is killed
   * (SIGKILL) is.
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
    format === "pretty" ? prettyStream() : options.buffered ? requestLinesBatched(pino) : pino.destination(2),
  );
}

/** The request-log plugin's line: pino writes the message last, and JSON escapes any quote a URL holds. */
const REQUEST_LINE_END = '"msg":"request"}\n';

function requestLinesBatched(pino: typeof import("pino")): DestinationStream {
  const batched = pino.destination({
    dest: 2,
    sync: false,
    minLength: BUFFER_BYTES,
    periodicFlush: BUFFER_FLUSH_MS,
  });
  const direct = pino.destination({ dest: 2, sync: true });
  return {
    write(line: string) {
      if (line.endsWith(REQUEST_LINE_END)) return batched.write(line);
      batched.flushSync();
      direct.write(line);
    },
  };
}

function prettyStream(): DestinationStream {
  // Loaded only for a terminal: a service writing JSON never pays for it.
  const pretty = require("pino-pretty") as (options: object) => DestinationStream;
  return pretty({ destination: 2, sync: true, ignore: "pid,hostname", translateTime: "SYS:HH:MM:ss.l" });
}

export type { Logger };
