// npm run bench:sandbox — one run, JSON on stdout.
//
// cold:  synthesis of a tool never seen before (static check + compile in an isolate + first run), each
//        iteration with different code. Measured back to back, and paced (one synthesis per 25 ms, so the
//        sandbox's spare isolate is ready as it would be between real requests).
// warm:  a call to a tool already run once (Sandbox.run end to end: JSON in, checks, IPC to the host
//        process, JSON out).
// bare:  the floor: a precompiled script run with isolated-vm directly in an existing context of this
//        process, no sandbox layers and no IPC, same tool body, measured in this same run for the ratio.
// afterKill: a host is SIGKILLed while idle; time from the kill until a call to the tool it held
//        succeeds (retrying a call that lands on the dying host), per kill.
// hostile: the main event loop's delay (monitorEventLoopDelay) while hostile tools run and their hosts
//        are killed and replaced, next to the same measure over an idle stretch of the same length (on a
//        loaded machine the idle figure shows how much is the scheduler's, not the sandbox's).
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import ivm from "isolated-vm";
import { Sandbox, SandboxError, synthesize } from "../src/synth/index.ts";

const COLD_RUNS = 60;
const WARM_RUNS = 3_000;
const WARMUP = 300;
const KILLS = 5;
const TARGETS = { coldP50Ms: 10, warmP50Ms: 0.3, warmOverBare: 4, afterKillMaxMs: 300, loopDelayMaxMs: 20 };

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    n: sorted.length,
    p50: round(at(0.5)),
    p90: round(at(0.9)),
    p99: round(at(0.99)),
    mean: round(sorted.reduce((sum, x) => sum + x, 0) / sorted.length),
  };
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const toolCode = (k: number) =>
  `async function add(args, ctx) {\n  return { sum: args.a + args.b + ${k} };\n}`;
const request = (k: number) => ({
  name: "add",
  description: "Adds two numbers.",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
  code: toolCode(k),
  testArgs: { a: 1, b: 2 },
});

async function cold(sandbox: Sandbox, pacedMs: number, offset: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    if (pacedMs > 0) await sleep(pacedMs);
    const ms = await time(async () => {
      const outcome = await synthesize(request(offset + i), { sandbox });
      if (!outcome.ok) throw new Error(`synthesis failed: ${JSON.stringify(outcome)}`);
    });
    samples.push(ms);
  }
  return samples;
}

async function warm(sandbox: Sandbox): Promise<number[]> {
  const code = toolCode(0);
  const call = () => sandbox.run({ code, name: "add", args: { a: 1, b: 2 } });
  for (let i = 0; i < WARMUP; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) samples.push(await time(call));
  return samples;
}

async function bare(): Promise<number[]> {
  const isolate = new ivm.Isolate({ memoryLimit: 64 });
  const context = await isolate.createContext();
  await context.eval(toolCode(0));
  const script = await isolate.compileScript("add({ a: 1, b: 2 })");
  const call = () => script.run(context, { promise: true, copy: true });
  for (let i = 0; i < WARMUP; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) samples.push(await time(call));
  isolate.dispose();
  return samples;
}

async function untilSuccess(sandbox: Sandbox, code: string): Promise<void> {
  for (;;) {
    try {
      await sandbox.run({ code, name: "add", args: { a: 1, b: 2 } });
      return;
    } catch (error) {
      if (!(error instanceof SandboxError) || error.kind !== "crashed") throw error;
    }
  }
}

async function afterKill(sandbox: Sandbox): Promise<number[]> {
  const code = toolCode(0);
  const samples: number[] = [];
  for (let i = 0; i < KILLS; i++) {
    await untilSuccess(sandbox, code);
    // Let the replacement of the previous kill get ready: one kill at a time is what is measured.
    while (sandbox.hostProcesses().some((host) => !host.ready)) await sleep(20);
    const pid = sandbox.hostProcesses()[0]?.pid as number;
    const started = performance.now();
    process.kill(pid, "SIGKILL");
    await untilSuccess(sandbox, code);
    samples.push(performance.now() - started);
  }
  return samples;
}

const hostileTools = [
  "async function t(args) { return new Array(2**32-1).fill(0).length; }",
  `async function t(args) { return JSON.parse("[" + "0,".repeat(1e8) + "0]").length; }`,
  `async function t(args) { const a = new Array(2**24).fill("abcdefgh"); for (;;) a.join(","); }`,
  `async function t(args) { const s = "\u1E9B\u0323".repeat(2**24); for (;;) s.normalize("NFD"); }`,
  "async function t(args) { for (;;); }",
];

function delays(histogram: ReturnType<typeof monitorEventLoopDelay>) {
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  return { max: ms(histogram.max), p99: ms(histogram.percentile(99)), mean: ms(histogram.mean) };
}

async function hostile(sandbox: Sandbox) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const started = performance.now();
  const kinds: string[] = [];
  for (const code of hostileTools) {
    const flood = Array.from({ length: 20 }, () =>
      sandbox.run({ code, name: "t", args: {}, timeoutMs: 1_000 }).catch((e: SandboxError) => e.kind),
    );
    for (const kind of await Promise.all(flood)) kinds.push(String(kind));
  }
  const elapsed = performance.now() - started;
  histogram.disable();
  const idle = monitorEventLoopDelay({ resolution: 1 });
  idle.enable();
  await sleep(elapsed);
  idle.disable();
  const outcomes: Record<string, number> = {};
  for (const kind of kinds) outcomes[kind] = (outcomes[kind] ?? 0) + 1;
  return {
    calls: kinds.length,
    outcomes,
    ms: Math.round(elapsed),
    loopDelay: delays(histogram),
    idleLoopDelay: delays(idle),
  };
}

const sandbox = new Sandbox();
// The first isolate of a process pays one-off V8 set-up; not what a cold synthesis costs in a server.
await synthesize(request(-1), { sandbox });
while (sandbox.hostProcesses().some((host) => !host.ready)) await sleep(20);
await sleep(500); // the hosts' spare isolates
const coldBackToBack = stats(await cold(sandbox, 0, 0));
const coldPaced = stats(await cold(sandbox, 25, COLD_RUNS));
const warmStats = stats(await warm(sandbox));
const bareStats = stats(await bare());
const afterKillStats = stats(await afterKill(sandbox));
const hostileStats = await hostile(sandbox);
sandbox.close();

const ratio = Math.round((warmStats.p50 / bareStats.p50) * 100) / 100;
process.stdout.write(
  `${JSON.stringify(
    {
      benchmark: "sandbox",
      node: process.version,
      unit: "ms",
      cold: { backToBack: coldBackToBack, paced25ms: coldPaced },
      warm: warmStats,
      bare: bareStats,
      warmOverBare: ratio,
      hosts: sandbox.hostProcesses().length,
      afterKill: afterKillStats,
      hostile: hostileStats,
      targets: TARGETS,
      meets: {
        coldP50BackToBack: coldBackToBack.p50 <= TARGETS.coldP50Ms,
        coldP50Paced: coldPaced.p50 <= TARGETS.coldP50Ms,
        warmP50: warmStats.p50 <= TARGETS.warmP50Ms,
        warmOverBare: ratio <= TARGETS.warmOverBare,
        afterKillMax: afterKillStats.p99 <= TARGETS.afterKillMaxMs,
        loopDelayMax: hostileStats.loopDelay.max <= TARGETS.loopDelayMaxMs,
      },
    },
    null,
    2,
  )}\n`,
);
