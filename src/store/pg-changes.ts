// Which keys other replicas changed, from two sources: LISTEN for speed, and the change log
// (switchboard_changes, migration 2) polled every POLL_MS so that nothing depends on the listener alone.
// A connected listener is not proof of hearing: behind a transaction-pooling PgBouncer LISTEN succeeds
// and nothing ever arrives, and a half-open connection looks connected until keepalive notices. A poll
// is one primary-key range scan that usually returns nothing, so it runs always rather than behind a
// guess about the listener's health; it also catches up right after every reconnection.
import type pg from "pg";
import { ChangeListener } from "./pg-listener.ts";

/** Polling cadence: with the apply time it keeps a change visible everywhere within 1 s without LISTEN. */
const POLL_MS = 500;
/** Changes read per poll; a replica further behind reads on at once. */
const PAGE = 1000;
/** Log rows older than this are pruned (the newest row always stays, see #catchUp). */
const KEEP = "1 hour";
const PRUNE_MS = 10 * 60_000;

export interface ChangeFeedOptions {
  url: string;
  pool: pg.Pool;
  /** A key some replica changed (possibly twice: re-reading is idempotent). */
  onChange: (key: string) => void;
  /** The log no longer reaches back to the last change applied here: re-read everything followed. */
  onResync: () => void;
}

export class ChangeFeed {
  readonly #options: ChangeFeedOptions;
  readonly #listener: ChangeListener;
  /** The poll's cursor: every change up to this id has been announced to subscribers. */
  #applied = 0;
  /**
   * Changes above the cursor already announced by the listener, so the poll does not announce them again.
   * The cursor itself moves only by polling: after a reconnection the listener may hear a change before the
   * poll has read the ones missed while it was away.
   */
  readonly #heard = new Set<number>();
  #polling: Promise<void> | undefined;
  #again = false;
  #pollOk = false;
  #timers: NodeJS.Timeout[] = [];
  #closed = false;

  constructor(options: ChangeFeedOptions) {
    this.#options = options;
    this.#listener = new ChangeListener(
      options.url,
      (payload) => this.#announced(payload),
      () => void this.poll(),
    );
  }

  /** Listens, then notes the newest change: whatever the caller reads next is at least that recent. */
  async start(): Promise<void> {
    await this.#listener.start();
    const { rows } = await this.#options.pool.query<{ id: string | null }>(
      "select max(id) as id from switchboard_changes",
    );
    this.#applied = Number(rows[0]?.id ?? 0);
    this.#pollOk = true;
    this.#timers = [
      setInterval(() => void this.poll(), POLL_MS).unref(),
      setInterval(() => void this.#prune(), PRUNE_MS).unref(),
    ];
  }

  /** Whether the database answers: the listener is connected or the last poll succeeded. */
  get available(): boolean {
    return this.#listener.connected || this.#pollOk;
  }

  #announced(payload: string): void {
    const space = payload.indexOf(" ");
    const id = Number(payload.slice(0, space));
    if (space < 0 || !Number.isSafeInteger(id)) return;
    if (id <= this.#applied || this.#heard.has(id)) return;
    this.#heard.add(id);
    this.#options.onChange(payload.slice(space + 1));
  }

  /** Applies the changes logged after the last one applied here; concurrent calls fold into one more run. */
  poll(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#polling) {
      this.#again = true;
      return this.#polling;
    }
    this.#polling = (async () => {
      do {
        this.#again = false;
        try {
          this.#again = (await this.#catchUp()) || this.#again;
          this.#pollOk = true;
        } catch {
          // The database is away; the next tick or the listener's reconnection tries again.
          this.#pollOk = false;
        }
      } while (this.#again);
    })().finally(() => {
      this.#polling = undefined;
    });
    return this.#polling;
  }

  /** One page of missed changes; true when there may be more. */
  async #catchUp(): Promise<boolean> {
    const from = this.#applied;
    const { rows } = await this.#options.pool.query<{ id: string; key: string; oldest: string }>(
      `select id, key, (select min(id) from switchboard_changes) as oldest
       from switchboard_changes where id > $1 order by id limit ${PAGE}`,
      [from],
    );
    const first = rows[0];
    if (!first) {
      this.#heard.clear();
      return false;
    }
    const last = Number((rows.at(-1) as { id: string }).id);
    // Pruning keeps the newest row, so a log starting past the next id means this replica was away
    // longer than the log is kept (or ids were skipped by rolled-back writes, where a re-read costs little).
    if (Number(first.oldest) > from + 1) this.#options.onResync();
    else {
      const missed = rows.filter((row) => !this.#heard.has(Number(row.id)));
      for (const key of new Set(missed.map((row) => row.key))) this.#options.onChange(key);
    }
    this.#applied = last;
    for (const id of this.#heard) if (id <= last) this.#heard.delete(id);
    return rows.length === PAGE;
  }

  async #prune(): Promise<void> {
    await this.#options.pool
      .query(
        `delete from switchboard_changes
         where at < now() - interval '${KEEP}' and id < (select max(id) from switchboard_changes)`,
      )
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    await this.#listener.close();
    await this.#polling;
  }
}
