// Session contexts in Redis, so a session's next call sees its context whichever replica answers it.
// A context is one hash: field = the key as JSON text, value = the value's JSON text. A batch's changes
// are applied by one Lua script (Redis runs a script atomically), which reads the hash, checks the size the
// result would have, then writes the changed fields and renews the time to live: a change another replica
// made to the same session in between is kept. Values are never decoded in Lua (its cjson would round
// numbers and turn [] into {}); only their lengths are summed, in bytes, as the memory store does.
// While Redis is away every read and write throws SessionStoreUnavailableError: a context must not split
// into one copy per replica (see docs/deploy.md, "Degraded modes").
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import {
  type Context,
  type ContextBounds,
  type ContextChanges,
  type SessionStore,
  SessionStoreUnavailableError,
  type UpdateOutcome,
} from "../session/index.ts";

const PREFIX = "switchboard:session:";

/**
 * The Redis key of a session. The id is hashed, so what a caller sent (its session id) never forms a key
 * of its own choosing, and every key has the same length.
 */
export function sessionRedisKey(id: string): string {
  return PREFIX + createHash("sha256").update(id).digest("hex");
}

// KEYS[1]: the session's hash. ARGV: the bound in bytes, the time to live in ms, the number of fields set,
// then that many field/value pairs, then the fields removed. Returns {1, bytes} when kept, {0, bytes} not.
const UPDATE = `
local key = KEYS[1]
local sets = tonumber(ARGV[3])
local last = 3 + 2 * sets
local fields = {}
local current = redis.call('HGETALL', key)
for i = 1, #current, 2 do fields[current[i]] = current[i + 1] end
for i = 4, last, 2 do fields[ARGV[i]] = ARGV[i + 1] end
for i = last + 1, #ARGV do fields[ARGV[i]] = nil end
local bytes, count = 2, 0
for field, value in pairs(fields) do
  bytes = bytes + #field + 1 + #value
  count = count + 1
end
if count > 1 then bytes = bytes + count - 1 end
if bytes > tonumber(ARGV[1]) then return {0, bytes} end
for i = 4, last, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
for i = last + 1, #ARGV do redis.call('HDEL', key, ARGV[i]) end
if count > 0 then redis.call('PEXPIRE', key, ARGV[2]) end
return {1, bytes}
`;

type ScriptedRedis = Redis & {
  switchboardSessionUpdate(key: string, ...args: (string | number)[]): Promise<[number, number]>;
};

export class RedisSessionStore implements SessionStore {
  readonly #redis: ScriptedRedis;

  constructor(redis: Redis) {
    // defineCommand sends the script once and then calls it by its hash (EVALSHA).
    redis.defineCommand("switchboardSessionUpdate", { numberOfKeys: 1, lua: UPDATE });
    this.#redis = redis as ScriptedRedis;
  }

  async get(id: string): Promise<Context | undefined> {
    const fields = await this.#redis.hgetall(sessionRedisKey(id)).catch(unavailable);
    const entries = Object.entries(fields);
    if (entries.length === 0) return undefined;
    // Object.fromEntries defines own properties: a "__proto__" key stays a key.
    return Object.fromEntries(entries.map(([field, value]) => [JSON.parse(field), JSON.parse(value)]));
  }

  async update(id: string, changes: ContextChanges, bounds: ContextBounds): Promise<UpdateOutcome> {
    const sets: string[] = [];
    const removals: string[] = [];
    for (const [key, value] of changes) {
      if (value === undefined) removals.push(JSON.stringify(key));
      else sets.push(JSON.stringify(key), value);
    }
    const [kept, bytes] = await this.#redis
      .switchboardSessionUpdate(
        sessionRedisKey(id),
        bounds.maxContextBytes,
        bounds.ttlMs,
        sets.length / 2,
        ...sets,
        ...removals,
      )
      .catch(unavailable);
    return kept === 1 ? { kept: true } : { kept: false, bytes };
  }
}

function unavailable(error: Error): never {
  throw new SessionStoreUnavailableError(`the session store (Redis) is unavailable: ${error.message}`);
}
