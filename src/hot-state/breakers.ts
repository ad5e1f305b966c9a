// Breaker state shared between replicas. The replica whose calls opened a breaker announces it; every
// other replica holds its own breaker for that tool × provider open (cockatiel's isolate), so calls there
// fail fast without reaching the provider. Only the opener goes half-open after its cooldown and probes,
// so probes are not multiplied by the number of replicas; its verdict (closed, or open again) is announced
// in turn. A hold also ends by itself after `holdMs` without news, should the opener have gone away.
import type { Redis } from "ioredis";

export type SharedBreakerState = "open" | "closed";

export interface BreakerAnnouncement {
  tool: string;
  provider: string;
  state: SharedBreakerState;
}

/** Where breaker announcements go; the default (one process) has nobody to tell. */
export interface BreakerStateStore {
  announce(announcement: BreakerAnnouncement): Promise<void>;
  /** Announcements of other replicas, and the open breakers found on (re)connecting. */
  onRemote(listener: (announcement: BreakerAnnouncement) => void): void;
  close(): Promise<void>;
}

export class LocalBreakerStateStore implements BreakerStateStore {
  async announce(): Promise<void> {}
  onRemote(): void {}
  async close(): Promise<void> {}
}

const CHANNEL = "switchboard:breakers";
const KEY_PREFIX = "switchboard:breaker:";

export class RedisBreakerStateStore implements BreakerStateStore {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #replica: string;
  readonly #holdMs: number;
  readonly #listeners: ((announcement: BreakerAnnouncement) => void)[] = [];

  constructor(redis: Redis, subscriber: Redis, replica: string, holdMs: number) {
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.#replica = replica;
    this.#holdMs = holdMs;
    subscriber.on("message", (channel: string, text: string) => {
      if (channel !== CHANNEL) return;
      const message = JSON.parse(text) as BreakerAnnouncement & { from: string };
      if (message.from !== this.#replica) this.#emit(message);
    });
    // On every (re)connection: subscribe again and take the breakers opened meanwhile.
    subscriber.on("ready", () => {
      subscriber.subscribe(CHANNEL).catch(() => undefined);
      void this.#catchUp();
    });
  }

  async #catchUp(): Promise<void> {
    try {
      const keys = await this.#redis.keys(`${KEY_PREFIX}*`);
      for (const key of keys) {
        const from = await this.#redis.get(key);
        const [tool, provider] = key.slice(KEY_PREFIX.length).split("\u0000");
        if (from && from !== this.#replica && tool && provider) this.#emit({ tool, provider, state: "open" });
      }
    } catch {
      // Redis went away again; the next reconnection retries.
    }
  }

  #emit(announcement: BreakerAnnouncement): void {
    for (const listener of this.#listeners) listener(announcement);
  }

  async announce(announcement: BreakerAnnouncement): Promise<void> {
    const key = `${KEY_PREFIX}${announcement.tool}\u0000${announcement.provider}`;
    const message = JSON.stringify({ ...announcement, from: this.#replica });
    const pipeline = this.#redis.multi();
    if (announcement.state === "open") pipeline.set(key, this.#replica, "PX", this.#holdMs);
    else pipeline.del(key);
    pipeline.publish(CHANNEL, message);
    await pipeline.exec();
  }

  onRemote(listener: (announcement: BreakerAnnouncement) => void): void {
    this.#listeners.push(listener);
  }

  async close(): Promise<void> {
    this.#subscriber.disconnect();
  }
}

/** What a dispatcher offers for sharing its breakers. */
export interface BreakerHost {
  on(
    event: "breaker",
    listener: (change: { tool: string; provider: string; state: string }) => void,
  ): unknown;
  holdOpen(tool: string, provider: string): (() => void) | undefined;
}

/**
 * Connects a dispatcher's breakers to the shared store: local opens and closes are announced, remote ones
 * held. Returns a function listing the breakers held for other replicas (for /readyz and tests).
 */
export function shareBreakers(host: BreakerHost, store: BreakerStateStore, holdMs: number): () => string[] {
  const held = new Map<string, { release: () => void; timer: NodeJS.Timeout }>();
  const keyOf = (tool: string, provider: string) => `${tool}\u0000${provider}`;
  const release = (key: string) => {
    const hold = held.get(key);
    if (!hold) return;
    held.delete(key);
    clearTimeout(hold.timer);
    hold.release();
  };
  store.onRemote(({ tool, provider, state }) => {
    const key = keyOf(tool, provider);
    if (state === "closed") return release(key);
    const existing = held.get(key);
    if (existing) {
      existing.timer.refresh();
      return;
    }
    const releaseHold = host.holdOpen(tool, provider);
    if (!releaseHold) return;
    const timer = setTimeout(() => release(key), holdMs);
    timer.unref();
    held.set(key, { release: releaseHold, timer });
  });
  host.on("breaker", ({ tool, provider, state }) => {
    // Holds are the other replicas' news, not this one's: their isolation and its end are not announced.
    const key = keyOf(tool, provider);
    if (state === "isolated" || held.has(key)) return;
    if (state === "open" || state === "closed")
      store.announce({ tool, provider, state }).catch(() => undefined);
  });
  return () => [...held.keys()].map((key) => key.replace("\u0000", " × "));
}
