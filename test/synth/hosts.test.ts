// Every way out of a sandbox host process: runs that ignore isolated-vm's termination (one giant native
// allocation, an endless loop of long native calls), a host killed mid-call, a host over its memory
// ceiling, a host that sends a malformed message, and a flood into one slow tool. Each time the caller
// gets the right class within its deadline plus one second, and the next call to another tool succeeds.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { classify } from "../../src/dispatch/index.ts";
import { Sandbox, SandboxError, type SandboxErrorKind } from "../../src/synth/index.ts";
import { scaled } from "../load-factor.ts";

const DEADLINE_MS = 1_000;
/** A deadline for calls that show the pool serves them, whatever the machine's pace. */
const UNREACHED_MS = 120_000;
/** On a quiet machine; scaled to the load of the moment (margin()). */
const MARGIN_MS = 1_000;

const sandbox = new Sandbox({ hosts: 2 });
after(() => sandbox.close());

const healthy = "function healthy(args) { return { echo: args.n }; }";
let n = 0;

async function nextCallSucceeds(on: Sandbox, timeoutMs?: number): Promise<void> {
  n += 1;
  const result = await on.run({
    code: healthy,
    name: "healthy",
    args: { n },
    // This call shows the pool still serves, not its pace.
    timeoutMs: timeoutMs ?? UNREACHED_MS,
  });
  assert.deepEqual(result.value, { echo: n });
}

/** How late past its deadline an answer may come, at this moment's load (test/load-factor.ts). */
function margin(): number {
  return scaled(MARGIN_MS);
}

/** The run's outcome: its error kind ("ok" when it succeeded) and how long it took. */
async function outcome(
  run: Promise<unknown>,
): Promise<{ kind: SandboxErrorKind | "ok"; ms: number; error?: SandboxError }> {
  const started = performance.now();
  try {
    await run;
    return { kind: "ok", ms: performance.now() - started };
  } catch (error) {
    assert.ok(error instanceof SandboxError, `not a SandboxError: ${error}`);
    return { kind: error.kind, ms: performance.now() - started, error };
  }
}

