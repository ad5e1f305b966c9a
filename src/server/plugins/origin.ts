// The Host and Origin checks (origin.ts) on every request, before any key is looked at.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { checkOrigin } from "../origin.ts";

export interface OriginOptions {
  /** No keys configured: every request must then name a loopback host and origin. */
  keyless: boolean;
}

async function originCheck(server: FastifyInstance, { keyless }: OriginOptions): Promise<void> {
  server.addHook("onRequest", async (request) => {
    checkOrigin({
      keyless,
      mcp: request.routeOptions.url === "/mcp",
      host: request.headers.host,
      origin: request.headers.origin,
    });
  });
}

// fastify-plugin: a DNS-rebinding page must be refused on every path, unknown ones and public ones included.
export const originPlugin = fp(originCheck, { name: "switchboard-origin", fastify: "5.x" });
