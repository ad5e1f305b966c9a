// What changes when several replicas share one PostgreSQL and one Redis (docs/deploy.md), kept here so the
// composition root only asks: which store, which index embedder, follow the catalog, share the breakers,
// run writes once. Without the two URLs every part is the single-process default.
import { Gauge } from "prom-client";
import { OVERLAY_KEY, type ToolRegistry } from "../catalog/index.ts";
import type { Logger } from "../config/index.ts";
import type { CallResult, Dispatcher } from "../dispatch/index.ts";
import { openSharedState, type SharedState, type StoreHealth, shareBreakers } from "../hot-state/index.ts";
import type { Router, RouterEmbedder } from "../router/index.ts";
import { type SessionStore, SessionStoreUnavailableError } from "../session/index.ts";
import {
  type DataStore,
  FileStore,
  PgStore,
  StoreUnavailableError,
  sharedEmbeddings,
} from "../store/index.ts";
import type { SwitchboardConfig } from "./config.ts";
import type { Metrics } from "./metrics.ts";
import type { ToolCall } from "./requests.ts";
import { AppError } from "./types.ts";

export interface StoresHealth {
  postgres: StoreHealth;
  redis: StoreHealth;
  /** Breakers held open here because another replica's calls opened them. */
  heldBreakers: string[];
}

export interface ScaleOut {
  readonly store: DataStore;
  /** Where session contexts live across replicas (Redis); undefined keeps them in this process. */
  readonly sessions: SessionStore | undefined;
  indexEmbedder(embedder: RouterEmbedder): RouterEmbedder;
  /** Embeds and stores texts for the other replicas before a change announces them (best effort). */
  embedAhead(texts: string[]): Promise<void>;
  /** Re-reads the catalog overlay whenever another replica changes it (and after a database outage). */
  followCatalog(registry: ToolRegistry, logger: Logger): void;
  /**
   * Takes learned queries and calibrations into `router` whenever another process stores new ones: another
   * replica, or `switchboard calibrate` / `feedback` run beside a service on the same data folder.
   */
  followIndex(router: Router, logger: Logger): void;
  shareDispatcher(dispatcher: Dispatcher, metrics: Metrics): void;
  /** Runs `calls`, each write call at most once across replicas (by call id). */
  executeOnce(
    calls: ToolCall[],
    isWrite: (call: ToolCall) => boolean,
    run: (calls: ToolCall[]) => Promise<CallResult[]>,
    signal?: AbortSignal,
  ): Promise<CallResult[]>;
  health(): StoresHealth;
  close(): Promise<void>;
}

/** A shared store that is away becomes the caller's 503 with its own code; anything else is unchanged. */
export function storeProblem(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return new AppError("store_unavailable", error.message);
  if (error instanceof SessionStoreUnavailableError)
    return new AppError(
      "session_unavailable",
      `${error.message}; calls without a sessionId still run, and a session's calls work again when Redis is back`,
    );
  return error;
}