/** Waits until the pool is whole again and idle (a host stopping an earlier run may still be killed). */
async function settled(on: Sandbox, hosts: number): Promise<void> {
  for (;;) {
    const processes = on.hostProcesses();
    if (processes.length === hosts && processes.every((host) => host.ready && host.calls === 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const tool = (body: string) => `async function attack(args, ctx) {\n${body}\n}`;

describe("sandbox hosts", () => {
  it("keeps isolated-vm out of this process: its addon is mapped only in the hosts", async () => {
    await settled(sandbox, 2);
    await nextCallSucceeds(sandbox);
    assert.doesNotMatch(await readFile("/proc/self/maps", "utf8"), /isolated-vm/);
    const host = sandbox.hostProcesses()[0]?.pid as number;
    assert.match(await readFile(`/proc/${host}/maps`, "utf8"), /isolated-vm/);
  });

  it("ends a single giant native allocation", async () => {
    await settled(sandbox, 2);
    const late = margin();
    const { kind, ms } = await outcome(
      sandbox.run({
        code: tool("return new Array(2**32-1).fill(0).length;"),
        name: "attack",
        args: {},
        timeoutMs: DEADLINE_MS,
      }),
    );
    assert.ok(["timeout", "memory", "crashed"].includes(kind), `kind ${kind}`);
    assert.ok(ms < DEADLINE_MS + late, `took ${ms} ms`);
    await nextCallSucceeds(sandbox);
  });

  it("ends an endless loop of long native calls", async () => {
    await settled(sandbox, 2);
    const late = margin();
    const code = tool(`const parts = new Array(2**22).fill("abcdefgh"); for (;;) parts.join(",").length;`);
    const { kind, ms } = await outcome(
      sandbox.run({ code, name: "attack", args: {}, timeoutMs: DEADLINE_MS }),
    );
    assert.equal(kind, "timeout");
    assert.ok(ms < DEADLINE_MS + late, `took ${ms} ms`);
    await nextCallSucceeds(sandbox);
  });

  it("answers sandbox_crashed at once for a host killed mid-call, and replaces the host", async () => {
    await settled(sandbox, 2);
    const late = margin();
    const run = outcome(
      sandbox.run({ code: tool("for (;;);"), name: "attack", args: {}, timeoutMs: 20_000 }),
    );
    let busy: number | undefined;
    while (busy === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      busy = sandbox.hostProcesses().find((host) => host.calls > 0)?.pid;
    }
    const killed = performance.now();
    process.kill(busy, "SIGKILL");
    const { kind, error } = await run;
    assert.equal(kind, "crashed");
    assert.equal(error?.code, "SANDBOX_CRASHED");
    assert.equal(classify(error).class, "sandbox_crashed");
    // "crashed", not "timeout": the kill, not the call's 20 s deadline, ended it.
    assert.ok(performance.now() - killed < late, `answered ${performance.now() - killed} ms after the kill`);
    await nextCallSucceeds(sandbox);
    while (sandbox.hostProcesses().filter((host) => host.ready).length < 2)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(!sandbox.hostProcesses().some((host) => host.pid === busy));
  });

  it("kills a host over its memory ceiling", async () => {
    // Each run holds 40 MB (under the isolate's 64 MB limit) and never returns: together they pass 200 MB.
    const small = new Sandbox({ hosts: 2, hostMemoryLimitMb: 200 });
    try {
      await settled(small, 2);
      const late = margin();
      // Filling 320 MB takes a while on a busy machine: the runs wait long enough, scaled like the margin.
      const wait = Math.round((5_000 * late) / MARGIN_MS);
      const code = tool(`const hold = new Uint8Array(40 * 1024 * 1024).fill(1); return { then() {} };`);
      const runs = Array.from({ length: 8 }, () =>
        outcome(small.run({ code, name: "attack", args: {}, timeoutMs: wait })),
      );
      const outcomes = await Promise.all(runs);
      const crashed = outcomes.filter((o) => o.kind === "crashed");
      assert.ok(crashed.length > 0, `kinds ${outcomes.map((o) => o.kind)}`);
      assert.match(crashed[0]?.error?.message ?? "", /memory ceiling/);
      for (const o of outcomes) {
        assert.ok(["crashed", "timeout"].includes(o.kind), `kind ${o.kind}`);
        assert.ok(o.ms < wait + late, `took ${o.ms} ms`);
      }
      await nextCallSucceeds(small);
    } finally {
      small.close();
    }
  });

  it("treats a host that sends a malformed message as crashed", async () => {
    const faulty = new Sandbox({
      hosts: 1,
      hostEntry: fileURLToPath(new URL("../fixtures/corrupting-sandbox-host.ts", import.meta.url)),
    });
    try {
      for (const marker of ["corrupt-me", "garble-me"]) {
        await settled(faulty, 1);
        const { kind, error } = await outcome(
          faulty.run({ code: tool(`return "${marker}";`), name: "attack", args: {}, timeoutMs: 10_000 }),
        );
        assert.equal(kind, "crashed");
        assert.match(error?.message ?? "", /malformed/);
        await nextCallSucceeds(faulty);
      }
    } finally {
      faulty.close();
    }
  });

  it("fails waiting calls with the reason when no host can start, instead of holding them", async () => {
    const broken = new Sandbox({
      hosts: 1,
      hostEntry: fileURLToPath(new URL("./no-such-host.ts", import.meta.url)),
    });
    try {
      const { kind, error } = await outcome(
        broken.run({ code: healthy, name: "healthy", args: { n: 0 }, timeoutMs: 60_000 }),
      );
      assert.equal(kind, "crashed");
      assert.match(error?.message ?? "", /no sandbox host could be started: .*Cannot find module/);
    } finally {
      broken.close();
    }
  });

  it("serves another tool before a flood of 200 calls into one slow tool drains", async () => {
    await settled(sandbox, 2);
    // Deadlines no machine reaches: this is about order (round robin between tools), not pace.
    const slow = tool("const end = Date.now() + 100; while (Date.now() < end); return 1;");
    const answered: string[] = [];
    const flood = Array.from({ length: 200 }, () =>
      outcome(sandbox.run({ code: slow, name: "attack", args: {}, timeoutMs: UNREACHED_MS })).then((o) => {
        answered.push("flood");
        return o;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await nextCallSucceeds(sandbox);
    answered.push("other");
    const outcomes = await Promise.all(flood);
    assert.deepEqual(new Set(outcomes.map((o) => o.kind)), new Set(["ok"]));
    // Queued behind the flood (first come, first served) it would come last; round robin serves it at the
    // second free slot, while at least 180 calls, of at least 100 ms each on 16 slots, are still waiting.
    const after = answered.length - 1 - answered.indexOf("other");
    assert.ok(after > 0, `answered after all ${answered.length - 1} calls of the flood`);
  });

  it("answers every call of a flood into one slow tool by its deadline", async () => {
    await settled(sandbox, 2);
    const late = margin();
    const slow = tool("const end = Date.now() + 100; while (Date.now() < end); return 1;");
    const flood = Array.from({ length: 200 }, () =>
      outcome(sandbox.run({ code: slow, name: "attack", args: {}, timeoutMs: DEADLINE_MS })),
    );
    const outcomes = await Promise.all(flood);
    for (const o of outcomes) {
      assert.ok(["ok", "timeout"].includes(o.kind), `kind ${o.kind}`);
      assert.ok(o.ms < DEADLINE_MS + late, `took ${o.ms} ms`);
    }
    // At most 16 runs at once (2 hosts, 8 each) of at least 100 ms: within the deadline at most 160 end.
    const timeouts = outcomes.filter((o) => o.kind === "timeout").length;
    assert.ok(timeouts >= 40, `${timeouts} of 200 calls timed out`);
    // The hosts stopping the flood's runs may be replaced meanwhile: that wait is not the next call's.
    await nextCallSucceeds(sandbox);
  });
});
