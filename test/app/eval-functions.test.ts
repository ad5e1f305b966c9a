import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { callMatches, callsMatch } from "../../src/app/index.ts";

const run = promisify(execFile);
const cli = join(import.meta.dirname, "../../bin/switchboard.js");
const fixtures = join(import.meta.dirname, "../fixtures/bfcl");

const schema = {
  type: "object",
  properties: {
    count: { type: "integer" },
    rate: { type: "number" },
    city: { type: "string" },
    unit: { type: "string" },
    point: { type: "array", items: { type: "number" } },
    filter: { type: "object", properties: { school: { type: "string" } } },
  },
  required: ["count"],
};
const truth = {
  f: {
    count: [5],
    rate: [0.5, ""],
    city: ["New York City", "NYC", ""],
    unit: ["", "km"],
    point: [[3, 4], ""],
    filter: [{ school: ["Bluebird High School", "Bluebird HS"] }, ""],
  },
};

test("BFCL's AST rules: names, required and optional parameters, standardised strings, integer types", () => {
  const cases: [Record<string, unknown>, boolean, string][] = [
    [{ count: 5 }, true, "optional ones may be left out where '' is acceptable"],
    [{ count: 5, rate: 0.5, unit: "km" }, true, "optional ones given with acceptable values"],
    [{ count: 5.5 }, false, "a fractional value is no integer"],
    [{ count: 6 }, false, "a value not among the acceptable ones"],
    [{ rate: 0.5 }, false, "a required parameter left out"],
    [{ count: 5, city: "new-york city" }, true, "strings compared without spaces, -_ and case"],
    [{ count: 5, city: "Boston" }, false, "another string"],
    [{ count: 5, other: 1 }, false, "a parameter the function does not have"],
    [{ count: 5, rate: 1 }, false, "a number not acceptable"],
    [{ count: 5, point: [3, 4] }, true, "a list equal element by element"],
    [{ count: 5, point: [4, 3] }, false, "a list in another order"],
    [{ count: 5, filter: { school: "bluebird hs" } }, true, "a nested object with its own choices"],
    [{ count: 5, filter: { school: "Other" } }, false, "a nested value not acceptable"],
  ];
  for (const [args, expected, why] of cases)
    assert.equal(callMatches({ name: "f", arguments: args }, truth, schema), expected, why);
  assert.equal(callMatches({ name: "g", arguments: { count: 5 } }, truth, schema), false, "another function");
});

test("several calls match the ground truth one to one, in any order, none left over", () => {
  const schemas = (name: string) => (name === "f" ? schema : undefined);
  const a = { f: { count: [1] } };
  const b = { f: { count: [1, 2] } };
  const call = (count: number) => ({ name: "f", arguments: { count } });
  assert.equal(callsMatch([call(2), call(1)], [a, b], schemas), true, "1 must go to a, so 2 to b");
  assert.equal(callsMatch([call(1), call(1)], [a, b], schemas), true);
  assert.equal(callsMatch([call(2), call(2)], [a, b], schemas), false, "a is left without a call");
  assert.equal(callsMatch([call(1)], [a, b], schemas), false, "a call short");
  assert.equal(callsMatch([call(1), call(1), call(1)], [a, b], schemas), false, "a call over");
});

test("eval-functions routes each question among its own functions and reports by category", async () => {
  const { stdout } = await run(
    process.execPath,
    [
      cli,
      "eval-functions",
      join(fixtures, "mini_simple.json"),
      join(fixtures, "mini_irrelevance.json"),
      "--json",
      "--failures",
    ],
    { env: { ...process.env, SWITCHBOARD_LOG_LEVEL: "warn" }, maxBuffer: 16 * 1024 * 1024 },
  );
  const report = JSON.parse(stdout);
  assert.equal(report.questions, 5);
  // math.factorial is defined by three questions: one tool each, so each question sees its own.
  assert.equal(report.tools, 6);
  assert.deepEqual(Object.keys(report.byCategory).sort(), ["mini_irrelevance", "mini_simple"]);
  const simple = report.byCategory.mini_simple;
  assert.equal(simple.withCalls, 3);
  assert.equal(report.byCategory.mini_irrelevance.withCalls, 0);
  assert.equal(
    report.byCategory.mini_irrelevance.executedOnIrrelevant,
    0,
    "no call runs for a question no function serves",
  );
  assert.equal(report.overall.hiddenOrRepeated, 0, "every call the stand-in received is in the answer, once");
  // Imported definitions have no examples: a call runs only above the bare tools' bar, and below it the
  // answer names the function and proposes its values.
  const first = report.failures.find((f: { id: string }) => f.id === "mini_simple_0");
  assert.ok(
    !first || (first.status === "needs_input" && first.named.includes("math.factorial")),
    "'the factorial of 5' is math.factorial, run or proposed",
  );
  assert.equal(simple.toolRight, 3);
  assert.equal(simple.completedWrongCall, 0);
  assert.equal(simple.fullCallRight + report.failures.length, 3);
});

test("a file that is not BFCL questions gets one error naming the file and line, and exit 1", async () => {
  const dir = await mkdtemp(join(tmpdir(), "sb-eval-functions-"));
  try {
    const file = join(dir, "bad.json");
    await writeFile(
      file,
      '{"id": "x_0", "question": [[{"role": "user", "content": "hi"}]], "function": []}\n',
    );
    await assert.rejects(
      run(process.execPath, [cli, "eval-functions", file]),
      (error: { stderr: string; code: number }) => {
        assert.match(error.stderr, /bad\.json:1: function /);
        assert.equal(error.code, 1);
        return true;
      },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a parameter the ground truth requires (no '' among its values) must be given", () => {
  const strict = { f: { count: [5], city: ["Paris"] } };
  assert.equal(callMatches({ name: "f", arguments: { count: 5 } }, strict, schema), false);
  assert.equal(callMatches({ name: "f", arguments: { count: 5, city: "paris" } }, strict, schema), true);
});
