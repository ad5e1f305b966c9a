// A circuit breaker with cockatiel's shape (CircuitState, `onStateChange`, `toJSON` and an `IBreaker`
// strategy deciding when to open) but a synchronous admission, so the breaker stage can ask, run the
// attempt, and report its outcome without cockatiel's three promise layers per call. It differs from
// cockatiel's policy in one behaviour on purpose: while half-open, calls beyond the probes fail fast as
// breaker_open instead of queueing behind the probes. A hold (cockatiel's `isolate`) keeps the circuit
// refusing for someone else, e.g. another replica that opened it and probes it alone.
import { CircuitState, type IBreaker } from "cockatiel";
import type { BreakerStateName } from "./types.ts";

export const stateNames: Record<CircuitState, BreakerStateName> = {
  [CircuitState.Closed]: "closed",
  [CircuitState.Open]: "open",
  [CircuitState.HalfOpen]: "half_open",
  [CircuitState.Isolated]: "isolated",
};

/** What `admit` hands out: a pass on a closed circuit, a half-open probe, or a refusal. */
export const Admission = { Refused: 0, Pass: 1, Probe: 2 } as const;
export type Admission = (typeof Admission)[keyof typeof Admission];

/** The persisted form: enough to keep an open circuit open across a restart. */
export interface CircuitSnapshot {
  state: CircuitState;
  openedAt: number;
  strategy: unknown;
}

export interface CircuitSettings {
  cooldownMs: number;
  halfOpenProbes: number;
}

export class CircuitBreaker {
  readonly #strategy: IBreaker;
  readonly #settings: CircuitSettings;
  readonly #listeners: ((state: CircuitState) => void)[] = [];
  #state: CircuitState = CircuitState.Closed;
  #openedAt = 0;
  /** When the circuit entered its current state (ms since the epoch), for operators. */
  #changedAt = Date.now();
  #probing = 0;
  #probeSuccesses = 0;
  #holds = 0;

  constructor(strategy: IBreaker, settings: CircuitSettings, snapshot?: CircuitSnapshot) {
    this.#strategy = strategy;
    this.#settings = settings;
    if (snapshot) {
      // A hold belongs to the process that made it: a held circuit is restored closed.
      const { state } = snapshot;
      this.#state =
        state === CircuitState.HalfOpen
          ? CircuitState.Open
          : state === CircuitState.Isolated
            ? CircuitState.Closed
            : state;
      this.#openedAt = snapshot.openedAt;
      if (this.#state === CircuitState.Open) this.#changedAt = snapshot.openedAt;
      strategy.state = snapshot.strategy;
    }
  }

  get state(): CircuitState {
    return this.#state;
  }

  get changedAt(): number {
    return this.#changedAt;
  }

  onStateChange(listener: (state: CircuitState) => void): void {
    this.#listeners.push(listener);
  }

  /**
   * Whether a call may go to the provider now; a refusal is answered breaker_open by the caller. This and
   * `succeeded` run on every attempt, so each keeps the closed circuit's case small enough for V8's mid
   * tier (Maglev) to inline, and the other states in a method of their own.
   */
  admit(): Admission {
    return this.#state === CircuitState.Closed ? Admission.Pass : this.#admitUnlessClosed();
  }

  #admitUnlessClosed(): Admission {
    if (this.#state === CircuitState.Open) {
      if (Date.now() - this.#openedAt < this.#settings.cooldownMs) return Admission.Refused;
      this.#probing = 0;
      this.#probeSuccesses = 0;
      this.#change(CircuitState.HalfOpen);
    }
    if (this.#state !== CircuitState.HalfOpen || this.#probing >= this.#settings.halfOpenProbes)
      return Admission.Refused;
    this.#probing++;
    return Admission.Probe;
  }

  succeeded(admission: Admission): void {
    // A call that started on a closed circuit and ends after another call opened it changes nothing.
    if (admission === Admission.Pass) {
      if (this.#state === CircuitState.Closed) this.#strategy.success(CircuitState.Closed);
    } else this.#probeSucceeded(admission);
  }

  #probeSucceeded(admission: Admission): void {
    if (admission !== Admission.Probe || this.#state !== CircuitState.HalfOpen) return;
    this.#probing--;
    if (++this.#probeSuccesses < this.#settings.halfOpenProbes) return;
    this.#strategy.success(CircuitState.HalfOpen);
    this.#change(CircuitState.Closed);
  }

  /** `fault`: whether the failure was the provider's; any other failure says nothing about its health. */
  failed(admission: Admission, fault: boolean): void {
    if (admission === Admission.Pass) {
      if (fault && this.#state === CircuitState.Closed && this.#strategy.failure(CircuitState.Closed))
        this.#open();
      return;
    }
    if (admission !== Admission.Probe || this.#state !== CircuitState.HalfOpen) return;
    this.#probing--;
    if (!fault) return; // the next call probes instead
    this.#strategy.failure(CircuitState.HalfOpen);
    this.#open();
  }

  /**
   * Holds the circuit open (Isolated): `admit` refuses until every hold is released, and the last release
   * closes it. Releasing twice is harmless.
   */
  hold(): () => void {
    if (this.#holds++ === 0) this.#change(CircuitState.Isolated);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds === 0) this.#change(CircuitState.Closed);
    };
  }

  toJSON(): CircuitSnapshot {
    return { state: this.#state, openedAt: this.#openedAt, strategy: this.#strategy.state };
  }

  #open(): void {
    this.#openedAt = Date.now();
    this.#change(CircuitState.Open);
  }

  #change(state: CircuitState): void {
    this.#state = state;
    this.#changedAt = Date.now();
    for (const listener of this.#listeners) listener(state);
  }
}
