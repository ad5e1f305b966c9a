// Which addresses the browser may connect to, checked after DNS resolution on the address actually
// dialled: loopback, private, link-local and other non-public ranges are refused unless the operator
// allowed the destination (SWITCHBOARD_EGRESS_ALLOW: hosts, host:port pairs or CIDRs). The proxy that
// Chromium goes through (proxy.ts) connects to the address checked here, so a DNS answer cannot change
// between the check and the connection.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");

/** Allowed with the address to connect to (checked), or refused with one sentence saying why. */
export type EgressVerdict = { allowed: true; address: string } | { allowed: false; reason: string };

/** The egress check the browser's proxy applies to every connection (the shape of src/egress's policy). */
export interface EgressRules {
  check(url: string | URL): Promise<EgressVerdict>;
}

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443, "ws:": 80, "wss:": 443 };

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** An IPv4-mapped IPv6 address ("::ffff:127.0.0.1") is judged as the IPv4 address it carries. */
function plain(address: string): { address: string; family: "ipv4" | "ipv6" } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: "ipv4" };
  return { address, family: isIP(address) === 6 ? "ipv6" : "ipv4" };
}

function operatorAllows(
  rules: { allow: readonly string[] },
  host: string,
  port: number,
  address: string,
): boolean {
  const { address: ip, family } = plain(address);
  return rules.allow.some((entry) => {
    const slash = entry.indexOf("/");
    if (slash > 0) {
      const network = entry.slice(0, slash);
      const kind = isIP(network) === 6 ? "ipv6" : "ipv4";
      if (kind !== family) return false;
      const list = new BlockList();
      list.addSubnet(network, Number(entry.slice(slash + 1)), kind);
      return list.check(ip, family);
    }
    const colon = entry.lastIndexOf(":");
    const hasPort = colon > 0 && !entry.slice(0, colon).includes(":") && /^\d+$/.test(entry.slice(colon + 1));
    const name = unbracket(hasPort ? entry.slice(0, colon) : entry).toLowerCase();
    if (hasPort && Number(entry.slice(colon + 1)) !== port) return false;
    return name === host.toLowerCase() || name === ip;
  });
}

/** SWITCHBOARD_EGRESS_ALLOW's comma-separated list as entries. */
export function egressAllowList(list: string | undefined): string[] {
  return (list ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * The check for an operator's allow list (hosts, host:port pairs, CIDRs): every address a name resolves to
 * must be public or allowed, so a name cannot mix a public answer with a private one.
 */
export function egressRulesFrom(list: string | readonly string[] | undefined): EgressRules {
  const rules = { allow: typeof list === "string" || list === undefined ? egressAllowList(list) : list };
  async function decide(host: string, port: number): Promise<EgressVerdict> {
    let addresses: string[];
    try {
      addresses =
        isIP(host) !== 0 ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
    } catch (error) {
      return {
        allowed: false,
        reason: `${host} does not resolve (${(error as NodeJS.ErrnoException).code})`,
      };
    }
    for (const address of addresses) {
      const { address: ip, family } = plain(address);
      if (NON_PUBLIC.check(ip, family) && !operatorAllows(rules, host, port, address))
        return {
          allowed: false,
          reason: `${host}:${port} resolves to ${address}, a loopback, private or link-local address the operator has not allowed (SWITCHBOARD_EGRESS_ALLOW)`,
        };
    }
    const first = addresses[0];
    return first === undefined
      ? { allowed: false, reason: `${host} does not resolve` }
      : { allowed: true, address: first };
  }
  return {
    check(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return Promise.resolve({ allowed: false, reason: `"${String(url)}" is not an absolute URL` });
      }
      const port = Number(parsed.port) || DEFAULT_PORTS[parsed.protocol];
      if (port === undefined)
        return Promise.resolve({ allowed: false, reason: `${parsed.protocol} URLs cannot leave` });
      return decide(unbracket(parsed.hostname), port);
    },
  };
}
