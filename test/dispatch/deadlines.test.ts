import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { DeadlineTimer } from "../../src/dispatch/deadlines.ts";

/** Resolves with the expiry order once `count` deadlines have expired. */
function recorder(count: number) {
  const expired: string[] = [];
  let done: (order: string[]) => void = () => {};
  const all = new Promise<string[]>((resolve) => {
    done = resolve;
  });
  const target = (name: string) => ({
    expired: () => {
      expired.push(name);
      if (expired.length === count) done(expired);
    },
  });
  return { target, all };
}

test("deadlines of different durations expire earliest first, each once", async () => {
  const timer = new DeadlineTimer();
  const { target, all } = recorder(3);
  timer.add(40, target("40 ms"));
  timer.add(5, target("5 ms"));
  timer.add(20, target("20 ms"));
  assert.deepEqual(await all, ["5 ms", "20 ms", "40 ms"]);
  assert.equal(timer.pending, 0);
});

test("a timer that fires late (a busy process) still expires the due deadlines earliest first", async () => {
  const timer = new DeadlineTimer();
  const { target, all } = recorder(3);
  timer.add(40, target("40 ms"));
  timer.add(5, target("5 ms"));
  timer.add(20, target("20 ms"));
  // Block the event loop past every deadline, so that all three are due when the timer first fires.
  const until = performance.now() + 60;
  while (performance.now() < until);
  assert.deepEqual(await all, ["5 ms", "20 ms", "40 ms"]);
});

test("a cancelled deadline never expires, and the others still do", async () => {
  const timer = new DeadlineTimer();
  const { target, all } = recorder(2);
  const cancelled = timer.add(5, target("cancelled"));
  timer.add(5, target("first"));
  timer.add(30, target("second"));
  cancelled.cancel();
  cancelled.cancel(); // harmless twice
  assert.equal(timer.pending, 2);
  assert.deepEqual(await all, ["first", "second"]);
});

test("a deadline added from an expiry is armed and expires too", async () => {
  const timer = new DeadlineTimer();
  const { target, all } = recorder(2);
  const next = target("added later");
  const first = target("first");
  timer.add(5, {
    expired: () => {
      first.expired();
      timer.add(5, next);
    },
  });
  assert.deepEqual(await all, ["first", "added later"]);
});

test("a duration whose deadlines have all expired works again for a later deadline", {
  timeout: 5_000,
}, async () => {
  const timer = new DeadlineTimer();
  const once = recorder(1);
  timer.add(5, once.target("first"));
  assert.deepEqual(await once.all, ["first"]);
  // The expired duration's list is gone by now; a new deadline of the same duration must still expire.
  const again = recorder(1);
  timer.add(5, again.target("second"));
  assert.deepEqual(await again.all, ["second"]);
  assert.equal(timer.pending, 0);
});

/** Runs a dispatcher in a child process and returns what it printed; a hang fails at the 20 s kill. */
function runChild(script: string): Promise<string> {
  const dispatch = new URL("../../src/dispatch/index.ts", import.meta.url).href;
  const source = `import { Dispatcher } from ${JSON.stringify(dispatch)};\n${script}`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", source], { timeout: 20_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout.trim()),
    );
  });
}

const childTool = `const tool = { name: "t", description: "t", inputSchema: { type: "object" },
  annotations: { readOnlyHint: true }, policy: { timeoutMs: TIMEOUT, retry: { retries: 0 } } };
const tools = { get: () => tool };`;

test("an idle deadline timer does not hold the process open", async () => {
  // A one-hour timeout: if the finished call's deadline held the process, the child would be killed.
  const out = await runChild(`${childTool.replace("TIMEOUT", "3600000")}
const d = new Dispatcher({ tools, providers: () => [{ id: "p", invoke: async () => "ok" }] });
const [r] = await d.execute([{ id: "1", name: "t" }]);
console.log(r.status);`);
  assert.equal(out, "completed");
});

test("a pending deadline holds the process open until it expires", async () => {
  // The provider never answers and nothing else keeps the child alive: only the deadline can end the call.
  const out = await runChild(`${childTool.replace("TIMEOUT", "50")}
const d = new Dispatcher({ tools, providers: () => [{ id: "p", invoke: () => new Promise(() => {}) }] });
const [r] = await d.execute([{ id: "1", name: "t" }]);
console.log(r.status);`);
  assert.equal(out, "timeout");
});
