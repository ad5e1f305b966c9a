// npm run bench:sandbox — one run, JSON on stdout.
//
// cold:  synthesis of a tool never seen before (static check + compile in an isolate + first run), each
//        iteration with different code. Measured back to back, and paced (one synthesis per 25 ms, so the
//        sandbox's spare isolate is ready as it would be between real requests).
// warm:  a call to a tool already run once (Sandbox.run end to end: JSON in, checks, JSON out).
// bare:  the floor: a precompiled script run with isolated-vm directly in an existing context, no
//        sandbox layers, same tool body, measured in this same run for the ratio.
import { setTimeout as sleep } from "node:timers/promises";
import ivm from "isolated-vm";
import { Sandbox, synthesize } from "../src/synth/index.ts";

const COLD_RUNS = 60;
const WARM_RUNS = 3_000;
const WARMUP = 300;
const TARGETS = { coldP50Ms: 10, warmP50Ms: 0.5, warmOverBare: 5 };

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

const sandbox = new Sandbox();
// The first isolate of a process pays one-off V8 set-up; not what a cold synthesis costs in a server.
await synthesize(request(-1), { sandbox });
const coldBackToBack = stats(await cold(sandbox, 0, 0));
const coldPaced = stats(await cold(sandbox, 25, COLD_RUNS));
const warmStats = stats(await warm(sandbox));
const bareStats = stats(await bare());
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
      targets: TARGETS,
      meets: {
        coldP50BackToBack: coldBackToBack.p50 <= TARGETS.coldP50Ms,
        coldP50Paced: coldPaced.p50 <= TARGETS.coldP50Ms,
        warmP50: warmStats.p50 <= TARGETS.warmP50Ms,
        warmOverBare: ratio <= TARGETS.warmOverBare,
      },
    },
    null,
    2,
  )}\n`,
);
