// Replicas of the real `switchboard serve` sharing a real PostgreSQL and Redis, started on loopback by the
// project's own services script (scripts/services.ts) in a temporary folder.
import { rm } from "node:fs/promises";
import { down, missingBinaries, type Services, up } from "../../scripts/services.ts";
import { type Answer, call, type Service, startService, tempDir } from "../server/harness.ts";

/**
 * Skip (with the install command) when PostgreSQL or Redis is not installed here, except under CI, where
 * .ci/run installs them and these tests must run.
 */
export function skipWithoutServices(): string | false {
  const missing = missingBinaries();
  return missing && process.env.CI !== "true" ? `skipped: ${missing}` : false;
}

export interface Cluster {
  folder: string;
  urls: Services;
  replicas: Service[];
  start(env?: Record<string, string>): Promise<Service>;
  stop(): Promise<void>;
}

export async function startCluster(
  catalog: string,
  env: Record<string, string>,
  count: number,
): Promise<Cluster> {
  const folder = await tempDir("services");
  const urls = await up(folder);
  const shared = {
    ...env,
    SWITCHBOARD_DATABASE_URL: urls.databaseUrl,
    SWITCHBOARD_REDIS_URL: urls.redisUrl,
    SWITCHBOARD_LOG_LEVEL: "warn",
  };
  const cluster: Cluster = {
    folder,
    urls,
    replicas: [],
    async start(more = {}) {
      const replica = await startService({ catalog, env: { ...shared, ...more } });
      cluster.replicas.push(replica);
      return replica;
    },
    async stop() {
      await Promise.all(cluster.replicas.map((replica) => replica.stop()));
      await down(folder);
      await Promise.all(
        [folder, ...cluster.replicas.map((replica) => replica.data)].map((path) =>
          rm(path, { recursive: true, force: true }),
        ),
      );
    },
  };
  try {
    // The first replica migrates and embeds the catalog; the others then find the vectors stored.
    await cluster.start();
    await Promise.all(Array.from({ length: count - 1 }, () => cluster.start()));
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

/** Asks `probe` every 25 ms until it returns true; the milliseconds it took, or throws after `withinMs`. */
export async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  withinMs: number,
): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await probe()) return Math.round(performance.now() - started);
    if (performance.now() - started > withinMs) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A read-only sandboxed tool that routes by its description and answers { ok: true }. */
export const sandboxTool = (name: string, description: string) => ({
  name,
  description,
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  annotations: { readOnlyHint: true },
  binding: { type: "sandbox", code: `async function ${name}(args) { return { ok: true }; }` },
});

/** The one tool `service` routes `query` to for the caller with `key`, if any. */
export const topTool = async (service: Service, key: string, query: string): Promise<string | undefined> =>
  (await call(service, "POST", "/v1/route", { key, body: { query, topK: 1 } })).body.tools?.[0]?.name;

export const readyz = async (service: Service): Promise<Answer> => call(service, "GET", "/readyz");

export { type Answer, call, type Service, tempDir };
