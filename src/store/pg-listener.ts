// LISTEN on the store's change channel with a dedicated connection that comes back by itself: while the
// database is away the replica keeps serving from memory. Notifications are not queued for absent
// listeners, so after reconnecting the caller asks the change log for what it missed (pg-changes.ts).
import { createRequire } from "node:module";
import type pg from "pg";
import { CHANGES_CHANNEL } from "./pg-migrations.ts";

// pg is loaded by the first connection: a process without SWITCHBOARD_DATABASE_URL never needs it.
const require = createRequire(import.meta.url);
const loadPg = () => require("pg") as typeof pg;

/** The listener's session name in pg_stat_activity, with the process id: an operator can tell whose it is. */
export const listenerName = (pid: number) => `switchboard-listener ${pid}`;

const RETRY_MS = [100, 250, 500, 1000, 2000];

export class ChangeListener {
  readonly #url: string;
  readonly #onChange: (payload: string) => void;
  readonly #onConnected: () => void;
  #client: pg.Client | undefined;
  #attempt = 0;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  connected = false;

  constructor(url: string, onChange: (payload: string) => void, onConnected: () => void) {
    this.#url = url;
    this.#onChange = onChange;
    this.#onConnected = onConnected;
  }

  /** Resolves once listening; a failure here is the caller's (the database must be up at start). */
  async start(): Promise<void> {
    await this.#connect();
  }

  async #connect(): Promise<void> {
    const client = new (loadPg().Client)({
      connectionString: this.#url,
      connectionTimeoutMillis: 2000,
      keepAlive: true,
      application_name: listenerName(process.pid),
    });
    client.on("error", () => this.#lost(client));
    client.on("end", () => this.#lost(client));
    client.on("notification", (message) => {
      if (message.payload) this.#onChange(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANGES_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#closed) {
      // Closed while connecting: an open connection here would keep the process from exiting.
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#attempt = 0;
    this.connected = true;
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.connected = false;
    client.end().catch(() => undefined);
    this.#retry();
  }

  #retry(): void {
    if (this.#closed) return;
    const delay = RETRY_MS[Math.min(this.#attempt++, RETRY_MS.length - 1)];
    this.#timer = setTimeout(() => {
      this.#connect().then(
        () => {
          if (!this.#closed) this.#onConnected();
        },
        () => this.#retry(),
      );
    }, delay);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    this.connected = false;
    await client?.end().catch(() => undefined);
  }
}
