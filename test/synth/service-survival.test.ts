// The running service against the runs that used to take it down: one giant native allocation and an
// endless loop of long native calls, sent through POST /v1/tools/synthesize. Each is answered soon after
// its deadline, the service keeps synthesizing, and SIGTERM stops it, and its sandbox hosts, while such
// runs are in flight.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { scaled } from "../load-factor.ts";
import { call, type Service, startService, writeCatalog } from "../server/harness.ts";

let service: Service;

before(async () => {
  // A one-tool catalog keeps the index quick to build.
  const catalog = await writeCatalog([
    {
      name: "echo",
      description: "Echoes its arguments back.",
      inputSchema: { type: "object" },
      binding: { type: "sandbox", code: "async function echo(args) { return args; }" },
    },
  ]);
  service = await startService({ catalog });
});

after(async () => {
  await service?.stop();
});

const synthesize = (name: string, body: string, timeoutMs: number) =>
  call(service, "POST", "/v1/tools/synthesize", {
    body: {
      name,
      description: `probe ${name}`,
      inputSchema: { type: "object" },
      code: `async function ${name}(args, ctx) {\n${body}\n}`,
      testArgs: {},
      policy: { timeoutMs },
    },
  });

/** Processes whose parent is `pid`: the service's sandbox hosts. */
async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) children.push(Number(entry));
  }
  return children;
}

const alive = (pid: number) =>
  readFile(`/proc/${pid}/stat`, "utf8").then(
    (stat) => !/^\d+ \(.*\) Z/.test(stat), // a zombie has ended
    () => false,
  );

test("answers runs that ignore termination on time and keeps synthesizing", async () => {
  for (const [name, body] of [
    ["fill", "return new Array(2 ** 32 - 1).fill(0).length;"],
    ["joins", `const a = new Array(2 ** 22).fill("abcdefgh"); for (;;) a.join(",").length;`],
  ] as const) {
    const started = performance.now();
    const answer = await synthesize(name, body, 1_000);
    const ms = performance.now() - started;
    assert.equal(answer.body.ok, false, JSON.stringify(answer.body));
    assert.equal(answer.body.stage, "runtime");
    assert.ok(["timeout", "memory", "crashed"].includes(answer.body.kind), answer.body.kind);
    // Deadline plus a margin wide enough for a loaded CI machine (the request also compiles the tool);
    // scripts/abuse-sandbox.ts measures the real figure.
    assert.ok(ms < 1_000 + scaled(5_000), `answered after ${ms} ms`);
    // A tool that fails on purpose: it proves a sandbox ran it without registering (and indexing) a tool.
    const next = await synthesize(`next_${name}`, `throw new Error("still serving");`, 5_000);
    assert.equal(next.body.stage, "runtime", JSON.stringify(next.body));
    assert.match(JSON.stringify(next.body.errors), /still serving/);
  }
});

test("SIGTERM stops the service and its hosts while hostile runs are in flight", async () => {
  const pid = service.child.pid as number;
  const hosts = await childrenOf(pid);
  assert.ok(hosts.length > 0, "no sandbox host process found");
  const inFlight = [
    synthesize("spin", "for (;;);", 60_000),
    synthesize(
      "native",
      `const a = new Array(2 ** 22).fill("abcdefgh"); for (;;) a.join(",").length;`,
      60_000,
    ),
  ].map((request) => request.catch(() => undefined));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const started = performance.now();
  const code = await service.stop();
  const ms = performance.now() - started;
  // The target is 15 s (a 10 s drain, then the close); scripts/abuse-sandbox.ts measures it. The test only
  // allows a loaded CI machine more, as what it guards against is a service that never stops.
  assert.ok(ms < scaled(25_000), `stopped after ${ms} ms`);
  assert.equal(code, 0);
  await Promise.all(inFlight);
  for (const host of hosts) assert.equal(await alive(host), false, `host ${host} still running`);
});
