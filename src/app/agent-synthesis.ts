// Whether route-and-execute may write a tool for an agent key now: synthesis costs the operator's LLM
// and a sandbox run per attempt, so each agent key gets its own budget (per hour, per replica) and its
// own bound on tools pending review (shared by every replica: it is counted in the catalog). Maintainer
// keys and the local operator are not limited here: they may synthesize through the API anyway.
import { LRUCache } from "lru-cache";

const HOUR_MS = 60 * 60_000;

export interface AgentSynthesisRules {
  mode: "off" | "private";
  perHour: number;
  maxPending: number;
}

/** Why a key may not synthesize now, in one sentence for the answer's synthesize step. */
export type SynthesisRefusal = { reason: "off" | "limit"; detail: string };

export class AgentSynthesisGate {
  readonly #rules: AgentSynthesisRules;
  /**
   * Start times of each key's syntheses within the last hour. A sliding window of at most `perHour` times a
   * key, hand-kept because the service's request limiter (@fastify/rate-limit) counts requests per route,
   * not an outcome inside one; the LRU bounds how many keys are remembered.
   */
  readonly #starts = new LRUCache<string, number[]>({ max: 10_000, ttl: HOUR_MS });
  /** Syntheses running now per key: they count towards the pending bound before they register. */
  readonly #running = new Map<string, number>();

  constructor(rules: AgentSynthesisRules) {
    this.#rules = rules;
  }

  /**
   * Takes one synthesis from `key`'s budget, or says why not. `pending` is how many of the key's tools wait
   * for review. The returned release must be called when the synthesis ends, registered or not.
   */
  take(key: string, pending: number, now = Date.now()): SynthesisRefusal | (() => void) {
    const { mode, perHour, maxPending } = this.#rules;
    if (mode === "off")
      return {
        reason: "off",
        detail:
          "no tool matches, and the operator turned synthesis off for agent keys (SWITCHBOARD_AGENT_SYNTHESIS=off)",
      };
    const running = this.#running.get(key) ?? 0;
    if (pending + running >= maxPending)
      return {
        reason: "limit",
        detail: `no tool matches, and this key already has ${pending + running} synthesized tools awaiting a maintainer's review (at most ${maxPending})`,
      };
    const recent = (this.#starts.get(key) ?? []).filter((at) => now - at < HOUR_MS);
    if (recent.length >= perHour) {
      const retry = Math.ceil((HOUR_MS - (now - (recent[0] as number))) / 1000);
      return {
        reason: "limit",
        detail: `no tool matches, and this key's synthesis limit of ${perHour} per hour is reached; retry in ${retry} s`,
      };
    }
    this.#starts.set(key, [...recent, now]);
    this.#running.set(key, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#running.get(key) ?? 1) - 1;
      if (left > 0) this.#running.set(key, left);
      else this.#running.delete(key);
    };
  }
}
