// Circuit breakers, one per (tool, provider), kept in a registry that persists the ones not closed through
// the DataStore, so an open circuit stays open across a restart. Each is a CircuitBreaker (circuit.ts)
// with the strategy its settings select (breaker-strategy.ts).
import { CircuitState } from "cockatiel";
import { z } from "zod";
import type { DataStore } from "../store/index.ts";
import { breakerStrategy } from "./breaker-strategy.ts";
import { CircuitBreaker, type CircuitSnapshot, stateNames } from "./circuit.ts";
import type { BreakerSettings } from "./options.ts";
import type { BreakerStateName, Provenance } from "./types.ts";

export const BREAKERS_KEY = "dispatch/breakers.json";

const snapshotSchema = z.object({
  state: z.union([
    z.literal(CircuitState.Closed),
    z.literal(CircuitState.Open),
    z.literal(CircuitState.HalfOpen),
    z.literal(CircuitState.Isolated),
  ]),
  openedAt: z.number(),
  strategy: z.unknown(),
});

// Version 1 held cockatiel's own serialisation; such entries are read (so the file still loads) and ignored.
const persistedSchema = z.object({
  version: z.union([z.literal(1), z.literal(2)]),
  breakers: z.record(
    z.string(),
    z.object({ tool: z.string(), provider: z.string(), settings: z.string(), snapshot: z.unknown() }),
  ),
});
type Persisted = z.infer<typeof persistedSchema>;

export interface BreakerInfo {
  tool: string;
  provider: string;
  state: BreakerStateName;
  /** When it entered that state (ms since the epoch). */
  since: number;
}

export type BreakerChange = Omit<BreakerInfo, "since">;

/** A provider's circuit, with what the registry and the provenance of results need to name it. */
export class ProviderBreaker {
  readonly tool: string;
  readonly provider: string;
  readonly settings: string;
  readonly circuit: CircuitBreaker;
  /** `{ [provider]: state }` per state, frozen and shared by every result that met this breaker alone. */
  readonly #records = new Map<CircuitState, Readonly<Record<string, BreakerStateName>>>();
  /** Per state, the frozen provenance of a call this provider answered at its first attempt. */
  readonly #firstTries = new Map<CircuitState, Provenance>();
  /** The closed state's entries of the two maps, read without a lookup on every call. */
  #closedRecord: Readonly<Record<string, BreakerStateName>> | undefined;
  #closedFirstTry: Provenance | undefined;

  constructor(tool: string, provider: string, settings: BreakerSettings, snapshot?: CircuitSnapshot) {
    this.tool = tool;
    this.provider = provider;
    this.settings = JSON.stringify(settings);
    this.circuit = new CircuitBreaker(breakerStrategy(settings), settings, snapshot);
  }

  get state(): BreakerStateName {
    return stateNames[this.circuit.state];
  }

  /**
   * The provenance of a call this provider answered at the first attempt, with this breaker as the only
   * one it met: the common case, made once per state and shared by every such result instead of per call.
   */
  firstTry(): Provenance {
    // The closed state's case is kept small enough for V8's mid tier (Maglev) to inline; so is record's.
    if (this.circuit.state === CircuitState.Closed && this.#closedFirstTry) return this.#closedFirstTry;
    return this.#firstTryWhen(this.circuit.state);
  }

  #firstTryWhen(state: CircuitState): Provenance {
    let provenance = this.#firstTries.get(state);
    if (!provenance) {
      provenance = Object.freeze({
        attempts: 1,
        stale: false,
        breakers: this.record(),
        provider: this.provider,
      });
      this.#firstTries.set(state, provenance);
      if (state === CircuitState.Closed) this.#closedFirstTry = provenance;
    }
    return provenance;
  }

  /** The provenance entry for this breaker as it is now. */
  record(): Readonly<Record<string, BreakerStateName>> {
    if (this.circuit.state === CircuitState.Closed && this.#closedRecord) return this.#closedRecord;
    return this.#recordWhen(this.circuit.state);
  }

