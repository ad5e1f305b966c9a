// The escape and abuse suite against the real entry points: 60 hostile tools, each synthesized through
// the CLI (`switchboard synth --json`, a process per case) and through a running service
// (POST /v1/tools/synthesize). Prints one JSON report: per case and entry point the outcome and time,
// whether every case ended within its deadline plus two seconds, the service's resident memory before and
// after, and how long SIGTERM takes to stop it while hostile runs are in flight.
//
//   node scripts/abuse-sandbox.ts [--only cli|service]
//
// Loopback only; everything stops by itself. A case is "contained" when it is refused or fails with a
// structured error, or succeeds without returning the ESCAPED marker its code returns on reaching
// something it should not.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "bin", "switchboard.js");
/** The CLI's synthesis runs with the sandbox's default deadline; the service's with policy.timeoutMs. */
const CLI_DEADLINE_MS = 5_000;
const SERVICE_DEADLINE_MS = 2_000;
const MARGIN_MS = 2_000;
const TERM_LIMIT_MS = 15_000;

interface Case {
  label: string;
  body: string;
  capabilities?: object;
}

const C = `const c = "constr" + "uctor";`;
const fetchGrant = {
  fetch: { allow: ["http://127.0.0.1:9/"], methods: ["GET", "POST"], maxBytes: 1000, timeoutMs: 500 },
};
const htmlGrant = { html: true };

