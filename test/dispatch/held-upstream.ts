// A stand-in provider built for the caller-share tests: a loopback HTTP server, not a real service. It
// records every request's `who` in arrival order, so a test can assert the order in which the dispatcher
// let calls out, without timing anything:
//   GET /held?who=  is held until the test releases it (then answers { who }),
//   GET /fast?who=  answers { who } at once,
//   GET /fail?who=  answers 503 at once.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface HeldUpstream {
  url: string;
  /** `who` of every request, in arrival order. */
  arrivals: string[];
  /** Requests from `who` so far. */
  count(who: string): number;
  /** Requests held and not yet released. */
  held(): number;
  /** Answers the `n` oldest held requests. */
  release(n?: number): void;
  /** Resolves once `total` requests have arrived. */
  arrived(total: number): Promise<void>;
  close(): Promise<void>;
}

export async function startHeldUpstream(): Promise<HeldUpstream> {
  const arrivals: string[] = [];
  const held: { who: string; response: ServerResponse }[] = [];
  const waiters: { total: number; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();
  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const who = url.searchParams.get("who") ?? "";
    arrivals.push(who);
    for (const waiter of [...waiters])
      if (arrivals.length >= waiter.total) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    if (url.pathname === "/held") held.push({ who, response });
    else if (url.pathname === "/fast") answer(response, 200, { who });
    else if (url.pathname === "/fail") answer(response, 503, { error: "unavailable" });
    else answer(response, 404, { error: "no such stand-in path" });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    count: (who) => arrivals.filter((w) => w === who).length,
    held: () => held.length,
    release(n = held.length) {
      for (const { who, response } of held.splice(0, n)) answer(response, 200, { who });
    },
    arrived: (total) =>
      arrivals.length >= total
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ total, resolve })),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
