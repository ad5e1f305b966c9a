// Session contexts: what tools of one session have set (a location, a login), read by the next batch of
// the same session and never by another. A batch runs against its session's context (loaded, or empty);
// the dispatcher applies the calls' changes to it after the batch in call order. What the batch changed,
// key by key, is then handed to the store, which applies it to the context as stored at that moment: a
// change another replica made to the same session in the meantime is kept, not overwritten by this
// batch's stale copy. Batches of one session run one after another in this process, so a later batch sees
// the earlier batch's changes. A context that would outgrow its bound keeps its old value and the batch is
// told why; so is a batch whose changes the shared store may have lost because it went away.
import {
  type Context,
  type ContextBounds,
  type ContextChanges,
  type SessionStore,
  SessionStoreUnavailableError,
} from "./store.ts";

export interface SessionRun<T> {
  value: T;
  /** Set when the batch's changes were not kept. */
  warning?: string;
}

export class SessionContexts {
  readonly #store: SessionStore;
  readonly #bounds: ContextBounds;
  /** The batch each session is running, so the next waits for it. */
  readonly #running = new Map<string, Promise<unknown>>();

  constructor(store: SessionStore, bounds: ContextBounds) {
    this.#store = store;
    this.#bounds = bounds;
  }

  /**
   * Runs `batch` against the session's context and keeps the changes it makes to it. Throws
   * SessionStoreUnavailableError, without running the batch, when the context cannot be read.
   */
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
    const context = (await this.#store.get(id)) ?? {};
    const before = new Map(Object.entries(context).map(([key, value]) => [key, JSON.stringify(value)]));
    const value = await batch(context);
    const changes = changesFrom(before, context);
    if (changes.size === 0) return { value };
    let outcome: Awaited<ReturnType<SessionStore["update"]>>;
    try {
      outcome = await this.#store.update(id, changes, this.#bounds);
    } catch (error) {
      // The calls have run (and may have had effects): their results go back, with why nothing was kept.
      if (!(error instanceof SessionStoreUnavailableError)) throw error;
      // (A write that timed out may still land; the caller cannot be told it did not.)
      return { value, warning: `the session's context changes may not have been kept: ${error.message}` };
    }
    if (outcome.kept) return { value };
    return {
      value,
      warning: `the session's context changes were not kept: they would make it ${outcome.bytes} bytes, over the bound of ${this.#bounds.maxContextBytes}`,
    };
  }
}

/**
 * The keys whose JSON differs after the batch, with their new JSON text (undefined: removed). Applying the
 * patches in call order and then this difference gives the same context, so the order is kept.
 */
function changesFrom(before: ReadonlyMap<string, string>, after: Context): ContextChanges {
  const changes = new Map<string, string | undefined>();
  for (const [key, value] of Object.entries(after)) {
    const text = JSON.stringify(value);
    if (text !== undefined && text !== before.get(key)) changes.set(key, text);
  }
  for (const key of before.keys()) if (!Object.hasOwn(after, key)) changes.set(key, undefined);
  return changes;
}