const cases: Case[] = [
  // Reaching code generation, the host or the global object
  {
    label: "Function constructor through a computed chain",
    body: `${C} return (() => {})[c][c]("return 'ESCAPED'")();`,
  },
  {
    label: "AsyncFunction constructor",
    body: `${C} return await Object.getPrototypeOf(async () => {})[c]("return 'ESCAPED'")();`,
  },
  {
    label: "GeneratorFunction constructor",
    body: `${C} return Object.getPrototypeOf(function* () {})[c]("yield 'ESCAPED'")().next().value;`,
  },
  { label: "require and process by name", body: "return [typeof require, typeof process];" },
  {
    label: "the global object through a sloppy function",
    body: `const f = function () { return this; }; return f() === undefined ? "strict" : "ESCAPED";`,
  },
  {
    label: "capabilities that were not granted",
    body: `return ctx.fetch || ctx.html ? "ESCAPED" : Reflect.ownKeys(ctx).map(String);`,
  },
  {
    label: "WebAssembly, SharedArrayBuffer, Atomics",
    body: `const g = Object.getPrototypeOf(Object.getPrototypeOf(ctx)) ?? {}; return ["WebAss" + "embly", "Atom" + "ics"].some((n) => n in g) ? "ESCAPED" : "absent";`,
  },
  {
    label: "overwriting Array.prototype.push",
    body: `const A = Array; A["proto" + "type"].push = () => 0; return "ESCAPED";`,
  },
  {
    label: "Error.prepareStackTrace for host frames",
    body: `const E = Error; E["prepare" + "StackTrace"] = (e, s) => s; return "ESCAPED";`,
  },
  {
    label: "host frames in a stack trace",
    body: `const s = String(new Error("x").stack); return /node:|\\.ts:|node_modules/.test(s) ? "ESCAPED" : "clean";`,
  },
  {
    label: "the console's Function constructor",
    body: `${C} return ctx.console.log[c]("return 'ESCAPED'")();`,
  },
  { label: "dynamic import", body: `return await import("node:fs");` },
  {
    label: "eval through an alias",
    body: `const g = [].at[("constr" + "uctor")]; return g("return 'ESCAPED'")();`,
  },
  {
    label: "a Symbol.species subclass in the result",
    body: "class X extends Array {} return X.from([1, 2]);",
  },
  // Poisoned results
  {
    label: "prototype pollution through __proto__",
    body: `return JSON.parse('{"__proto__": {"polluted": true}}');`,
  },
  { label: "a getter in the result", body: `return { get secret() { return "ESCAPED"; } };` },
  {
    label: "a proxy in the result",
    body: "const P = Proxy; return { inner: new P({}, { ownKeys: () => [] }) };",
  },
  { label: "a toJSON function", body: `return { toJSON() { return "ESCAPED"; } };` },
  { label: "a cycle", body: "const a = { list: [] }; a.list.push(a); return a;" },
  { label: "a symbol", body: `return { s: Symbol("x") };` },
  {
    label: "a thrown proxy whose traps loop",
    body: "const P = Proxy; throw new P({}, { get() { for (;;); }, getOwnPropertyDescriptor() { for (;;); } });",
  },
  // Capabilities abused
  {
    label: "fetch outside the allowlist (metadata address)",
    body: `return await ctx.fetch("http://169.254.169.254/latest/meta-data/");`,
    capabilities: fetchGrant,
  },
  {
    label: "fetch of a file URL",
    body: `return await ctx.fetch("file:///etc/passwd");`,
    capabilities: fetchGrant,
  },
  {
    label: "fetch with credentials in the URL",
    body: `return await ctx.fetch("http://user:pw@127.0.0.1:9/x");`,
    capabilities: fetchGrant,
  },
  {
    label: "fetch with a method not granted",
    body: `return await ctx.fetch("http://127.0.0.1:9/x", { method: "DELETE" });`,
    capabilities: fetchGrant,
  },
  {
    label: "a flood of 500 fetches",
    body: `await Promise.all(Array.from({ length: 500 }, () => ctx.fetch("http://127.0.0.1:9/x").catch(() => 0))); return 1;`,
    capabilities: fetchGrant,
  },
  {
    label: "html of 5 MB of markup",
    body: `return await ctx.html("<p>x</p>".repeat(650000), "p");`,
    capabilities: htmlGrant,
  },
  {
    label: "html with a deeply nested selector",
    body: `return await ctx.html("<p>x</p>", ":not(".repeat(5000) + "p" + ")".repeat(5000));`,
    capabilities: htmlGrant,
  },
  {
    label: "a flood of html parses",
    body: `const m = "<div><p>x</p></div>".repeat(50000); await Promise.all(Array.from({ length: 200 }, () => ctx.html(m, "p"))); return 1;`,
    capabilities: htmlGrant,
  },
  // Exhaustion inside the isolate
  { label: "a synchronous infinite loop", body: "for (;;);" },
  { label: "an async microtask loop", body: "for (;;) await null;" },
  {
    label: "a self-requeuing promise chain",
    body: "const step = () => Promise.resolve().then(step); return step();",
  },
  {
    label: "a background microtask loop after returning",
    body: "(async () => { for (;;) await null; })(); return 1;",
  },
  { label: "a thenable that never settles", body: "return { then() {} };" },
  { label: "a catastrophic regular expression", body: `return /^(a+)+$/.test("a".repeat(40) + "b");` },
  {
    label: "a memory bomb of arrays",
    body: "const hoard = []; for (let i = 0; ; i++) hoard.push(new Array(1e5).fill(i));",
  },
  {
    label: "a memory bomb of strings",
    body: `const hoard = []; for (let i = 0; ; i++) hoard.push("x".repeat(1e7 + i));`,
  },
  {
    label: "string doubling",
    body: `let s = "x"; const keep = []; for (;;) { s = s + s; keep.push(s + "y"); }`,
  },
  { label: "a 1 GB ArrayBuffer", body: "return new ArrayBuffer(1024 * 1024 * 1024).byteLength;" },
  { label: "deep recursion", body: "const down = (n) => down(n + 1) + 1; return down(0);" },
  {
    label: "a deeply nested result",
    body: "let v = []; for (let i = 0; i < 100000; i++) v = [v]; return v;",
  },
  { label: "a 100 MB output", body: `return "x".repeat(100 * 1024 * 1024);` },
  { label: "a sparse array of a billion elements", body: "const a = []; a.length = 1e9; return a;" },
  { label: "an error message of 50 MB", body: `throw new Error("e".repeat(50 * 1024 * 1024));` },
  {
    label: "a console flood",
    body: `for (let i = 0; i < 10000; i++) ctx.console.log("x".repeat(10000)); return 1;`,
  },
  // Long native calls that ignore isolated-vm's termination
  { label: "one giant native fill", body: "return new Array(2 ** 32 - 1).fill(0).length;" },
  {
    label: "JSON.parse of a 10^8-element array",
    body: `return JSON.parse("[" + "0,".repeat(1e8) + "0]").length;`,
  },
  {
    label: "an endless loop of joins",
    body: `const a = new Array(2 ** 24).fill("abcdefgh"); for (;;) a.join(",");`,
  },
  {
    label: "an endless loop of sorts",
    body: "const a = []; for (let i = 0; i < 3e6; i++) a.push(String((i * 7919) % 1000003)); for (;;) a.slice().sort();",
  },
  {
    label: "an endless loop of normalize",
    body: `const s = "\\u1E9B\\u0323".repeat(2 ** 24); for (;;) s.normalize("NFD");`,
  },
  {
    label: "an endless loop of toUpperCase",
    body: `const s = "a".repeat(2 ** 27); for (;;) s.toUpperCase().length;`,
  },
  {
    label: "Array.from of 2^30 elements",
    body: "return Array.from({ length: 2 ** 30 }, (_, i) => i).length;",
  },
  { label: "a string of 2^29 characters", body: `return "x".repeat(2 ** 29).length;` },
  { label: "a 2 GB typed array filled", body: "return new Uint8Array(2 ** 31).fill(1).length;" },
  { label: "map over 10^8 elements", body: "return new Array(1e8).fill(0).map((x, i) => i).length;" },
  {
    label: "flat(Infinity) of deep nesting",
    body: "let a = [1]; for (let i = 0; i < 1e6; i++) a = [a]; return a.flat(Infinity).length;",
  },
  {
    label: "replaceAll with a callback on a huge string",
    body: `const s = "ab".repeat(2 ** 24); for (;;) s.replaceAll("a", () => "cc").length;`,
  },
  {
    label: "collator sorts of a million strings",
    body: "const c = new Intl.Collator(); const a = []; for (let i = 0; i < 1e6; i++) a.push(String(i)); for (;;) a.slice().sort(c.compare);",
  },
  {
    label: "typed-array sorts of 2^26 elements",
    body: "const a = new Float64Array(2 ** 26); for (;;) a.sort();",
  },
  {
    label: "a shared-nothing worker spawn attempt",
    body: `const W = globalThis["Wor" + "ker"]; return W ? "ESCAPED" : "absent";`,
  },
];

