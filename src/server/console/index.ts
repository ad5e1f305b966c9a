// The maintainer console at /console: a page and its assets, nothing else. Every action it offers is a
// call of the public HTTP API with the key the maintainer pasted (or none, keyless on loopback), so it has
// no powers of its own. Registered as an encapsulated plugin: its headers apply to its routes only.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type Asset, BUILT_CONSOLE, loadAssets } from "./assets.ts";

export { BUILT_CONSOLE, loadAssets } from "./assets.ts";

export const CONSOLE_PATH = "/console";

/**
 * Only the console's own files and the same origin's API: no inline script, no other origin, no framing.
 * Styles set from script (uPlot, preact's style props) go through the CSSOM, which style-src allows.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export interface ConsoleOptions {
  /** The built files' folder (default console/built beside src/). */
  folder?: string;
}

export async function consolePlugin(server: FastifyInstance, options: ConsoleOptions = {}): Promise<void> {
  const assets = await loadAssets(options.folder ?? BUILT_CONSOLE);

  server.addHook("onSend", async (_request, reply) => {
    reply.header("content-security-policy", CONTENT_SECURITY_POLICY);
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "no-referrer");
    reply.header("cross-origin-opener-policy", "same-origin");
  });

  const send = (request: FastifyRequest, reply: FastifyReply, name: string, immutable: boolean) => {
    const asset: Asset | undefined = assets?.get(name);
    if (!asset)
      return reply.status(404).send({
        error: { code: "not_found", message: `no console file ${name}` },
      });
    // Hashed names never change content; the page itself is checked on every load, so a rebuild shows.
    reply.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    reply.header("etag", asset.etag);
    reply.header("vary", "accept-encoding");
    if (request.headers["if-none-match"] === asset.etag) return reply.status(304).send();
    reply.type(asset.type);
    if (/\bgzip\b/.test(request.headers["accept-encoding"] ?? ""))
      return reply.header("content-encoding", "gzip").send(asset.gzipped);
    return reply.send(asset.body);
  };

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!assets)
      return reply.status(503).send({
        error: {
          code: "console_not_built",
          message: "the console's files are missing from console/built: run `npm run build:console`",
        },
      });
    return send(request, reply, "index.html", false);
  };
  server.get(CONSOLE_PATH, page);
  server.get(`${CONSOLE_PATH}/`, page);
  server.get<{ Params: { name: string } }>(`${CONSOLE_PATH}/assets/:name`, async (request, reply) =>
    send(request, reply, request.params.name === "index.html" ? "" : request.params.name, true),
  );
}
