// A stand-in for a flaky provider: a loopback HTTP server built for the dispatcher's soak, not a real
// service. Each request fails with probability `failRate` (set at any time, 1 for an outage), as a 503
// without Retry-After, a connection reset, or a hang the binding's timeout ends, picked by a seeded random
// source so runs repeat. GET /read?i= answers { i }. POST /write/{id} runs the write (counts it per id)
// either before or after the fault it draws, so a failed write may or may not have run, as with a real
// provider; `writes` says how often each id really ran.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { seeded } from "./harness.ts";

export type UpstreamFault = "503" | "reset" | "hang";

export interface FlakyUpstream {
  url: string;
  failRate: number;
  faults: UpstreamFault[];
  /** Requests received, all endpoints. */
  requests: number;
  /** How many times each write id really ran. */
  writes: Map<string, number>;
  close(): Promise<void>;
}

export async function startFlakyUpstream(
  options: { seed?: number; faults?: UpstreamFault[] } = {},
): Promise<FlakyUpstream> {
  const random = seeded(options.seed ?? 7);
  const sockets = new Set<Socket>();
  const upstream: FlakyUpstream = {
    url: "",
    failRate: 0,
    faults: options.faults ?? ["503", "reset", "hang"],
    requests: 0,
    writes: new Map(),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const fault = (request: IncomingMessage, response: ServerResponse, kind: UpstreamFault) => {
    if (kind === "503") {
      response.writeHead(503, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: "unavailable" }));
    } else if (kind === "reset") request.socket.destroy();
    // "hang": no answer; the binding's own timeout ends the attempt, and close() the socket.
  };
  const server = createServer((request, response) => {
    upstream.requests++;
    const url = new URL(request.url ?? "/", "http://stand-in");
    const faulty = random() < upstream.failRate;
    const kind = upstream.faults[Math.floor(random() * upstream.faults.length)] ?? "503";
    const write = /^\/write\/([^/]+)$/.exec(url.pathname)?.[1];
    if (request.method === "POST" && write) {
      const id = decodeURIComponent(write);
      const runsFirst = random() < 0.5;
      request.resume();
      request.on("end", () => {
        if (!faulty || runsFirst) upstream.writes.set(id, (upstream.writes.get(id) ?? 0) + 1);
        if (faulty) return fault(request, response, kind);
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ written: id }));
      });
      return;
    }
    if (request.method === "GET" && url.pathname === "/read") {
      if (faulty) return fault(request, response, kind);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ i: Number(url.searchParams.get("i")) }));
      return;
    }
    response.writeHead(404).end();
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}

/** The soak's two tools, at the dispatcher's default policy (no `policy` of their own). */
export function flakyTools(upstream: string): object[] {
  return [
    {
      name: "flaky_read",
      description: "Read record i from the flaky stand-in upstream.",
      annotations: { readOnlyHint: true },
      inputSchema: { type: "object", properties: { i: { type: "integer" } }, required: ["i"] },
      outputSchema: { type: "object", properties: { i: { type: "integer" } }, required: ["i"] },
      binding: { type: "http", method: "GET", url: `${upstream}/read`, query: { i: "{i}" }, timeoutMs: 500 },
    },
    {
      name: "flaky_write",
      description: "Write record id to the flaky stand-in upstream (not idempotent).",
      annotations: { readOnlyHint: false, destructiveHint: true },
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      binding: { type: "http", method: "POST", url: `${upstream}/write/{id}`, timeoutMs: 500 },
    },
  ];
}
