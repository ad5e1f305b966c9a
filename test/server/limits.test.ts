// Per-key rate limiting and the loopback-only rule, on a service of its own (the limit is tiny here).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, test } from "node:test";
import { isLoopbackHost } from "../../src/server/index.ts";
import { fixtureTools } from "./fixture-tools.ts";
import { CLI, call, ROOT, type Service, startService, tempDir, writeCatalog } from "./harness.ts";

let service: Service;

before(async () => {
  service = await startService({
    catalog: await writeCatalog(fixtureTools("http://127.0.0.1:9")),
    env: { SWITCHBOARD_AGENT_KEYS: "key-one,key-two", SWITCHBOARD_RATE_LIMIT: "3" },
  });
});

after(async () => {
  await service?.stop();
});

test("each key has its own budget of requests per minute; health checks are not limited", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++)
    statuses.push((await call(service, "GET", "/v1/tools", { key: "key-one" })).status);
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  const limited = await call(service, "GET", "/v1/tools", { key: "key-one" });
  assert.equal(limited.status, 429);
  assert.equal(limited.body.error.code, "rate_limited");
  assert.match(limited.body.error.message, /rate limit of 3 requests per minute exceeded for this key/);
  assert.ok(Number(limited.headers.get("retry-after")) > 0);
  // Routing (whose limit is checked alongside its work) is refused for the key alike.
  const routed = await call(service, "POST", "/v1/route", { key: "key-one", body: { query: "refund" } });
  assert.equal(routed.status, 429);
  assert.equal(routed.body.error.code, "rate_limited");
  assert.equal((await call(service, "GET", "/v1/tools", { key: "key-two" })).status, 200);
  for (let i = 0; i < 5; i++) assert.equal((await call(service, "GET", "/healthz")).status, 200);
});

test("route-and-execute without an LLM reports no match when nothing clears the threshold", async () => {
  const none = await call(service, "POST", "/v1/route-and-execute", {
    key: "key-two",
    body: { query: "compose a symphony for kazoo", threshold: 0.99 },
  });
  assert.equal(none.status, 200);
  assert.equal(none.body.status, "no_match");
  assert.deepEqual(
    none.body.steps.map((s: { step: string }) => s.step),
    ["route"],
  );
});

test("one loopback test serves both the bind address and the Host header", () => {
  for (const host of ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "[::1]:7070", "localhost", "localhost:7070"])
    assert.equal(isLoopbackHost(host), true, host);
  for (const host of [
    "0.0.0.0",
    "::",
    "::ffff:127.0.0.1",
    "10.0.0.1",
    "127.0.0.1.nip.io",
    "localhost.evil",
    "",
  ])
    assert.equal(isLoopbackHost(host), false, host);
});

test("refuses to listen beyond loopback without API keys", async () => {
  const child = spawn(
    process.execPath,
    [CLI, "serve", "--host", "0.0.0.0", "--port", "0", "--data", await tempDir("open")],
    {
      cwd: ROOT,
      env: { ...process.env, SWITCHBOARD_AGENT_KEYS: "", SWITCHBOARD_MAINTAINER_KEYS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise((resolve) => child.once("exit", resolve));
  assert.equal(code, 1);
  assert.match(stderr, /refusing to serve on 0\.0\.0\.0 without API keys/);
});
