// Bodies are JSON only: a text/plain body gets 415 rather than a confusing type error. Fastify's own JSON
// parser refuses an empty body even where the endpoint takes none (clients send the header on a bodiless
// DELETE) and drops the parser's position; routes that need a body say so instead (parseJsonBody).
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { parseJsonBody } from "../json-body.ts";

async function jsonBody(server: FastifyInstance): Promise<void> {
  server.removeContentTypeParser("text/plain");
  server.removeContentTypeParser("application/json");
  server.addContentTypeParser("application/json", { parseAs: "string" }, (_request, text, done) => {
    try {
      done(null, parseJsonBody(text as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

// fastify-plugin: the parsers replace the root's, so every scope and the not-found answer read bodies alike.
export const jsonBodyPlugin = fp(jsonBody, { name: "switchboard-json-body", fastify: "5.x" });
