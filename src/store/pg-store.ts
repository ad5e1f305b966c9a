// The DataStore in PostgreSQL, for several replicas sharing one catalog overlay, feedback, calibrations and
// breaker memory: one row per key, read-modify-write under a transaction-scoped advisory lock per key, and
// a trigger that logs and announces every committed change (pg-changes.ts) so replicas re-read what they hold.
// The router's graph file and its manifest stay on local disk: they describe this replica's in-memory
// index, a cache rebuilt from the stored tools and the shared embeddings (pg-embeddings.ts).
import { createRequire } from "node:module";
import type pg from "pg";
import type { z } from "zod";
import { ChangeFeed } from "./pg-changes.ts";
import { migrate } from "./pg-migrations.ts";
import { type DataStore, FileStore, jsonBytes, parseStored, StoreUnavailableError } from "./store.ts";

// pg is loaded by the first connection: a process without SWITCHBOARD_DATABASE_URL never needs it.
const require = createRequire(import.meta.url);
const loadPg = () => require("pg") as typeof pg;

/** Native files of the router's index (written through writeVia, read through pathOf). */
const LOCAL_FILES = new Set(["dense.hnsw", "manifest.json"]);
const isLocal = (key: string) => LOCAL_FILES.has(key.slice(key.lastIndexOf("/") + 1));

/**
 * SQLSTATE classes of a database that is away (08 connection exception, 57P shutdown/restart); errors
 * without one come from the socket. Anything else (a bad statement) is a bug and surfaces as it is.
 */
function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return true;
  return code.startsWith("08") || code.startsWith("57P") || /^E[A-Z]+$/.test(code);
}

/** Carries what `change` threw past the database error handling, unchanged. */
class ChangeRefused extends Error {
  constructor(cause: unknown) {
    super("refused by the change", { cause });
  }
}

export interface PgStoreOptions {
  url: string;
  /** Local folder for the index files. */
  root: string;
}

export class PgStore implements DataStore {
  readonly root: string;
  readonly pool: pg.Pool;
  readonly #local: FileStore;
  readonly #changes: ChangeFeed;
  readonly #subscribers = new Map<string, Set<() => void>>();

  private constructor(options: PgStoreOptions) {
    this.root = options.root;
    this.#local = new FileStore(options.root);
    this.pool = new (loadPg().Pool)({
      connectionString: options.url,
      max: 10,
      // A write while the database is away fails within seconds (503), not after the OS's TCP timeout.
      connectionTimeoutMillis: 2000,
      query_timeout: 10_000,
      keepAlive: true,
      application_name: "switchboard",
    });
    // An idle connection dropped by a restart must not crash the process; the next query reconnects.
    this.pool.on("error", () => undefined);
    this.#changes = new ChangeFeed({
      url: options.url,
      pool: this.pool,
      onChange: (key) => this.#notify(key),
      onResync: () => {
        for (const key of this.#subscribers.keys()) this.#notify(key);
      },
    });
  }

  /** Connects, applies pending migrations and starts following other replicas' changes. */
  static async open(options: PgStoreOptions): Promise<PgStore> {
    const store = new PgStore(options);
    try {
      await migrate(store.pool);
      await store.#changes.start();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** Whether the database answers the change feed: false while it is away. */
  get available(): boolean {
    return this.#changes.available;
  }

  /**
   * Calls `onChange` after any replica (this one included) committed a change of `key`, within POLL_MS
   * even without LISTEN; a change missed beyond the change log's reach re-announces every key.
   */
  subscribe(key: string, onChange: () => void): void {
    let set = this.#subscribers.get(key);
    if (!set) {
      set = new Set();
      this.#subscribers.set(key, set);
    }
    set.add(onChange);
  }

  #notify(key: string): void {
    for (const onChange of this.#subscribers.get(key) ?? []) onChange();
  }

  async #query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(text, values);
    } catch (error) {
      throw isUnavailable(error) ? new StoreUnavailableError(error) : error;
    }
  }

  pathOf(key: string): string {
    return this.#local.pathOf(key);
  }

  async readBytes(key: string): Promise<Uint8Array | undefined> {
    if (isLocal(key)) return this.#local.readBytes(key);
    const { rows } = await this.#query<{ value: Buffer }>(
      "select value from switchboard_data where key = $1",
      [key],
    );
    return rows[0]?.value;
  }

  async writeBytes(key: string, data: string | Uint8Array): Promise<void> {
    if (isLocal(key)) return this.#local.writeBytes(key, data);
    await this.#query(
      `insert into switchboard_data (key, value) values ($1, $2)
       on conflict (key) do update set value = excluded.value, updated_at = now()`,
      [key, Buffer.from(data)],
    );
  }

  async readJson<T>(key: string, schema: z.ZodType<T>): Promise<T | undefined> {
    const bytes = await this.readBytes(key);
    return bytes === undefined ? undefined : parseStored(key, bytes, schema);
  }

  writeJson(key: string, value: unknown): Promise<void> {
    return this.writeBytes(key, jsonBytes(value));
  }

  async updateJson<T>(key: string, schema: z.ZodType<T>, change: (current: T | undefined) => T): Promise<T> {
    if (isLocal(key)) return this.#local.updateJson(key, schema, change);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw new StoreUnavailableError(error);
    }
    let broken: unknown;
    try {
      await client.query("begin");
      // A lock per key even when the row does not exist yet, which `select … for update` cannot give.
      await client.query("select pg_advisory_xact_lock(hashtextextended($1, 0))", [key]);
      const { rows } = await client.query<{ value: Buffer }>(
        "select value from switchboard_data where key = $1",
        [key],
      );
      let next: T;
      try {
        next = change(rows[0] ? parseStored(key, rows[0].value, schema) : undefined);
      } catch (error) {
        throw new ChangeRefused(error);
      }
      await client.query(
        `insert into switchboard_data (key, value) values ($1, $2)
         on conflict (key) do update set value = excluded.value, updated_at = now()`,
        [key, Buffer.from(jsonBytes(next))],
      );
      await client.query("commit");
      return next;
    } catch (error) {
      await client.query("rollback").catch(() => undefined);
      if (error instanceof ChangeRefused) throw error.cause;
      broken = error;
      throw isUnavailable(error) ? new StoreUnavailableError(error) : error;
    } finally {
      // A connection that failed mid-transaction is discarded rather than handed to the next caller.
      client.release(broken !== undefined && isUnavailable(broken) ? (broken as Error) : undefined);
    }
  }

  writeVia(key: string, produce: (temporaryPath: string) => Promise<void> | void): Promise<void> {
    return this.#local.writeVia(key, produce);
  }

  async delete(key: string): Promise<void> {
    if (isLocal(key)) return this.#local.delete(key);
    await this.#query("delete from switchboard_data where key = $1 or starts_with(key, $1 || '/')", [key]);
  }

  async list(prefix: string): Promise<string[]> {
    const { rows } = await this.#query<{ key: string }>(
      "select key from switchboard_data where starts_with(key, $1 || '/') order by key",
      [prefix],
    );
    const local = await this.#local.list(prefix);
    return [...new Set([...rows.map((r) => r.key), ...local])].sort();
  }

  async close(): Promise<void> {
    await this.#changes.close();
    await this.pool.end().catch(() => undefined);
  }
}
