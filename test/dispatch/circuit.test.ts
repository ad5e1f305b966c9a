// The breaker's statistics and state machine in isolation (circuit.ts, breaker-strategy.ts).
import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";
import { CircuitState, ConsecutiveBreaker, CountBreaker, SamplingBreaker } from "cockatiel";
import { breakerStrategy } from "../../src/dispatch/breaker-strategy.ts";
import { Admission, CircuitBreaker } from "../../src/dispatch/circuit.ts";
import { parseOptions } from "../../src/dispatch/options.ts";

beforeEach(() => mock.timers.enable({ apis: ["Date"], now: 1_000_000 }));
afterEach(() => mock.timers.reset());

const defaults = parseOptions({}).breaker;

test("by default the breaker counts consecutive provider faults; a rate window only when one is set", () => {
  assert.ok(breakerStrategy(defaults) instanceof ConsecutiveBreaker);
  assert.ok(breakerStrategy({ ...defaults, failureRate: 0.5 }) instanceof CountBreaker);
  assert.ok(breakerStrategy({ ...defaults, windowMs: 10_000 }) instanceof SamplingBreaker);
});

function fail(circuit: CircuitBreaker, fault = true) {
  const admission = circuit.admit();
  circuit.failed(admission, fault);
  return admission;
}

test("the default opens after 30 faults in a row, and any success in between starts the count again", () => {
  const circuit = new CircuitBreaker(breakerStrategy(defaults), defaults);
  for (let i = 0; i < 29; i++) fail(circuit);
  circuit.succeeded(circuit.admit());
  for (let i = 0; i < 29; i++) fail(circuit);
  assert.equal(circuit.state, CircuitState.Closed);
  fail(circuit);
  assert.equal(circuit.state, CircuitState.Open);
  assert.equal(circuit.admit(), Admission.Refused);
});

test("a 30% fault rate does not trip the default over 100,000 attempts; an outage trips it at once", () => {
  const circuit = new CircuitBreaker(breakerStrategy(defaults), defaults);
  let state = 99;
  const random = () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
  for (let i = 0; i < 100_000; i++) {
    const admission = circuit.admit();
    if (random() < 0.3) circuit.failed(admission, true);
    else circuit.succeeded(admission);
  }
  assert.equal(circuit.state, CircuitState.Closed);
  for (let i = 0; i < 30; i++) fail(circuit);
  assert.equal(circuit.state, CircuitState.Open);
});

test("failures that are not the provider's never count", () => {
  const circuit = new CircuitBreaker(breakerStrategy(defaults), defaults);
  for (let i = 0; i < 1000; i++) fail(circuit, false);
  assert.equal(circuit.state, CircuitState.Closed);
});

test("after the cooldown one probe goes through and the rest fail fast; its success closes the circuit", () => {
  const settings = { ...defaults, consecutiveFailures: 2, cooldownMs: 5000 };
  const circuit = new CircuitBreaker(breakerStrategy(settings), settings);
  const states: CircuitState[] = [];
  circuit.onStateChange((s) => states.push(s));
  fail(circuit);
  fail(circuit);
  mock.timers.tick(4999);
  assert.equal(circuit.admit(), Admission.Refused);
  mock.timers.tick(1);
  const probe = circuit.admit();
  assert.equal(probe, Admission.Probe);
  assert.equal(circuit.admit(), Admission.Refused, "one probe at a time");
  circuit.succeeded(probe);
  assert.equal(circuit.admit(), Admission.Pass);
  assert.deepEqual(states, [CircuitState.Open, CircuitState.HalfOpen, CircuitState.Closed]);
});

test("a probe's fault opens the circuit again; a probe's caller failure lets the next call probe", () => {
  const settings = { ...defaults, consecutiveFailures: 1, cooldownMs: 1000 };
  const circuit = new CircuitBreaker(breakerStrategy(settings), settings);
  fail(circuit);
  mock.timers.tick(1000);
  circuit.failed(circuit.admit(), false);
  assert.equal(circuit.state, CircuitState.HalfOpen);
  const probe = circuit.admit();
  assert.equal(probe, Admission.Probe);
  circuit.failed(probe, true);
  assert.equal(circuit.state, CircuitState.Open);
  assert.equal(circuit.admit(), Admission.Refused);
});

test("a snapshot restores an open circuit with its cooldown", () => {
  const settings = { ...defaults, consecutiveFailures: 1, cooldownMs: 1000 };
  const circuit = new CircuitBreaker(breakerStrategy(settings), settings);
  fail(circuit);
  const restored = new CircuitBreaker(breakerStrategy(settings), settings, circuit.toJSON());
  assert.equal(restored.admit(), Admission.Refused);
  mock.timers.tick(1000);
  assert.equal(restored.admit(), Admission.Probe);
});

test("a hold refuses every call past any cooldown until its last release, which closes the circuit", () => {
  const settings = { ...defaults, consecutiveFailures: 1, cooldownMs: 1000 };
  const circuit = new CircuitBreaker(breakerStrategy(settings), settings);
  const changes: CircuitState[] = [];
  circuit.onStateChange((state) => changes.push(state));
  fail(circuit);
  const first = circuit.hold();
  const second = circuit.hold();
  mock.timers.tick(5000);
  assert.equal(circuit.admit(), Admission.Refused, "no probe while held");
  first();
  first();
  assert.equal(circuit.state, CircuitState.Isolated, "a release counts once");
  second();
  assert.equal(circuit.state, CircuitState.Closed);
  assert.equal(circuit.admit(), Admission.Pass);
  assert.deepEqual(changes, [CircuitState.Open, CircuitState.Isolated, CircuitState.Closed]);
  const held = circuit.hold();
  const restored = new CircuitBreaker(breakerStrategy(settings), settings, circuit.toJSON());
  assert.equal(restored.state, CircuitState.Closed, "a hold is not restored");
  held();
});