if (cases.length !== 60) throw new Error(`expected 60 cases, have ${cases.length}`);

const code = (i: number, body: string) => `async function probe_${i}(args, ctx) {\n${body}\n}`;

interface Outcome {
  case: number;
  label: string;
  status: string;
  stage?: string;
  kind?: string;
  /** Through the service: the request's time. Through the CLI: the time the CLI reports for itself. */
  ms: number;
  /** CLI only: from the report on stdout to the process's exit, and from spawn to exit. */
  exitLagMs?: number;
  wallMs?: number;
  withinDeadline: boolean;
  escaped: boolean;
}

function summarise(outcomes: Outcome[], deadlineMs: number) {
  const kinds: Record<string, number> = {};
  for (const o of outcomes) {
    const key = o.status === "ok" ? "ok" : `${o.stage}/${o.kind}`;
    kinds[key] = (kinds[key] ?? 0) + 1;
  }
  return {
    cases: outcomes.length,
    deadlineMs,
    allWithinDeadlinePlus2s: outcomes.every((o) => o.withinDeadline),
    late: outcomes.filter((o) => !o.withinDeadline).map((o) => `${o.case} ${o.label} (${o.ms} ms)`),
    escaped: outcomes.filter((o) => o.escaped).map((o) => `${o.case} ${o.label}`),
    slowestMs: Math.max(...outcomes.map((o) => o.ms)),
    ...(outcomes[0]?.exitLagMs === undefined
      ? {}
      : {
          slowestExitLagMs: Math.max(...outcomes.map((o) => o.exitLagMs ?? 0)),
          slowestWallMs: Math.max(...outcomes.map((o) => o.wallMs ?? 0)),
        }),
    outcomes: kinds,
  };
}

async function viaCli(dir: string): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const runOne = async (i: number) => {
    const attack = cases[i] as Case;
    const file = join(dir, `probe_${i}.js`);
    await writeFile(file, code(i, attack.body));
    const args = [CLI, "synth", "--name", `probe_${i}`, "--code", file, "--args", "{}", "--json"];
    if (attack.capabilities) {
      const schema = join(dir, `probe_${i}.schema.json`);
      await writeFile(
        schema,
        JSON.stringify({ inputSchema: { type: "object" }, capabilities: attack.capabilities }),
      );
      args.push("--schema", schema);
    }
    // The CLI reports its own time from the start of the command (`ms`, Node's start-up excluded); the
    // process must then exit promptly too: both are measured.
    const started = performance.now();
    const { stdout, reportedAt, exitedAt } = await new Promise<{
      stdout: string;
      reportedAt: number;
      exitedAt: number;
    }>((resolve) => {
      const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "ignore"] });
      let out = "";
      let reportedAt = Number.NaN;
      const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk;
        reportedAt = performance.now();
      });
      child.once("exit", () => {
        clearTimeout(killer);
        resolve({ stdout: out, reportedAt, exitedAt: performance.now() });
      });
    });
    let report: { status?: string; error?: { stage: string; kind: string }; result?: unknown; ms?: number } =
      {};
    try {
      report = JSON.parse(stdout);
    } catch {
      report = { status: "no-report" };
    }
    const ms = Math.round(report.ms ?? Number.POSITIVE_INFINITY);
    const exitLagMs = Math.round(exitedAt - reportedAt);
    outcomes.push({
      case: i,
      label: attack.label,
      status: report.status ?? "no-report",
      ...(report.error ? { stage: report.error.stage, kind: report.error.kind } : {}),
      ms,
      exitLagMs,
      wallMs: Math.round(exitedAt - started),
      withinDeadline: ms <= CLI_DEADLINE_MS + MARGIN_MS && exitLagMs <= MARGIN_MS,
      escaped: JSON.stringify(report.result ?? null).includes("ESCAPED"),
    });
  };
  // One at a time: each case is a whole CLI process with its own sandbox hosts.
  for (let i = 0; i < cases.length; i++) await runOne(i);
  return outcomes;
}
async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]) / 1024);
}

