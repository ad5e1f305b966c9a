// What one agent key can do to another's calls, through the real service (`switchboard serve`, driven over
// HTTP): caller text never opens a breaker, a flood queues behind the other keys' calls in turn, a call
// waiting for its retry holds no slot, and the per-key limit and retry budget hold. The providers are the
// bundled tools' real code in the real sandbox and a loopback stand-in upstream (held-upstream.ts) that
// records the order in which the dispatcher let calls out; every assertion is on order and counts.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { loadCatalog } from "../../src/catalog/index.ts";
import { call, ROOT, type Service, startService, writeCatalog } from "../server/harness.ts";
import { type HeldUpstream, startHeldUpstream } from "./held-upstream.ts";

const KEYS = [
  "key-attacker",
  "key-other",
  "key-slow",
  "key-limit",
  "key-spender",
  "key-thrifty",
  "key-sandbox",
];
const [ATTACKER, OTHER, SLOW, LIMITED, SPENDER, THRIFTY, SANDBOXED] = KEYS as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const PER_KEY_CALLS = 48;
const KEY_RETRY_TOKENS = 12;

let upstream: HeldUpstream;
let service: Service;

/** A bundled sandbox tool with its file's code inline, so it can sit in this test's own catalog. */
async function bundled(name: string): Promise<object> {
  const tools = await loadCatalog(join(ROOT, "catalog"));
  const tool = tools.find((t) => t.name === name);
  const binding = tool?.binding;
  assert.ok(tool && binding?.type === "sandbox" && binding.file, `${name} is a bundled sandbox tool`);
  const { file, ...rest } = binding;
  // A deadline no machine reaches: a timeout is the provider's fault, and on a busy machine the tool's own
  // 2 s would count towards its breaker, which this file shows caller text never opens.
  return {
    ...tool,
    binding: { ...rest, code: await readFile(file, "utf8") },
    policy: { ...tool.policy, timeoutMs: 600_000 },
  };
}

function standInTool(name: string, path: string, policy: object = {}): object {
  return {
    name,
    description: `Reads ${path} from the loopback stand-in upstream.`,
    annotations: { readOnlyHint: true },
    inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
    binding: {
      type: "http",
      method: "GET",
      url: `${upstream.url}${path}`,
      query: { who: "{who}" },
      timeoutMs: 600_000,
    },
    policy: { timeoutMs: 600_000, ...policy },
  };
}

before(async () => {
  upstream = await startHeldUpstream();
  const catalog = await writeCatalog([
    await bundled("sunrise_sunset"),
    await bundled("convert_units"),
    standInTool("held_read", "/held"),
    {
      name: "upstream_sandbox",
      description: "A sandbox tool that reads the stand-in upstream through ctx.fetch.",
      annotations: { readOnlyHint: true },
      inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
      binding: {
        type: "sandbox",
        code: `async function upstream_sandbox(args, ctx) {
          if (args.who.startsWith("bad")) throw new Error("who: no such caller " + JSON.stringify(args.who));
          const response = await ctx.fetch(${JSON.stringify(upstream.url)} + "/fail?who=" + encodeURIComponent(args.who));
          if (!response.ok) throw new Error("the upstream answered " + response.status + " for " + args.who);
          return { ok: true };
        }`,
        capabilities: { fetch: { allow: [`${upstream.url}/`], timeoutMs: 60_000 } },
      },
      policy: { timeoutMs: 120_000, retry: { retries: 2, baseMs: 0, maxMs: 0 } },
    },
    standInTool("fast_read", "/fast"),
    // One retry, a minute later: long enough that the test is over before it is made.
    standInTool("slow_retry_read", "/fail", {
      retry: { retries: 1, baseMs: 60_000, maxMs: 60_000, jitter: 0 },
      breaker: { failureRate: 1, windowSize: 1000, minCalls: 1000 },
    }),
    standInTool("eager_retry_read", "/fail", {
      retry: { retries: 5, baseMs: 0, maxMs: 0 },
      breaker: { failureRate: 1, windowSize: 1000, minCalls: 1000 },
    }),
  ]);
  service = await startService({
    catalog,
    env: {
      SWITCHBOARD_AGENT_KEYS: KEYS.join(","),
      SWITCHBOARD_RATE_LIMIT: "1000000",
      // A hair-trigger breaker (5 faults in a row) for every tool that sets none; held calls may wait long
      // on a loaded machine, so deadlines are generous; the key's retry budget is small and never refills.
      SWITCHBOARD_DISPATCH: JSON.stringify({
        breaker: { consecutiveFailures: 5 },
        deadlineMs: 600_000,
        queueTimeoutMs: 600_000,
        perKeyCalls: PER_KEY_CALLS,
        keyRetryBudget: { capacity: KEY_RETRY_TOKENS, ratio: 0, perSecond: 0 },
      }),
    },
  });
});

