// Stage: the provider's circuit breaker. A closed circuit lets the attempt through; an open one (or a
// half-open one whose probes are all out) answers breaker_open without calling the provider. Only provider
// faults (connection, timeout, rate limit, 5xx, crash) count against it: bad arguments, output that fails
// the outputSchema and errors a tool throws for its input are the caller's, and one caller must not open
// a circuit for everyone. The provider may judge its own failures (`Provider.blame`).
import type { ErrorRules } from "../../catalog/index.ts";
import type { ProviderBreaker } from "../breaker.ts";
import type { Call } from "../call.ts";
import { Admission } from "../circuit.ts";
import { isProviderFault } from "../classify.ts";
import { DispatchError } from "../errors.ts";
import { Pending } from "../pending.ts";
import { type Next, proceed, type Stage } from "../pipeline.ts";
import type { Provider } from "../types.ts";

export class Breaker implements Stage {
  readonly #breaker: ProviderBreaker;
  readonly #provider: Provider;
  readonly #rules: ErrorRules | undefined;

  constructor(breaker: ProviderBreaker, provider: Provider, rules: ErrorRules | undefined) {
    this.#breaker = breaker;
    this.#provider = provider;
    this.#rules = rules;
  }

  execute(call: Call, next: Next): Pending {
    const admission = this.#breaker.circuit.admit();
    if (admission === Admission.Refused) return this.#refused(call);
    call.admission = admission;
    return proceed(next, call).after(this.#record);
  }

  #refused(call: Call): Pending {
    const breaker = this.#breaker;
    call.met(breaker);
    const state = breaker.state;
    const why =
      state === "half_open" ? "half-open, probe in flight" : state === "isolated" ? "held open" : "open";
    return Pending.of(
      call.fail(new DispatchError("breaker_open", `circuit ${why} for ${this.#provider.id}`)),
    );
  }

  readonly #record = (call: Call): Call => {
    const { circuit } = this.#breaker;
    const admission = call.admission as Admission;
    if (call.outcome === "answered") circuit.succeeded(admission);
    else circuit.failed(admission, this.#isFault(call.failure));
    call.met(this.#breaker);
    return call;
  };

  #isFault(error: unknown): boolean {
    const judged = this.#provider.blame?.(error);
    return judged === undefined ? isProviderFault(error, this.#rules) : judged === "provider";
  }
}
