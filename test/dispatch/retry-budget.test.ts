import assert from "node:assert/strict";
import { test } from "node:test";
import { RetryBudget } from "../../src/dispatch/retry-budget.ts";

const settings = { ratio: 0.5, capacity: 10, perSecond: 0 };

test("a fresh budget allows `capacity` retries, then none until calls add tokens", () => {
  const budget = new RetryBudget(settings, () => 0);
  for (let i = 0; i < 10; i++) assert.ok(budget.withdraw(), `retry ${i}`);
  assert.equal(budget.withdraw(), false);
  budget.deposit();
  assert.equal(budget.withdraw(), false, "half a token is not a retry");
  budget.deposit();
  assert.ok(budget.withdraw(), "two calls pay for one retry");
});

test("in a sustained outage a budget caps requests at 1 + ratio per call", () => {
  const budget = new RetryBudget(settings, () => 0);
  let requests = 0;
  const calls = 10_000;
  for (let call = 0; call < calls; call++) {
    budget.deposit();
    requests++;
    // Every attempt fails; the call retries as long as the budget lets it (up to ten times).
    for (let retry = 0; retry < 10 && budget.withdraw(); retry++) requests++;
  }
  assert.ok(
    requests / calls <= 1 + settings.ratio + settings.capacity / calls,
    `${requests / calls} per call`,
  );
});

test("at 30% independent faults the default budget never refuses a retry", () => {
  const budget = new RetryBudget({ ratio: 0.5, capacity: 100, perSecond: 0 }, () => 0);
  let state = 12345;
  const random = () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
  let refused = 0;
  for (let call = 0; call < 100_000; call++) {
    budget.deposit();
    for (let retry = 0; retry < 10 && random() < 0.3; retry++) if (!budget.withdraw()) refused++;
  }
  assert.equal(refused, 0);
});

test("tokens never exceed the capacity, and the time floor refills a quiet budget", () => {
  let now = 0;
  const budget = new RetryBudget({ ratio: 0.5, capacity: 2, perSecond: 1 }, () => now);
  for (let i = 0; i < 100; i++) budget.deposit();
  assert.equal(budget.tokens, 2);
  assert.ok(budget.withdraw() && budget.withdraw());
  assert.equal(budget.withdraw(), false);
  now += 1000;
  assert.ok(budget.withdraw(), "one token a second");
  assert.equal(budget.withdraw(), false);
});
