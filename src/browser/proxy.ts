// A forward proxy, one per browser call, that every connection of that call's incognito context goes
// through (Chromium is told to proxy loopback too). It enforces what request interception cannot see or
// cannot pin: WebSockets (CDP's request interception does not show them), and the address actually dialled,
// which is checked after DNS (src/egress, the policy ctx.fetch and http bindings use) and then connected
// to directly.
//
// Written by hand: the proxy libraries on npm forward to whatever the client names and resolve DNS
// themselves; the check has to sit between resolution and connection, which is most of this file.
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { EgressPolicy } from "../egress/index.ts";

/** The part of the egress policy the proxy uses: a verdict, with the checked address to dial. */
export type EgressCheck = Pick<EgressPolicy, "check">;

/** Marks the proxy's own refusals, so that a refused document is told apart from a server's 403. */
export const BLOCKED_HEADER = "x-switchboard-blocked";

export interface ProxyPolicy {
  /** Whether the tool's allowlist admits this URL (ws/wss URLs are judged as their http/https twin). */
  allowsUrl(url: URL): boolean;
  /** Whether the allowlist names this host and port at all (a CONNECT tunnel shows nothing more). */
  allowsOrigin(host: string, port: number): boolean;
  egress: EgressCheck;
  /** Bytes received from all servers together during the call. */
  maxBytes: number;
  onBlocked(url: string, reason: string): void;
}

const REFUSE_ALL: ProxyPolicy = {
  allowsUrl: () => false,
  allowsOrigin: () => false,
  egress: { check: async () => ({ allowed: false, reason: "no call holds this context" }) },
  maxBytes: 0,
  onBlocked: () => {},
};

export class CallProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Duplex>();
  private received = 0;
  /** Until a call binds its policy (a context prepared ahead of its call), everything is refused. */
  private policy: ProxyPolicy = REFUSE_ALL;

  private constructor(server: Server) {
    this.server = server;
  }

  static async start(): Promise<CallProxy> {
    const server = createServer();
    const proxy = new CallProxy(server);
    server.on("request", (req, res) => void proxy.forward(req, res));
    server.on("connect", (req, socket: Duplex, head) => void proxy.tunnel(req, socket, head));
    server.on("upgrade", (req, socket: Duplex, head) => void proxy.upgrade(req, socket, head));
    server.on("connection", (socket: Socket) => proxy.track(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return proxy;
  }

  /** Binds the call's policy; once, when a call takes the context this proxy serves. */
  bind(policy: ProxyPolicy): void {
    if (this.policy !== REFUSE_ALL) throw new Error("the call proxy is already bound to a call");
    this.policy = policy;
  }

  get url(): string {
    const address = this.server.address();
    if (address === null || typeof address === "string") throw new Error("the call proxy is not listening");
    return `http://127.0.0.1:${address.port}`;
  }

  close(): void {
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
  }

  private count(bytes: number): boolean {
    this.received += bytes;
    return this.received <= this.policy.maxBytes;
  }

  /** The dialable address for a URL the tool may reach, or undefined after reporting why not. */
  private async admit(url: URL, report: string): Promise<string | undefined> {
    const probe = new URL(url.href.replace(/^ws(s?):/, "http$1:"));
    if (!this.policy.allowsUrl(probe)) {
      this.policy.onBlocked(report, "outside the tool's allowlist");
      return undefined;
    }
    return this.dial(url.hostname, portOf(url), report);
  }

  private async dial(host: string, port: number, report: string): Promise<string | undefined> {
    if (this.received > this.policy.maxBytes) {
      this.policy.onBlocked(report, `the call already received more than ${this.policy.maxBytes} bytes`);
      return undefined;
    }
    const verdict = await this.policy.egress.check(
      `http://${host.includes(":") ? `[${host}]` : host}:${port}/`,
    );
    if (verdict.allowed) return verdict.address;
    this.policy.onBlocked(report, verdict.reason);
    return undefined;
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end();
      return;
    }
    const address = url.protocol === "http:" ? await this.admit(url, url.href) : undefined;
    if (address === undefined) {
      res
        .writeHead(403, { "content-type": "text/plain", [BLOCKED_HEADER]: "1" })
        .end("blocked by Switchboard");
      return;
    }
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const upstream = request(
      { host: address, port: portOf(url), path: `${url.pathname}${url.search}`, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on("data", (chunk: Buffer) => {
          if (!this.count(chunk.length)) {
            this.policy.onBlocked(url.href, `the call received more than ${this.policy.maxBytes} bytes`);
            answer.destroy();
            res.destroy();
          }
        });
        answer.pipe(res);
      },
    );
    upstream.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    // A page closed mid-answer (the call ended) must not leave the server's connection open.
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  }

  private async tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.track(client);
    const [host = "", portText = "443"] = splitHostPort(req.url ?? "");
    const port = Number(portText);
    const report = `${host}:${port} (CONNECT tunnel: HTTPS or WebSocket)`;
    let address: string | undefined;
    if (!this.policy.allowsOrigin(host, port)) this.policy.onBlocked(report, "outside the tool's allowlist");
    else address = await this.dial(host, port, report);
    if (address === undefined) {
      client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    this.pipeTo(address, port, client, head, "HTTP/1.1 200 Connection Established\r\n\r\n", report);
  }

  private async upgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.track(client);
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      client.destroy();
      return;
    }
    const address = await this.admit(url, url.href.replace(/^http/, "ws"));
    if (address === undefined) {
      client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    const lines = [`${req.method} ${url.pathname}${url.search} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      if (!/^proxy-/i.test(req.rawHeaders[i] ?? ""))
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    this.pipeTo(address, portOf(url), client, head, undefined, url.href, `${lines.join("\r\n")}\r\n\r\n`);
  }

  private pipeTo(
    address: string,
    port: number,
    client: Duplex,
    head: Buffer,
    greeting: string | undefined,
    report: string,
    preface?: string,
  ): void {
    const server = connect({ host: address, port });
    this.track(server);
    server.on("connect", () => {
      if (greeting !== undefined) client.write(greeting);
      if (preface !== undefined) server.write(preface);
      if (head.length > 0) server.write(head);
      server.pipe(client);
      client.pipe(server);
    });
    server.on("data", (chunk: Buffer) => {
      if (!this.count(chunk.length)) {
        this.policy.onBlocked(report, `the call received more than ${this.policy.maxBytes} bytes`);
        server.destroy();
        client.destroy();
      }
    });
    server.on("error", () => client.destroy());
    client.on("error", () => server.destroy());
    client.on("close", () => server.destroy());
  }
}

function portOf(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" || url.protocol === "wss:" ? 443 : 80;
}

function splitHostPort(authority: string): [string, string] {
  const bracket = /^\[([^\]]+)\]:(\d+)$/.exec(authority);
  if (bracket) return [bracket[1] ?? "", bracket[2] ?? ""];
  const colon = authority.lastIndexOf(":");
  return colon < 0 ? [authority, "443"] : [authority.slice(0, colon), authority.slice(colon + 1)];
}