export async function openScaleOut(config: SwitchboardConfig): Promise<ScaleOut> {
  const pg = config.database
    ? await PgStore.open({ url: config.database, root: config.data }).catch((error: Error) => {
        // The URL is not repeated: it may carry a password.
        throw new Error(`cannot open the database of SWITCHBOARD_DATABASE_URL: ${error.message}`);
      })
    : undefined;
  let shared: SharedState<CallResult>;
  try {
    shared = await openSharedState<CallResult>(config.redis ? { redisUrl: config.redis } : {});
  } catch (error) {
    await pg?.close();
    throw error;
  }
  const store = pg ?? new FileStore(config.data);
  let held: () => string[] = () => [];
  let ahead: RouterEmbedder | undefined;
  const health = (): StoresHealth => ({
    postgres: pg ? (pg.available ? "up" : "down") : "off",
    redis: shared.redis(),
    heldBreakers: held(),
  });

  return {
    store,
    sessions: shared.sessions,
    indexEmbedder(embedder) {
      if (!pg) return embedder;
      ahead = sharedEmbeddings(embedder, pg.pool);
      return ahead;
    },
    async embedAhead(texts) {
      await ahead?.embed(texts).catch(() => undefined);
    },

    followCatalog(registry, logger) {
      if (!pg) return;
      const reload = coalesced(() =>
        registry.reload().catch((error: Error) => logger.warn({ err: error }, "catalog reload failed")),
      );
      pg.subscribe(OVERLAY_KEY, reload);
    },

    followIndex(router, logger) {
      const keys = router.storedKeys;
      const relearn = coalesced(async () => {
        const tools = await router
          .reloadLearned()
          .catch((error: Error) => logger.warn({ err: error }, "learned queries reload failed"));
        if (tools) logger.info({ tools }, "learned queries recorded elsewhere taken in");
      });
      const recalibrate = coalesced(async () => {
        const taken = await router
          .reloadCalibration()
          .catch((error: Error) => logger.warn({ err: error }, "calibration reload failed"));
        if (taken) logger.info({ calibration: router.currentCalibration.source }, "new calibration in use");
      });
      store.subscribe(keys.learned, relearn);
      store.subscribe(keys.calibration, recalibrate);
      // Whatever changed between the router reading them and the subscriptions above.
      relearn();
      recalibrate();
    },

    shareDispatcher(dispatcher, metrics) {
      held = shareBreakers(dispatcher, shared.breakers, shared.breakerHoldMs);
      shared.shareAnswers((outgoing) => dispatcher.shareCache(outgoing));
      const log = pg ? executionArchive(pg) : undefined;
      if (log) dispatcher.on("call", log);
      new Gauge({
        name: "switchboard_shared_store_up",
        help: "1 when a configured shared store (postgres, redis) is reachable, 0 while this replica runs on its local fallback",
        labelNames: ["store"] as const,
        registers: [metrics.registry],
        collect() {
          const now = health();
          for (const store of ["postgres", "redis"] as const)
            if (now[store] !== "off") this.set({ store }, now[store] === "up" ? 1 : 0);
        },
      });
    },

    executeOnce: (calls, isWrite, run, signal) =>
      config.redis && calls.some(isWrite)
        ? runWritesOnce(shared.idempotency, calls, isWrite, run, signal)
        : run(calls),

    health,
    async close() {
      await shared.close();
      await store.close();
    },
  };
}

/** Runs `calls`, each write at most once across the replicas sharing `idempotency` (claimed by call id). */
async function runWritesOnce(
  idempotency: SharedState<CallResult>["idempotency"],
  calls: ToolCall[],
  isWrite: (call: ToolCall) => boolean,
  run: (calls: ToolCall[]) => Promise<CallResult[]>,
  signal?: AbortSignal,
): Promise<CallResult[]> {
  const results: (CallResult | undefined)[] = new Array(calls.length);
  const claims = await Promise.all(
    calls.map((call) => (isWrite(call) ? idempotency.claim(call.id, signal) : { kind: "run" as const })),
  );
  const mine = calls.filter((_, i) => claims[i]?.kind === "run");
  let ran: CallResult[];
  try {
    ran = await run(mine);
  } catch (error) {
    await Promise.all(mine.filter(isWrite).map((call) => idempotency.abandon(call.id)));
    throw error;
  }
  let next = 0;
  calls.forEach((call, i) => {
    const claim = claims[i];
    if (claim?.kind === "done") results[i] = claim.result;
    else {
      const result = ran[next++] as CallResult;
      results[i] = result;
      // Only a completed call is remembered: a failed one may retry, as it may on a single replica.
      if (!isWrite(call)) return;
      if (result.status === "completed") void idempotency.finish(call.id, result);
      else void idempotency.abandon(call.id);
    }
  });
  return results as CallResult[];
}

/** Runs `work` on each call, but never twice at once: calls meanwhile fold into one more run after it. */
function coalesced(work: () => Promise<unknown>): () => void {
  let running = false;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void (async () => {
      do {
        again = false;
        await work();
      } while (again);
      running = false;
    })();
  };
}

/** Finished calls appended to the shared execution log in small batches; dropped while the database is away. */
function executionArchive(pg: PgStore): (result: CallResult) => void {
  let pending: CallResult[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    pg.pool
      .query(
        `insert into switchboard_executions (call_id, tool, status, record)
         select * from unnest($1::text[], $2::text[], $3::text[], $4::jsonb[])`,
        [
          batch.map((r) => r.id),
          batch.map((r) => r.name),
          batch.map((r) => r.status),
          batch.map((r) => JSON.stringify(r)),
        ],
      )
      .catch(() => undefined);
  };
  return (result) => {
    if (pending.length >= 10_000) return;
    pending.push(result);
    if (scheduled) return;
    scheduled = true;
    setTimeout(flush, 200).unref();
  };
}
