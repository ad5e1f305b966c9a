// Requests per minute per key with @fastify/rate-limit, counted in Redis when replicas share one. Counted
// after authentication (onRequest) and before the body is read, so a limited key costs no parsing.
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { LRUCache } from "lru-cache";
import { connectRedis, startRedis } from "../../app/index.ts";
import { HttpError } from "../problems.ts";
import { accessOf } from "./authentication.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** A read-only route's onRequest hook: its key is counted while its work runs (see below). */
    limitAlongside: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  }
  interface FastifyRequest {
    /** A read-only route's rate-limit verdict, checked alongside its work (see limitAlongside). */
    limitVerdict?: Promise<unknown>;
  }
}

export interface RateLimitOptions {
  /** Requests per minute per API key. */
  max: number;
  /** Counts requests in this Redis so the limit holds across replicas (SWITCHBOARD_REDIS_URL). */
  redisUrl?: string | undefined;
}

async function rateLimiting(server: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const redis = options.redisUrl ? connectRedis(options.redisUrl) : undefined;
  if (redis) {
    await startRedis(redis);
    server.addHook("onClose", async () => redis.disconnect());
  }
  const limitKey = (request: FastifyRequest) => request.caller?.id ?? request.ip;
  // Keys refused until their window ends (Redis's TTL); their read-only requests wait for the verdict.
  const refusedKeys = new LRUCache<string, true>({ max: 10_000 });
  await server.register(rateLimit, {
    max: options.max,
    // While Redis is away requests pass unlimited rather than fail: availability over the limit.
    ...(redis ? { redis, skipOnError: true, nameSpace: "switchboard:rate:" } : {}),
    timeWindow: 60_000,
    hook: "preParsing",
    keyGenerator: limitKey,
    allowList: (request) => accessOf(request) === "public",
    errorResponseBuilder: (request, context) => {
      refusedKeys.set(limitKey(request), true, { ttl: Math.max(1, context.ttl) });
      return new HttpError(
        429,
        "rate_limited",
        `rate limit of ${context.max} requests per minute exceeded for this key; retry in ${context.after}`,
      );
    },
  });
  /**
   * The same limit, counters and answers as every other route's, for read-only routes, whose work runs
   * while their key is counted: with Redis the count is a round trip to another process, which on a busy
   * machine waits for a CPU as long as a route takes (docs/performance.md). A request refused at the end
   * has changed nothing; a key already refused waits for the verdict first, so a flood costs no work.
   */
  const countRequest = server.rateLimit();
  server.decorate("limitAlongside", async (request: FastifyRequest, reply: FastifyReply) => {
    const verdict = countRequest.call(server, request, reply);
    if (refusedKeys.has(limitKey(request))) return verdict;
    // Awaited by the handler; a request that fails before it (a bad body) is answered as it was.
    verdict.catch(() => undefined);
    request.limitVerdict = verdict;
  });
}

// fastify-plugin: like @fastify/rate-limit itself, the limit reaches the scope that registers this plugin
// (the keyed routes), and so does the `limitAlongside` decorator their read-only routes use.
export const rateLimitPlugin = fp(rateLimiting, { name: "switchboard-rate-limit", fastify: "5.x" });
