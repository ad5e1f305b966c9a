// Session contexts: what tools of one session have set (a location, a login), read by the next batch of
// the same session and never by another. A batch runs against its session's context (loaded, or empty);
// the dispatcher applies the calls' changes after the batch in call order, and the result is stored again.
// Batches of one session run one after another in this process, so a later batch sees the earlier
// batch's changes. A context that would outgrow its bound keeps its old value and the batch is told why.
import type { SessionStore } from "./store.ts";

export type Context = Record<string, unknown>;

export interface SessionOptions {
  /** Characters of JSON one session's context may hold. */
  maxContextChars: number;
  /** How long a session's context lives after its last change. */
  ttlMs: number;
}

export interface SessionRun<T> {
  value: T;
  /** Set when the batch's changes were not kept. */
  warning?: string;
}

export class SessionContexts {
  readonly #store: SessionStore;
  readonly #options: SessionOptions;
  /** The batch each session is running, so the next waits for it. */
  readonly #running = new Map<string, Promise<unknown>>();

  constructor(store: SessionStore, options: SessionOptions) {
    this.#store = store;
    this.#options = options;
  }

  /** Runs `batch` against the session's context and keeps the changes it makes to it. */
  async run<T>(id: string, batch: (context: Context) => Promise<T>): Promise<SessionRun<T>> {
    const previous = this.#running.get(id) ?? Promise.resolve();
    const turn = previous.catch(() => {}).then(() => this.#runNow(id, batch));
    this.#running.set(id, turn);
    try {
      return await turn;
    } finally {
      if (this.#running.get(id) === turn) this.#running.delete(id);
    }
  }

  async #runNow<T>(id: string, batch: (context: Context) => Promise<T>): Promise<SessionRun<T>> {
    const before = (await this.#store.get(id)) ?? "{}";
    const context = JSON.parse(before) as Context;
    const value = await batch(context);
    const after = JSON.stringify(context);
    if (after === before) return { value };
    if (after.length > this.#options.maxContextChars)
      return {
        value,
        warning: `the session's context changes were not kept: they would make it ${after.length} characters, over the bound of ${this.#options.maxContextChars}`,
      };
    await this.#store.set(id, after, this.#options.ttlMs);
    return { value };
  }
}
