export {
  type BreakerAnnouncement,
  type BreakerHost,
  type BreakerStateStore,
  LocalBreakerStateStore,
  RedisBreakerStateStore,
  shareBreakers,
} from "./breakers.ts";
export { type AnswerLink, SharedAnswers } from "./cache.ts";
export {
  type Claim,
  type IdempotencyStore,
  LocalIdempotencyStore,
  RedisIdempotencyStore,
} from "./idempotency.ts";
export { type ConnectOptions, connectRedis, startRedis } from "./redis.ts";
export { RedisSessionStore, sessionRedisKey } from "./sessions.ts";
export { openSharedState, type SharedState, type StoreHealth } from "./shared-state.ts";
