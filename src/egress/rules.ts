// The operator's egress allowlist (SWITCHBOARD_EGRESS_ALLOW and the origins of catalog tools on disk):
// host names, host:port pairs, IP addresses and CIDR ranges, parsed once into rules.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** One allowed destination; `port` undefined means any port. */
export type EgressRule =
  | { kind: "host"; host: string; port?: number }
  | { kind: "range"; range: [Address, number]; port?: number };

export class EgressConfigError extends Error {
  constructor(entry: string, why: string) {
    super(`egress allow entry "${entry}": ${why}; use a host, host:port, an IP address or a CIDR range`);
    this.name = "EgressConfigError";
  }
}

const HOST_NAME = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

/** A host as URLs and sockets spell it, for comparison: lower case, no brackets, no trailing dot. */
export function normalHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}

/**
 * An address as ipaddr.js sees it, IPv4-mapped IPv6 (::ffff:10.0.0.1) unwrapped to the IPv4 it reaches, and
 * so is the deprecated IPv4-compatible form (::10.0.0.1 = ::a00:1), which ipaddr.js calls plain unicast but
 * a host with an IPv6-in-IPv4 tunnel routes to that IPv4 address.
 */
export function parseAddress(address: string): Address {
  const parsed = ipaddr.process(normalHost(address));
  if (parsed.kind() !== "ipv6") return parsed;
  const parts = (parsed as ipaddr.IPv6).parts;
  if (!parts.slice(0, 6).every((part) => part === 0) || parts[6] === 0) return parsed;
  const [high = 0, low = 0] = parts.slice(6);
  return ipaddr.fromByteArray([high >> 8, high & 255, low >> 8, low & 255]);
}

function parsePort(text: string, entry: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535)
    throw new EgressConfigError(entry, `"${text}" is not a port`);
  return port;
}

function hostRule(host: string, entry: string, port?: number): EgressRule {
  const normal = normalHost(host);
  if (isIP(normal)) {
    const address = parseAddress(normal);
    return { kind: "range", range: [address, address.kind() === "ipv4" ? 32 : 128], port };
  }
  if (!HOST_NAME.test(normal)) throw new EgressConfigError(entry, "not a host name");
  return { kind: "host", host: normal, port };
}

export function parseRule(raw: string): EgressRule {
  const entry = raw.trim();
  if (entry === "") throw new EgressConfigError(raw, "empty");
  if (entry.includes("/")) {
    if (!ipaddr.isValidCIDR(entry)) throw new EgressConfigError(entry, "not a valid CIDR range");
    return { kind: "range", range: ipaddr.parseCIDR(entry) };
  }
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracketed?.[1] !== undefined) {
    if (!isIP(bracketed[1])) throw new EgressConfigError(entry, "not an IPv6 address in brackets");
    return hostRule(
      bracketed[1],
      entry,
      bracketed[2] === undefined ? undefined : parsePort(bracketed[2], entry),
    );
  }
  if (isIP(entry)) return hostRule(entry, entry);
  const colon = entry.lastIndexOf(":");
  if (colon > 0) return hostRule(entry.slice(0, colon), entry, parsePort(entry.slice(colon + 1), entry));
  return hostRule(entry, entry);
}

/** Whether a rule admits this host name (before any DNS) on this port. */
export function admitsName(rules: readonly EgressRule[], host: string, port: number): boolean {
  return rules.some((r) => r.kind === "host" && r.host === host && (r.port === undefined || r.port === port));
}

/** Whether a rule admits this resolved address on this port. */
export function admitsAddress(rules: readonly EgressRule[], address: Address, port: number): boolean {
  return rules.some(
    (r) =>
      r.kind === "range" &&
      r.range[0].kind() === address.kind() &&
      address.match(r.range) &&
      (r.port === undefined || r.port === port),
  );
}
