// Circuit breakers, one per (tool, provider): cockatiel's CircuitBreakerPolicy with a CountBreaker
// (count-based window) or SamplingBreaker (time-based window). Half-open admits `halfOpenProbes` calls;
// any further call while they run fails fast as breaker_open (cockatiel would queue it behind the probes).
// Open breakers are persisted through the DataStore and restored with cockatiel's `initialState`.
import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  CircuitState,
  CountBreaker,
  circuitBreaker,
  handleWhen,
  SamplingBreaker,
} from "cockatiel";
import { z } from "zod";
import type { ErrorRules } from "../catalog/index.ts";
import type { DataStore } from "../store/index.ts";
import { classify } from "./classify.ts";
import { DispatchError } from "./errors.ts";
import type { BreakerSettings } from "./options.ts";
import type { BreakerStateName, Provenance } from "./types.ts";

export const BREAKERS_KEY = "dispatch/breakers.json";

const stateNames: Record<CircuitState, BreakerStateName> = {
  [CircuitState.Closed]: "closed",
  [CircuitState.Open]: "open",
  [CircuitState.HalfOpen]: "half_open",
  [CircuitState.Isolated]: "isolated",
};

const persistedSchema = z.object({
  version: z.literal(1),
  breakers: z.record(
    z.string(),
    z.object({ tool: z.string(), provider: z.string(), settings: z.string(), snapshot: z.unknown() }),
  ),
});
type Persisted = z.infer<typeof persistedSchema>;

/** Failures that say something about the provider's health; input and credential errors do not. */
function countsAsFailure(error: unknown, rules: ErrorRules | undefined): boolean {
  const cls = classify(error, rules).class;
  return cls !== "fatal" && cls !== "credentials" && cls !== "cancelled";
}

export interface BreakerInfo {
  tool: string;
  provider: string;
  state: BreakerStateName;
}

export interface BreakerChange extends BreakerInfo {}

export class ToolBreaker {
  readonly tool: string;
  readonly provider: string;
  readonly settings: string;
  readonly policy: CircuitBreakerPolicy;
  /**
   * The provenance of every call this provider answered at its first attempt through this breaker while
   * closed. Frozen, because results share it; the dispatcher copies it before adding anything.
   */
  readonly answeredAtOnce: Provenance;
  readonly #probes: number;
  readonly #window: CountBreaker | SamplingBreaker;
  readonly #rules: ErrorRules | undefined;
  #probing = 0;

  constructor(
    tool: string,
    provider: string,
    settings: BreakerSettings,
    rules: ErrorRules | undefined,
    initialState?: unknown,
  ) {
    this.tool = tool;
    this.provider = provider;
    this.settings = JSON.stringify(settings);
    this.answeredAtOnce = Object.freeze({
      attempts: 1,
      stale: false,
      breakers: Object.freeze({ [provider]: "closed" as const }),
      provider,
    });
    this.#probes = settings.halfOpenProbes;
    // cockatiel opens when failures exceed threshold·total; "reaches the rate" needs a hair less, and
    // its threshold must stay below 1.
    const threshold = Math.min(settings.failureRate, 1) - 1e-9;
    const breaker =
      settings.windowMs !== undefined
        ? new SamplingBreaker({
            threshold,
            duration: settings.windowMs,
            minimumRps: (settings.minCalls * 1000) / settings.windowMs,
          })
        : new CountBreaker({
            threshold,
            size: settings.windowSize,
            minimumNumberOfCalls: Math.min(settings.minCalls, settings.windowSize),
          });
    this.#window = breaker;
    this.#rules = rules;
    this.policy = circuitBreaker(
      handleWhen((error) => countsAsFailure(error, rules)),
      {
        breaker,
        halfOpenAfter: settings.cooldownMs,
        halfOpenSampling: { calls: settings.halfOpenProbes, threshold: 0 },
        ...(initialState ? { initialState } : {}),
      },
    );
  }

  get state(): BreakerStateName {
    return stateNames[this.policy.state];
  }

  /** Whether calls pass straight through; only then may a caller use `succeeded`/`failedWhileClosed`. */
  get closed(): boolean {
    return this.policy.state === CircuitState.Closed;
  }

