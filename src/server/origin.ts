// DNS rebinding defence. A web page the operator visits can make the browser send requests to loopback
// under the attacker's own host name; without keys nothing else would stop it. So in keyless mode every
// request must name a loopback host and, when a browser says where it comes from, a loopback origin. /mcp
// checks Origin in every mode, as the MCP Streamable HTTP transport requires.
import { isIP } from "node:net";
import { HttpError } from "./problems.ts";

const HOST_CHARACTERS = /^[A-Za-z0-9.:[\]-]+$/;

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** localhost, 127.0.0.0/8 or [::1], with or without a port (URL parsing also folds forms like 127.1). */
function isLoopbackHostname(hostname: string | undefined): boolean {
  return (
    hostname === "localhost" ||
    hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname ?? "")
  );
}

/**
 * The one loopback test for a host: a `Host` header (`localhost:7070`, `[::1]:7070`) or an address to bind
 * (`127.0.0.1`, `::1`). `serve` refuses to bind anything else without keys; keyless requests must name one.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host || !HOST_CHARACTERS.test(host)) return false;
  return isLoopbackHostname(hostnameOf(`http://${isIP(host) === 6 ? `[${host}]` : host}`));
}

export function isLoopbackOrigin(origin: string): boolean {
  if (!/^https?:\/\//i.test(origin)) return false;
  return isLoopbackHostname(hostnameOf(origin));
}

/** An Origin the request's own Host serves (same host and port), as a browser sends for same-origin calls. */
function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (!host || !/^https?:\/\//i.test(origin)) return false;
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}

export interface OriginCheck {
  /** No keys configured: loopback is the only protection, so Host and Origin must be loopback. */
  keyless: boolean;
  /** The MCP endpoint: Origin, when present, must be loopback or this service's own. */
  mcp: boolean;
  host: string | undefined;
  origin: string | undefined;
}

export function checkOrigin({ keyless, mcp, host, origin }: OriginCheck): void {
  if (keyless && !isLoopbackHost(host))
    throw new HttpError(
      403,
      "forbidden_host",
      "without API keys the service answers only requests addressed to a loopback host (localhost, 127.0.0.1, [::1])",
    );
  if (origin === undefined) return;
  if (keyless ? !isLoopbackOrigin(origin) : mcp && !isLoopbackOrigin(origin) && !isSameOrigin(origin, host))
    throw new HttpError(
      403,
      "forbidden_origin",
      keyless
        ? "without API keys the service answers browsers only from a loopback origin"
        : "the MCP endpoint answers browsers only from a loopback origin or this service's own",
    );
}
