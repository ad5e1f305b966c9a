// Answers cached by read-only tools, pushed to every replica through Redis pub/sub. Each replica keeps its
// own LRU, so a cache lookup stays local and synchronous on the call path; an answer one replica fetched
// is then served by the others, fresh or stale (stale-while-revalidate), as if they had fetched it. While
// Redis is away each replica caches only its own answers.
import type { Redis } from "ioredis";

/** The dispatcher's side: answers to send, or to store (src/dispatch CacheLink). */
export interface AnswerLink {
  publish(key: string, output: unknown, provider: string, ttlMs: number, staleMs: number): void;
}

const CHANNEL = "switchboard:cache";

interface Message {
  from: string;
  key: string;
  output: unknown;
  provider: string;
  ttlMs: number;
  staleMs: number;
}

export class SharedAnswers {
  readonly #redis: Redis;
  readonly #replica: string;
  #local: AnswerLink | undefined;

  constructor(redis: Redis, subscriber: Redis, replica: string) {
    this.#redis = redis;
    this.#replica = replica;
    subscriber.on("message", (channel: string, text: string) => {
      if (channel !== CHANNEL) return;
      const message = JSON.parse(text) as Message;
      if (message.from === this.#replica) return;
      this.#local?.publish(message.key, message.output, message.provider, message.ttlMs, message.staleMs);
    });
    subscriber.on("ready", () => {
      subscriber.subscribe(CHANNEL).catch(() => undefined);
    });
  }

  /** Connects a dispatcher's cache: `share` is its shareCache. */
  attach(share: (outgoing: AnswerLink) => AnswerLink): void {
    this.#local = share({
      publish: (key, output, provider, ttlMs, staleMs) => {
        const message: Message = { from: this.#replica, key, output, provider, ttlMs, staleMs };
        this.#redis.publish(CHANNEL, JSON.stringify(message)).catch(() => undefined);
      },
    });
  }
}