  execute<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return this.#executeClosed(fn);
    return this.#executeGuarded(fn);
  }

  /**
   * The closed circuit, which is nearly every call. On success cockatiel's closed path does nothing but
   * sample its window (CircuitBreakerPolicy.execute: `breaker.success(Closed)`); the window is our own
   * CountBreaker/SamplingBreaker, so it is sampled here (`succeeded`), and the call skips the three promise
   * layers of cockatiel's execute, its executor and our error translation (measured in
   * `npm run bench:dispatch`). The dispatcher's first attempt uses the same two steps without this wrapper.
   */
  async #executeClosed<T>(fn: () => Promise<T>): Promise<T> {
    let value: T;
    try {
      value = await fn();
    } catch (error) {
      return this.failedWhileClosed(error);
    }
    this.succeeded();
    return value;
  }

  /** A success of a call that started on a closed circuit. */
  succeeded(): void {
    this.#window.success(CircuitState.Closed);
  }

  /** A failure of a call that started on a closed circuit; rejects with the call's own error. */
  failedWhileClosed(error: unknown): Promise<never> {
    // Still closed (the rule): cockatiel records it exactly as if it had run the call itself (its filter,
    // its window, opening the circuit when the failure rate is reached), and the error is rethrown.
    if (this.closed) return this.#executeGuarded(() => Promise.reject(error));
    // Another call opened the circuit meanwhile. Cockatiel samples the failure as one from the closed
    // state; opening again does nothing on an open circuit. (On a half-open one, reached only by a call
    // that outlived the cooldown, cockatiel would reopen; the probes in flight decide instead.)
    if (countsAsFailure(error, this.#rules)) this.#window.failure(CircuitState.Closed);
    return Promise.reject(error);
  }

  #executeGuarded<T>(fn: () => Promise<T>): Promise<T> {
    if (this.policy.state === CircuitState.HalfOpen && this.#probing >= this.#probes)
      return Promise.reject(
        new DispatchError("breaker_open", `circuit half-open for ${this.provider}: probe in flight`),
      );
    const running = this.policy.execute(fn).catch((error: unknown) => {
      if (error instanceof BrokenCircuitError)
        throw new DispatchError("breaker_open", `circuit open for ${this.provider}`);
      throw error;
    });
    if (this.policy.state !== CircuitState.HalfOpen) return running;
    this.#probing++;
    return running.finally(() => this.#probing--);
  }
}

export class BreakerRegistry {
  readonly #breakers = new Map<string, ToolBreaker>();
  readonly #bySettings = new WeakMap<BreakerSettings, Map<string, ToolBreaker>>();
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
    this.#restored = (await this.#store.readJson(BREAKERS_KEY, persistedSchema))?.breakers ?? {};
  }

  get(tool: string, provider: string, settings: BreakerSettings, rules: ErrorRules | undefined): ToolBreaker {
    // Effective policies are resolved once per tool definition, so each tool has its own settings object:
    // looking up by it and the provider id spares the call path building a string key.
    const fast = this.#bySettings.get(settings)?.get(provider);
    if (fast) return fast;
    const key = `${tool}\u0000${provider}`;
    const found = this.#lookup(key, tool, provider, settings, rules);
    let byProvider = this.#bySettings.get(settings);
    if (!byProvider) {
      byProvider = new Map();
      this.#bySettings.set(settings, byProvider);
    }
    byProvider.set(provider, found);
    return found;
  }

  #lookup(
    key: string,
    tool: string,
    provider: string,
    settings: BreakerSettings,
    rules: ErrorRules | undefined,
  ): ToolBreaker {
    const existing = this.#breakers.get(key);
    const signature = JSON.stringify(settings);
    if (existing && existing.settings === signature) return existing;
    const restored = this.#restored[key];
    const initial = restored && restored.settings === signature ? restored.snapshot : undefined;
    const breaker = new ToolBreaker(tool, provider, settings, rules, initial);
    breaker.policy.onStateChange((state) => {
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
    }));
    const restored = Object.entries(this.#restored)
      .filter(([key]) => !this.#breakers.has(key))
      .map(([, r]) => {
        const value = (r.snapshot as { ownState?: { value?: CircuitState } }).ownState?.value;
        return { tool: r.tool, provider: r.provider, state: stateNames[value ?? CircuitState.Open] };
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
      // An isolated breaker is held for another replica (holdOpen), which remembers it itself.
      for (const [key, b] of this.#breakers)
        if (b.policy.state !== CircuitState.Closed && b.policy.state !== CircuitState.Isolated)
          breakers[key] = {
            tool: b.tool,
            provider: b.provider,
            settings: b.settings,
            snapshot: b.policy.toJSON(),
          };
      try {
        await store.writeJson(BREAKERS_KEY, { version: 1, breakers } satisfies Persisted);
      } catch {
        // A failed write leaves the previous file; the next state change writes again.
      }
    });
  }
}