/** The resident memory of the service's child processes (its sandbox hosts). */
async function childrenMb(pid: number): Promise<number> {
  let total = 0;
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) total += await residentMb(Number(entry));
    } catch {} // gone meanwhile
  }
  return total;
}

async function startService(
  data: string,
): Promise<{ child: ChildProcess; url: string; exited: Promise<void> }> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--data", data], {
    cwd: ROOT,
    env: { ...process.env, SWITCHBOARD_LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("the service did not start within 120 s")), 120_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  for (let i = 0; i < 1200; i++) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, url, exited };
}

function synthesizeBody(i: number, attack: Case, timeoutMs: number) {
  return {
    name: `probe_${i}`,
    description: `abuse probe ${i}: ${attack.label}`,
    inputSchema: { type: "object" },
    code: code(i, attack.body),
    testArgs: {},
    policy: { timeoutMs },
    ...(attack.capabilities ? { capabilities: attack.capabilities } : {}),
  };
}

interface Answer {
  ok?: boolean;
  stage?: string;
  kind?: string;
  tests?: unknown;
}

async function post(
  url: string,
  body: object,
): Promise<{ ok?: boolean; stage?: string; kind?: string; tests?: unknown }> {
  const response = await fetch(`${url}/v1/tools/synthesize`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Answer;
}

async function viaService(data: string) {
  const service = await startService(data);
  const pid = service.child.pid as number;
  // Memory is measured after one ordinary synthesis, so that "before" includes the warmed-up sandbox.
  await post(
    service.url,
    synthesizeBody(900, { label: "warm-up", body: "return args;" }, SERVICE_DEADLINE_MS),
  );
  const before = { serviceMb: await residentMb(pid), hostsMb: await childrenMb(pid) };
  const outcomes: Outcome[] = [];
  for (let i = 0; i < cases.length; i++) {
    const attack = cases[i] as Case;
    const started = performance.now();
    const answer: Answer = await post(service.url, synthesizeBody(i, attack, SERVICE_DEADLINE_MS)).catch(
      (error: Error) => ({ ok: false, stage: "http", kind: error.message }),
    );
    const ms = Math.round(performance.now() - started);
    outcomes.push({
      case: i,
      label: attack.label,
      status: answer.ok ? "ok" : "failed",
      ...(answer.ok ? {} : { stage: answer.stage, kind: answer.kind }),
      ms,
      withinDeadline: ms <= SERVICE_DEADLINE_MS + MARGIN_MS,
      escaped: JSON.stringify(answer.tests ?? null).includes("ESCAPED"),
    });
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // hosts killed at the end are replaced
  const after = { serviceMb: await residentMb(pid), hostsMb: await childrenMb(pid) };
  // SIGTERM while hostile runs are in flight (a long deadline, so they are still running).
  const inFlight = [47, 49, 29].map((i) =>
    post(service.url, synthesizeBody(1000 + i, cases[i] as Case, 30_000)).catch(() => undefined),
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const termStarted = performance.now();
  service.child.kill("SIGTERM");
  const stopped = await Promise.race([
    service.exited.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000)),
  ]);
  const termMs = Math.round(performance.now() - termStarted);
  if (!stopped) service.child.kill("SIGKILL");
  await Promise.all(inFlight);
  return {
    ...summarise(outcomes, SERVICE_DEADLINE_MS),
    memory: { before, after, serviceRatio: Math.round((after.serviceMb / before.serviceMb) * 100) / 100 },
    sigterm: {
      stoppedWithinMs: stopped ? termMs : null,
      limitMs: TERM_LIMIT_MS,
      ok: stopped && termMs <= TERM_LIMIT_MS,
    },
    cases: outcomes,
  };
}

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
const dir = await mkdtemp(join(tmpdir(), "switchboard-abuse-"));
try {
  const report: Record<string, unknown> = {
    suite: "sandbox abuse",
    cases: cases.length,
    node: process.version,
  };
  if (only !== "service") {
    const cli = await viaCli(dir);
    report.cli = { ...summarise(cli, CLI_DEADLINE_MS), cases: cli };
  }
  if (only !== "cli") report.service = await viaService(join(dir, "data"));
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
