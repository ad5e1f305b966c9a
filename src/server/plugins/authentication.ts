// Bearer keys (auth.ts) for every route whose `config.access` is not public: an address that sent too many
// wrong keys is refused first (throttle.ts), then the key names the caller and the route's access is checked.
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { type Access, AuthError, Authenticator, type Caller, type Keys } from "../auth.ts";
import { HttpError } from "../problems.ts";
import { FailedKeyThrottle } from "../throttle.ts";

declare module "fastify" {
  interface FastifyRequest {
    caller?: Caller;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

/** Who calls without keys: the local operator, who may do anything a maintainer may. */
const LOCAL_OPERATOR: Caller = { role: "maintainer", id: "local" };

/** The caller a route acts for: the key's, or the local operator's when the service runs keyless. */
export const callerOf = (request: FastifyRequest): Caller => request.caller ?? LOCAL_OPERATOR;

/** A route's access; a route that names none is public. */
export const accessOf = (request: FastifyRequest): Access => request.routeOptions.config.access ?? "public";

export interface AuthenticationOptions {
  keys: Keys;
}

async function authentication(server: FastifyInstance, { keys }: AuthenticationOptions): Promise<void> {
  const auth = new Authenticator(keys);
  const throttle = new FailedKeyThrottle();
  server.addHook("onRequest", async (request) => {
    const access = accessOf(request);
    if (access === "public") return;
    if (auth.enabled) {
      const wait = throttle.blockedFor(request.ip);
      if (wait > 0)
        throw new HttpError(
          429,
          "too_many_failed_keys",
          `${throttle.limit} wrong keys from this address within a minute; every key from it is refused for ${Math.ceil(wait / 1000)} s`,
          undefined,
          { "retry-after": String(Math.ceil(wait / 1000)) },
        );
    }
    try {
      request.caller = auth.identify(request.headers.authorization);
    } catch (error) {
      if (error instanceof AuthError && error.failedKey) throttle.fail(request.ip);
      throw error;
    }
    auth.authorize(request.caller, access, `${request.method} ${request.routeOptions.url}`);
  });
}

// fastify-plugin: the hook reaches the scope that registers this plugin (the keyed routes), as with
// @fastify/bearer-auth; it stays out of the scopes beside it.
export const authenticationPlugin = fp(authentication, {
  name: "switchboard-authentication",
  fastify: "5.x",
});