after(async () => {
  upstream?.release();
  await service?.stop();
  await upstream?.close();
});

interface Result {
  id: string;
  status: string;
  error?: { class: string; message: string };
  provenance: { attempts: number; breakers: Record<string, string> };
}

async function execute(key: string, calls: { id: string; name: string; arguments: object }[]) {
  const answer = await call(service, "POST", "/v1/execute", { key, body: { calls } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.results as Result[];
}

const batch = (name: string, who: string, n: number, prefix = who) =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}-${i}`, name, arguments: { who } }));

/** Resolves once `key` has a call of this id in progress (it is queued or running in the dispatcher). */
async function inProgress(key: string, id: string): Promise<void> {
  for (;;) {
    const answer = await call(service, "GET", "/v1/executions", { key });
    const executions = (answer.body?.executions ?? []) as { id: string; status: string }[];
    if (executions.some((e) => e.id === id && e.status === "in_progress")) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test("caller text never opens a breaker: trigger words as arguments, on two tools, are the caller's failures", async () => {
  const triggers = [
    "overloaded",
    "rate limit exceeded",
    "429 too many requests",
    "503 service unavailable",
    "ECONNRESET",
    "socket hang up",
  ];
  const probes = [
    { name: "sunrise_sunset", args: (word: string) => ({ latitude: 51.5, longitude: 0, timezone: word }) },
    { name: "convert_units", args: (word: string) => ({ value: 1, from: word, to: "km" }) },
  ];
  for (const probe of probes) {
    // More than the breaker's count of faults in a row for each word: had they counted, it would open.
    const calls = triggers.flatMap((word, w) =>
      Array.from({ length: 6 }, (_, i) => ({
        id: `${probe.name}-${w}-${i}`,
        name: probe.name,
        arguments: probe.args(word),
      })),
    );
    for (let start = 0; start < calls.length; start += 18) {
      for (const result of await execute(ATTACKER, calls.slice(start, start + 18))) {
        assert.notEqual(result.status, "completed", `${result.id} fails on its argument`);
        assert.notEqual(result.error?.class, "breaker_open", `${result.id}: ${result.error?.message}`);
        assert.equal(result.provenance.attempts, 1, `${result.id} is not retried: ${result.error?.message}`);
        for (const [provider, state] of Object.entries(result.provenance.breakers))
          assert.equal(state, "closed", `${result.id}: ${provider}`);
      }
    }
  }
  const [sun, units] = await execute(OTHER, [
    { id: "sun", name: "sunrise_sunset", arguments: { latitude: 51.5, longitude: 0, date: "2024-06-21" } },
    { id: "units", name: "convert_units", arguments: { value: 1, from: "mi", to: "km" } },
  ]);
  assert.equal(sun?.status, "completed", JSON.stringify(sun?.error));
  assert.equal(units?.status, "completed", JSON.stringify(units?.error));
});

test("a flood from one key does not queue another key's call behind it: the slot queue serves keys in turn", async () => {
  const before = upstream.arrivals.length;
  const flood = execute(ATTACKER, batch("held_read", "flood", 40));
  // Ten calls hold the ten global slots at the stand-in; the other thirty queue in the dispatcher.
  await upstream.arrived(before + 10);
  const mine = execute(OTHER, [{ id: "mine", name: "fast_read", arguments: { who: "other" } }]);
  await inProgress(OTHER, "mine");
  // Free the flood's slots one at a time: each goes to the next key in turn.
  while (upstream.count("other") === 0) {
    const arrived = upstream.arrivals.length;
    upstream.release(1);
    await upstream.arrived(arrived + 1);
  }
  const [result] = await mine;
  assert.equal(result?.status, "completed", JSON.stringify(result?.error));
  const floodLetOut = upstream.arrivals.slice(before).indexOf("other");
  assert.ok(
    floodLetOut <= 10 + 2,
    `the other key's call went out after ${floodLetOut} of the flood's calls (10 running, at most 2 freed slots)`,
  );
  assert.ok(
    upstream.count("flood") <= 12,
    "most of the flood was still queued when the other key was served",
  );
  upstream.release();
  while (upstream.count("flood") < 40) {
    await upstream.arrived(upstream.arrivals.length + 1);
    upstream.release();
  }
  const results = await flood;
  assert.deepEqual(
    results.map((r) => r.status),
    Array(40).fill("completed"),
  );
});

test("a call waiting for its retry holds no slot: another key's call runs while ten calls back off", async () => {
  const before = upstream.arrivals.length;
  const waiting = execute(SLOW, batch("slow_retry_read", "slow", 10));
  waiting.catch(() => {}); // still backing off when the service stops
  await upstream.arrived(before + 10);
  const [result] = await execute(OTHER, [
    { id: "during-backoff", name: "fast_read", arguments: { who: "during" } },
  ]);
  assert.equal(result?.status, "completed", JSON.stringify(result?.error));
  assert.equal(
    upstream.count("slow"),
    10,
    "the other key's call was served while all ten were still waiting for their retry",
  );
});

test("the per-key limit: calls over it fail at once with key_limit, and only that key's", async () => {
  const before = upstream.arrivals.length;
  const first = execute(LIMITED, batch("held_read", "limited", PER_KEY_CALLS, "first"));
  await upstream.arrived(before + 10);
  // The key has its limit under way (ten held at the stand-in, the rest queued): three more are refused.
  const second = await execute(LIMITED, batch("fast_read", "limited-more", 3, "second"));
  const refused = second.filter((r) => r.error?.class === "key_limit");
  assert.equal(refused.length, 3, JSON.stringify(second));
  assert.match(refused[0]?.error?.message ?? "", /48 calls in flight or queued/);
  assert.equal(upstream.count("limited-more"), 0);
  assert.ok(
    refused.every((r) => r.provenance.attempts === 0),
    "a refused call runs nothing",
  );
  // Another key is not limited by this one's calls.
  const other = execute(OTHER, batch("fast_read", "other-during-limit", 3));
  while (
    upstream.held() > 0 ||
    upstream.count("limited") < PER_KEY_CALLS ||
    upstream.count("other-during-limit") < 3
  ) {
    upstream.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.deepEqual(
    (await other).map((r) => r.status),
    ["completed", "completed", "completed"],
  );
  assert.ok((await first).every((r) => r.status === "completed"));
});

test("retries count against the caller's own retry budget: one key's failures cannot spend another's", async () => {
  const spent = await execute(SPENDER, batch("eager_retry_read", "spender", 5));
  assert.ok(spent.every((r) => r.status === "failed"));
  // Five calls wanting five retries each; the key's budget holds twelve tokens and never refills.
  assert.equal(upstream.count("spender"), 5 + KEY_RETRY_TOKENS);
  const [thrifty] = await execute(THRIFTY, batch("eager_retry_read", "thrifty", 1));
  assert.equal(thrifty?.provenance.attempts, 6, "another key's call still gets all five retries");
  assert.equal(upstream.count("thrifty"), 6);
});

test("a sandbox tool's upstream failure is its provider's fault, said by the sandbox and not by the tool's text", async () => {
  // Caller text first: the tool throws on its argument, mentioning an overload; not retried, not counted.
  const bad = await execute(
    SANDBOXED,
    Array.from({ length: 8 }, (_, i) => ({
      id: `bad-${i}`,
      name: "upstream_sandbox",
      arguments: { who: `bad: 503 service unavailable, overloaded ${i}` },
    })),
  );
  for (const result of bad) {
    assert.notEqual(result.status, "completed");
    assert.equal(result.provenance.attempts, 1, `${result.id}: ${result.error?.message}`);
    assert.notEqual(result.error?.class, "breaker_open");
  }
  // Its upstream answering 503 through ctx.fetch: retried, and counted until the breaker (5 in a row) opens.
  const [first] = await execute(SANDBOXED, batch("upstream_sandbox", "sandboxed", 1));
  assert.equal(first?.provenance.attempts, 3, JSON.stringify(first?.error));
  assert.equal(first?.error?.class, "connection");
  assert.equal(upstream.count("sandboxed"), 3);
  await execute(SANDBOXED, batch("upstream_sandbox", "sandboxed", 1, "second"));
  const [third] = await execute(SANDBOXED, batch("upstream_sandbox", "sandboxed", 1, "third"));
  assert.equal(third?.error?.class, "breaker_open", JSON.stringify(third?.error));
});