  #recordWhen(state: CircuitState): Readonly<Record<string, BreakerStateName>> {
    let record = this.#records.get(state);
    if (!record) {
      record = Object.freeze({ [this.provider]: stateNames[state] });
      this.#records.set(state, record);
      if (state === CircuitState.Closed) this.#closedRecord = record;
    }
    return record;
  }
}

export class BreakerRegistry {
  readonly #breakers = new Map<string, ProviderBreaker>();
  readonly #store: DataStore | undefined;
  readonly #onChange: (change: BreakerChange) => void;
  #restored: Persisted["breakers"] = {};
  #saving: Promise<void> = Promise.resolve();

  constructor(store: DataStore | undefined, onChange: (change: BreakerChange) => void) {
    this.#store = store;
    this.#onChange = onChange;
  }

  /** Reads persisted breaker states; a breaker that was open stays open after a restart. */
  async load(): Promise<void> {
    if (!this.#store) return;
    const persisted = await this.#store.readJson(BREAKERS_KEY, persistedSchema);
    this.#restored = persisted?.version === 2 ? persisted.breakers : {};
  }

  /** The breaker of a (tool, provider); made on first use, and again when the tool's settings change. */
  get(tool: string, provider: string, settings: BreakerSettings): ProviderBreaker {
    const key = `${tool}\u0000${provider}`;
    const existing = this.#breakers.get(key);
    const signature = JSON.stringify(settings);
    if (existing && existing.settings === signature) return existing;
    const restored = this.#restored[key];
    const snapshot =
      restored && restored.settings === signature ? snapshotSchema.safeParse(restored.snapshot) : undefined;
    const breaker = new ProviderBreaker(
      tool,
      provider,
      settings,
      snapshot?.success ? snapshot.data : undefined,
    );
    breaker.circuit.onStateChange((state) => {
      this.#onChange({ tool, provider, state: stateNames[state] });
      this.#persist();
    });
    this.#breakers.set(key, breaker);
    return breaker;
  }

  /** Every breaker met so far, and restored ones nobody has called yet (as they were persisted). */
  list(): BreakerInfo[] {
    const live = [...this.#breakers.values()].map((b) => ({
      tool: b.tool,
      provider: b.provider,
      state: b.state,
      since: b.circuit.changedAt,
    }));
    const restored = Object.entries(this.#restored)
      .filter(([key]) => !this.#breakers.has(key))
      .map(([, r]) => {
        const snapshot = snapshotSchema.safeParse(r.snapshot);
        const state = snapshot.success ? snapshot.data.state : CircuitState.Open;
        const since = snapshot.success ? snapshot.data.openedAt : 0;
        return { tool: r.tool, provider: r.provider, state: stateNames[state], since };
      });
    return [...live, ...restored];
  }

  /** Resolves when every state change so far has been written. */
  flush(): Promise<void> {
    return this.#saving;
  }

  #persist(): void {
    const store = this.#store;
    if (!store) return;
    // Writes are chained so they land in order; only breakers that are not closed need remembering.
    this.#saving = this.#saving.then(async () => {
      const breakers: Persisted["breakers"] = {};
      // Restored breakers nobody has called yet are kept as they were.
      for (const [key, entry] of Object.entries(this.#restored))
        if (!this.#breakers.has(key)) breakers[key] = entry;
      // A held circuit is held for another replica (holdOpen), which remembers it itself.
      for (const [key, b] of this.#breakers)
        if (b.circuit.state !== CircuitState.Closed && b.circuit.state !== CircuitState.Isolated)
          breakers[key] = {
            tool: b.tool,
            provider: b.provider,
            settings: b.settings,
            snapshot: b.circuit.toJSON(),
          };
      try {
        await store.writeJson(BREAKERS_KEY, { version: 2, breakers } satisfies Persisted);
      } catch {
        // A failed write leaves the previous file; the next state change writes again.
      }
    });
  }
}
