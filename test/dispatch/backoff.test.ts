import assert from "node:assert/strict";
import { test } from "node:test";
import { retryDelay } from "../../src/dispatch/backoff.ts";
import type { RetrySettings } from "../../src/dispatch/options.ts";

const settings: RetrySettings = {
  retries: 3,
  baseMs: 500,
  maxMs: 60_000,
  jitter: 0.5,
  strategy: "proportional",
};
const middle = () => 0.5; // jitter factor exactly 1
const fresh = () => ({ previousMs: 0 });

test("connection faults back off base·2^attempt", () => {
  const delays = [1, 2, 3, 4].map((n) => retryDelay(n, { class: "connection" }, settings, fresh(), middle));
  assert.deepEqual(delays, [500, 1000, 2000, 4000]);
});

test("rate limits wait twice as long as connection faults", () => {
  const delays = [1, 2, 3].map((n) => retryDelay(n, { class: "rate_limit" }, settings, fresh(), middle));
  assert.deepEqual(delays, [1000, 2000, 4000]);
});

test("jitter spreads a delay over ±50% by default", () => {
  assert.equal(
    retryDelay(1, { class: "connection" }, settings, fresh(), () => 0),
    250,
  );
  assert.equal(
    retryDelay(1, { class: "connection" }, settings, fresh(), () => 0.999999),
    750,
  );
});

test("delays never exceed the maximum", () => {
  assert.equal(
    retryDelay(20, { class: "rate_limit" }, settings, fresh(), () => 0.999),
    60_000,
  );
});

test("Retry-After wins over the computed delay, capped at the maximum", () => {
  assert.equal(retryDelay(1, { class: "rate_limit", retryAfterMs: 3000 }, settings, fresh(), middle), 3000);
  assert.equal(
    retryDelay(1, { class: "rate_limit", retryAfterMs: 600_000 }, settings, fresh(), middle),
    60_000,
  );
});

test("credentials are retried without waiting", () => {
  assert.equal(retryDelay(1, { class: "credentials" }, settings, fresh(), middle), 0);
});

test("decorrelated jitter draws between base and three times the previous delay", () => {
  const decorrelated = { ...settings, strategy: "decorrelated" as const };
  const state = { previousMs: 0 };
  assert.equal(
    retryDelay(1, { class: "connection" }, decorrelated, state, () => 0.999999),
    500,
  );
  assert.equal(
    retryDelay(2, { class: "connection" }, decorrelated, state, () => 0.999999),
    1500,
  );
  assert.equal(
    retryDelay(3, { class: "connection" }, decorrelated, state, () => 0),
    500,
  );
});
