import assert from "node:assert/strict";
import { test } from "node:test";
import { classify, parseRetryAfter } from "../../src/dispatch/index.ts";
import { faultError } from "./harness.ts";

test("socket error codes are connection faults", () => {
  for (const kind of ["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT"] as const)
    assert.equal(classify(faultError(kind)).class, "connection", kind);
});

test("undici's TypeError('fetch failed') is classified by the code on its cause", () => {
  assert.equal(classify(faultError("UND_ERR_SOCKET")).class, "connection");
});

test("401 is the credentials class", () => {
  assert.equal(classify(faultError("401")).class, "credentials");
});

test("429 and 529 are rate limits", () => {
  for (const kind of ["429", "529"] as const)
    assert.equal(classify(faultError(kind)).class, "rate_limit", kind);
});

test("no default rule reads a message: text a tool made from its input is never a provider fault", () => {
  for (const message of [
    "the model is overloaded, try again",
    "rate limit exceeded",
    "429 Too Many Requests",
    "503 service unavailable",
    "ECONNRESET",
    "socket hang up",
    "JWT expired",
  ])
    assert.equal(classify(new Error(`timezone: unknown time zone "${message}"`)).class, "unknown", message);
  assert.equal(classify(faultError("overloaded")).class, "unknown");
});

test("503 and 500 are an unavailable server (the connection class), not a rate limit", () => {
  assert.equal(classify(faultError("503")).class, "connection");
  assert.equal(
    classify(Object.assign(new Error("Internal Server Error"), { status: 500 })).class,
    "connection",
  );
});

test("a 503 with Retry-After carries the wait", () => {
  const error = Object.assign(new Error("Service Unavailable"), {
    status: 503,
    headers: { "retry-after": "3" },
  });
  assert.deepEqual(classify(error), { class: "connection", retryAfterMs: 3000 });
});

test("input and programming errors are fatal", () => {
  assert.equal(classify(faultError("400")).class, "fatal");
  assert.equal(classify(faultError("404")).class, "fatal");
  assert.equal(classify(new TypeError("x.map is not a function")).class, "fatal");
  assert.equal(classify(Object.assign(new Error("open failed"), { code: "EACCES" })).class, "fatal");
});

test("an error nothing matches is unknown (and so never retried)", () => {
  assert.equal(classify(faultError("unknown")).class, "unknown");
  assert.equal(classify("a thrown string").class, "unknown");
});

test("per-tool rules add statuses, codes and message patterns, and win over the defaults", () => {
  const rules = { rateLimit: [418, "slow down"], fatal: [503], connection: ["E_FLAKY"] };
  assert.equal(classify(Object.assign(new Error("teapot"), { status: 418 }), rules).class, "rate_limit");
  assert.equal(classify(new Error("please SLOW DOWN"), rules).class, "rate_limit");
  assert.equal(classify(faultError("503"), rules).class, "fatal");
  assert.equal(classify(Object.assign(new Error("x"), { code: "E_FLAKY" }), rules).class, "connection");
});

test("a Retry-After header in seconds is read from a rate-limit error", () => {
  const error = Object.assign(new Error("slow"), { status: 429, headers: { "Retry-After": "7" } });
  assert.deepEqual(classify(error), { class: "rate_limit", retryAfterMs: 7000 });
});

test("a Retry-After header as a Headers object or an HTTP date is understood", () => {
  const headers = new Headers({ "retry-after": "2" });
  assert.equal(classify(Object.assign(new Error("x"), { status: 503, headers })).retryAfterMs, 2000);
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", now), 30_000);
  assert.equal(parseRetryAfter("soon", now), undefined);
});
