// `switchboard exec` as a user runs it: a child process on a fixture catalog and a temporary data folder.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { before, test } from "node:test";
import { fixtureTools } from "./fixture-tools.ts";
import { CLI, ROOT, tempDir, writeCatalog } from "./harness.ts";

let catalog: string;
let data: string;

before(async () => {
  catalog = await writeCatalog(fixtureTools("http://127.0.0.1:9"));
  data = await tempDir("exec");
});

function exec(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, "exec", ...args, "--catalog", catalog, "--data", data], {
    cwd: ROOT,
    env: { ...process.env, SWITCHBOARD_LOG_LEVEL: "warn" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

test("a calls file runs every call in order; exit 1 when one fails, with the schema feedback", async () => {
  const file = join(await tempDir("calls"), "calls.json");
  await writeFile(
    file,
    JSON.stringify([
      { name: "add_numbers", arguments: { a: 2, b: 40 } },
      { id: "words", name: "count_words", arguments: { text: "to be or not" } },
      { name: "add_numbers", arguments: { a: "2" } },
    ]),
  );
  const { code, stdout } = await exec("--calls", file, "--json");
  assert.equal(code, 1);
  const { results } = JSON.parse(stdout);
  assert.deepEqual(
    results.map((r: { id: string; status: string }) => [r.id, r.status]),
    [
      ["call-1", "completed"],
      ["words", "completed"],
      ["call-3", "failed"],
    ],
  );
  assert.deepEqual(results[0].output, { sum: 42 });
  assert.equal(results[2].error.class, "schema");
});

test("one tool with --args prints its result for people; exit 0 when it completed", async () => {
  const { code, stdout } = await exec("add_numbers", "--args", '{"a":1,"b":2}');
  assert.equal(code, 0);
  assert.match(stdout, /✓ call-1 add_numbers: completed/);
  assert.match(stdout, /"sum": 3/);
});

test("mistakes are named: bad --args JSON (exit 2), an unknown tool fails its call (exit 1)", async () => {
  const badJson = await exec("add_numbers", "--args", "{a:1}");
  assert.equal(badJson.code, 2);
  assert.match(badJson.stderr, /--args is not valid JSON/);
  const unknown = await exec("launch_rocket");
  assert.equal(unknown.code, 1);
  assert.match(unknown.stdout, /✗ call-1 launch_rocket: failed/);
  assert.match(unknown.stdout, /unknown_tool: unknown tool "launch_rocket"/);
});

test("--timeout stops a call that has not answered in time, and names the flag's mistakes", async () => {
  // A stand-in for a provider that accepts the request and never answers.
  const silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const { port } = silent.address() as AddressInfo;
  try {
    const slowCatalog = await writeCatalog(fixtureTools(`http://127.0.0.1:${port}`));
    const child = spawn(
      process.execPath,
      [
        CLI,
        "exec",
        "slow.lookup",
        "--args",
        '{"ms":1}',
        "--timeout",
        "300",
        "--json",
        "--catalog",
        slowCatalog,
        "--data",
        data,
      ],
      { cwd: ROOT, env: { ...process.env, SWITCHBOARD_LOG_LEVEL: "warn" } },
    );
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once("close", resolve));
    assert.equal(code, 1);
    const [result] = JSON.parse(stdout).results;
    assert.equal(result.status, "cancelled", JSON.stringify(result));
  } finally {
    silent.close();
  }
  const bad = await exec("add_numbers", "--timeout", "soon");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--timeout: expected a number/);
});
