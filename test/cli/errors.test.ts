// How the CLI answers a mistake: the flag and the form it expects, in one sentence, and with --json the
// HTTP API's error shape on stdout.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { CLI } from "../server/harness.ts";

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test("a flag that needs a number names the flag, an example and what was given", async () => {
  const { code, stderr } = await run(["route", "--top-k", "abc", "convert 10 USD"]);
  assert.equal(code, 2);
  assert.match(stderr, /--top-k: expected a number, e\.g\. --top-k 5, but got "abc"/);
  assert.doesNotMatch(stderr, /NaN/);
  const port = await run(["serve", "--port", "99999"]);
  assert.equal(port.code, 2);
  assert.match(port.stderr, /--port: must be a port number from 0 to 65535 \(got "99999"\)/);
});

test("--json errors have the HTTP API's { error: { code, message } } shape", async () => {
  const usage = await run(["route", "--json", "--top-k", "abc", "convert 10 USD"]);
  assert.equal(usage.code, 2);
  assert.deepEqual(JSON.parse(usage.stdout), {
    error: { code: "usage", message: '--top-k: expected a number, e.g. --top-k 5, but got "abc"' },
  });
  const missing = await run(["route", "--json", "--catalog", "/nonexistent/catalog.json", "x"]);
  assert.equal(missing.code, 1);
  const { error } = JSON.parse(missing.stdout);
  assert.equal(error.code, "invalid_catalog");
  assert.match(error.message, /no such file or folder/);
});
