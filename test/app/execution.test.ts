// Execution: calls run through a real Dispatcher for a caller. An unknown name (or another key's pending
// tool) fails alone as unknown_tool while the rest of the batch runs; a provider alias reaches its tool;
// route-and-execute's call is validated first and runs only when its arguments fit.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Execution } from "../../src/app/execution.ts";
import { parseConfig } from "../../src/app/index.ts";
import { openScaleOut, type ScaleOut } from "../../src/app/scale-out.ts";
import { ToolDirectory } from "../../src/app/tool-directory.ts";
import type { Step } from "../../src/app/types.ts";
import { Dispatcher, type Provider } from "../../src/dispatch/index.ts";
import { type Fixture, openFixture, PRIVATE_TOOL, pendingFor } from "./services-fixture.ts";

const owner = { role: "agent" as const, id: "agent:owner" };
const other = { role: "agent" as const, id: "agent:other" };
let fixture: Fixture;
let scaleOut: ScaleOut;
let dispatcher: Dispatcher;
let execution: Execution;
const invoked: { tool: string; args: Record<string, unknown> }[] = [];
/** The call ids the dispatcher finished, as it saw them. */
const dispatched: string[] = [];

before(async () => {
  fixture = await openFixture();
  await fixture.registry.put(PRIVATE_TOOL, "synthesized", pendingFor(owner.id));
  scaleOut = await openScaleOut(parseConfig({ catalog: fixture.catalog, data: `${fixture.folder}/data` }));
  // A stand-in for the tools' bindings: an in-process provider that records what it ran and echoes it.
  const standIn = (tool: string): Provider => ({
    id: `stand-in:${tool}`,
    invoke: async (args) => {
      invoked.push({ tool, args });
      return { ran: tool, args };
    },
  });
  dispatcher = new Dispatcher({ tools: fixture.registry, providers: (tool) => [standIn(tool.name)] });
  await dispatcher.ready();
  dispatcher.on("call", (result) => dispatched.push(result.id));
  const { registry } = fixture;
  execution = new Execution({ registry, directory: new ToolDirectory(registry), dispatcher, scaleOut });
});
after(async () => {
  await dispatcher.close();
  await scaleOut.close();
  await fixture.close();
});

test("a call to another key's pending tool fails alone as unknown_tool; the rest of the batch runs", async () => {
  invoked.length = 0;
  const results = await execution.execute(
    [
      { id: "1", name: "count.words", arguments: { text: "a b" } },
      { id: "2", name: "get_weather", arguments: { city: "Oslo" } },
    ],
    { viewer: other },
  );
  assert.deepEqual(
    results.map((r) => [r.id, r.status, r.error?.class]),
    [
      ["1", "failed", "unknown_tool"],
      ["2", "completed", undefined],
    ],
  );
  assert.deepEqual(invoked, [{ tool: "get_weather", args: { city: "Oslo" } }]);
});

test("the owner runs its pending tool by the provider alias it was shown", async () => {
  invoked.length = 0;
  const [result] = await execution.execute([{ id: "3", name: "count_words", arguments: { text: "a b" } }], {
    viewer: owner,
  });
  assert.equal(result?.status, "completed");
  assert.equal(result?.name, "count.words");
  assert.deepEqual(invoked, [{ tool: "count.words", args: { text: "a b" } }]);
});

test("a route-and-execute call whose arguments do not fit is a validate step, and nothing runs", async () => {
  invoked.length = 0;
  const tool = fixture.registry.get("get_weather");
  assert.ok(tool);
  const steps: Step[] = [];
  const answer = await execution.runValidated(tool, { town: "Oslo" }, steps, {
    session: undefined,
    owner: undefined,
    viewer: undefined,
  });
  assert.equal(answer.status, "invalid_arguments");
  assert.equal(steps.length, 1);
  assert.equal(steps[0]?.step, "validate");
  assert.deepEqual(invoked, []);
});

test("a route-and-execute call that fits runs under a fresh id, the owner's key prefixed in the dispatcher", async () => {
  invoked.length = 0;
  const tool = fixture.registry.get("get_weather");
  assert.ok(tool);
  const steps: Step[] = [];
  const answer = await execution.runValidated(tool, { city: "Oslo" }, steps, {
    session: undefined,
    owner: owner.id,
    viewer: owner,
  });
  assert.equal(answer.status, "completed");
  assert.deepEqual(
    steps.map((s) => s.step),
    ["validate", "execute"],
  );
  assert.ok(answer.result && !answer.result.id.includes("/"), "the answer's id is the caller's own");
  assert.equal(dispatched.at(-1), `${owner.id}/${answer.result.id}`);
  assert.deepEqual(invoked, [{ tool: "get_weather", args: { city: "Oslo" } }]);
});
