// Where tools may send requests. A destination is allowed when the operator allowed it (a rule), or when
// every address it connects to is public unicast: loopback, private, link-local (the cloud metadata
// address), CGNAT, unique-local, multicast, reserved, 0.0.0.0 and the like are refused. The check runs
// after DNS resolution, inside the connection itself: the connector resolves the name, checks the
// addresses and connects to the address it checked, so a DNS answer that changes between a check and the
// connection (DNS rebinding) cannot slip through. Every redirect hop opens its connection through the same
// connector and is checked again.
//
// Written by hand over ipaddr.js (range classification) and undici (the connector): the SSRF-filtering
// packages for Node (request-filtering-agent, ssrf-req-filter) wrap node:http agents, which fetch does not
// use, and none takes host:port or CIDR exceptions.
import { lookup } from "node:dns/promises";
import { createRequire } from "node:module";
import { isIP } from "node:net";
import type { Agent } from "undici";
import {
  type Address,
  admitsAddress,
  admitsName,
  type EgressRule,
  normalHost,
  parseAddress,
  parseRule,
} from "./rules.ts";

// undici is loaded by the first request that leaves: a process whose tools all run offline never needs it,
// and loading it costs a noticeable part of a CLI command's start.
const require = createRequire(import.meta.url);
const loadUndici = () => require("undici") as typeof import("undici");

export type EgressVerdict =
  | { allowed: true /** The address to connect to (checked). */; address: string }
  | { allowed: false /** One sentence naming the destination and why it is refused. */; reason: string };

export interface EgressPolicy {
  /**
   * Whether a request to `url` may leave, decided after DNS resolution. Only http(s) and ws(s) URLs can be
   * allowed. A caller that connects by itself should connect to `address` (pinned), not resolve again.
   */
  check(url: string | URL): Promise<EgressVerdict>;
  /** fetch() whose every connection, redirects included, goes only to destinations this policy allows. */
  fetch: typeof globalThis.fetch;
}

/** A host name's addresses, in the order to try them. */
export type Resolver = (host: string) => Promise<string[]>;

export interface EgressOptions {
  /** Operator-allowed destinations: host, host:port, IP address, [IPv6]:port or CIDR range. */
  allow?: readonly string[];
  /** How names are resolved; the system resolver by default. */
  resolve?: Resolver;
}

// The socket goes to one checked address (no racing of address families), so IPv4 comes first: it works
// on hosts without an IPv6 route.
const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, order: "ipv4first" })).map((entry) => entry.address);

/** A refused destination; `code` lets the dispatcher and tests tell it from a network failure. */
export class EgressDeniedError extends Error {
  readonly code = "ERR_EGRESS_DENIED";
  constructor(reason: string) {
    super(reason);
    this.name = "EgressDeniedError";
  }
}

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443, "ws:": 80, "wss:": 443 };

const RANGE_NAMES: Record<string, string> = {
  linkLocal: "link-local",
  carrierGradeNat: "carrier-grade NAT",
  uniqueLocal: "unique-local",
  ipv4Mapped: "IPv4-mapped",
};

function describe(address: Address): string {
  const range = address.range();
  return RANGE_NAMES[range] ?? range;
}

export function createEgressPolicy(options: EgressOptions = {}): EgressPolicy {
  // Loaded in the next idle moment rather than inside the first request's deadline: a tool's first fetch
  // with a short timeout must not pay for it. Not at import, which every CLI command's start would pay.
  setImmediate(() => loadUndici()).unref();
  const rules: EgressRule[] = (options.allow ?? []).map(parseRule);
  const resolve = options.resolve ?? systemResolver;

  /** The address to connect to for host:port, or the reason it is refused; DNS failures throw as they are. */
  async function decide(rawHost: string, port: number): Promise<EgressVerdict> {
    const host = normalHost(rawHost);
    const literal = isIP(host) !== 0;
    const addresses = literal ? [host] : await resolve(host);
    if (!literal && admitsName(rules, host, port)) {
      const first = addresses[0];
      return first === undefined
        ? { allowed: false, reason: `${host} has no address` }
        : { allowed: true, address: first };
    }
    let refused: string | undefined;
    for (const text of addresses) {
      const address = parseAddress(text);
      if (address.range() === "unicast" || admitsAddress(rules, address, port)) {
        return { allowed: true, address: address.toString() };
      }
      refused ??= literal
        ? `${host} is not a public address (${describe(address)})`
        : `${host} resolves to ${text}, not a public address (${describe(address)})`;
    }
    return {
      allowed: false,
      reason: `${refused ?? `${host} has no address`}; tools may reach it only if the operator allows it in SWITCHBOARD_EGRESS_ALLOW`,
    };
  }

  let agent: Agent | undefined;
  const agentOnce = (): Agent => {
    if (agent) return agent;
    const { Agent: UndiciAgent, buildConnector } = loadUndici();
    const connector = buildConnector({});
    agent = new UndiciAgent({
      connect(options, callback) {
        const port = Number(options.port) || (DEFAULT_PORTS[options.protocol] ?? 0);
        decide(options.hostname, port).then(
          (verdict) => {
            if (!verdict.allowed) return callback(new EgressDeniedError(verdict.reason), null);
            // The checked address is what the socket connects to; TLS still verifies the original host name,
            // which undici takes from options.host.
            connector({ ...options, hostname: verdict.address }, callback);
          },
          (error: Error) => callback(error, null),
        );
      },
    });
    return agent;
  };

  return {
    async check(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return { allowed: false, reason: `"${String(url)}" is not an absolute URL` };
      }
      const port = Number(parsed.port) || DEFAULT_PORTS[parsed.protocol];
      if (port === undefined) return { allowed: false, reason: `${parsed.protocol} URLs cannot leave` };
      try {
        return await decide(parsed.hostname, port);
      } catch (error) {
        return {
          allowed: false,
          reason: `cannot resolve ${parsed.hostname}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        };
      }
    },
    fetch: ((input: string | URL, init?: RequestInit) =>
      loadUndici().fetch(input, {
        ...(init as object),
        dispatcher: agentOnce(),
      })) as unknown as typeof globalThis.fetch,
  };
}

let publicOnlyPolicy: EgressPolicy | undefined;

/** The policy without operator exceptions (only public addresses): the default wherever none is given. */
export function publicOnly(): EgressPolicy {
  publicOnlyPolicy ??= createEgressPolicy();
  return publicOnlyPolicy;
}
