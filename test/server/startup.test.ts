// Starting the service: the port is bound before the index is opened, so a busy port is one sentence and
// an exit, and a ready service says so in one line on stdout.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { test } from "node:test";
import { CLI, ROOT, tempDir } from "./harness.ts";

test("a busy port is one sentence naming it, and the process ends without opening the index", async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const { port } = blocker.address() as { port: number };
  try {
    const child = spawn(
      process.execPath,
      [CLI, "serve", "--port", String(port), "--data", await tempDir("busy")],
      { cwd: ROOT, env: { ...process.env, SWITCHBOARD_LOG_FORMAT: "json" } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    assert.equal(code, 1);
    assert.equal(stdout, "");
    assert.match(stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
    assert.doesNotMatch(stderr, /index ready|embedd/);
  } finally {
    blocker.close();
  }
});

test("a fresh data folder on the bundled catalog starts from the shipped index and prints one ready line", async () => {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--data", await tempDir("fresh")], {
    cwd: ROOT,
    env: { ...process.env, SWITCHBOARD_LOG_FORMAT: "json" },
  });
  child.stderr.resume();
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        if (/^ready on .*\n/m.test(text)) resolve(text);
      });
      void exited.then((code) => reject(new Error(`exited with ${code}: ${text}`)));
    });
    assert.match(stdout, /^switchboard listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
    const address = /^switchboard listening on (\S+)/.exec(stdout)?.[1];
    assert.match(
      stdout,
      new RegExp(`\\nready on ${address} \\(\\d+ tools, index (loaded|updated) from the shipped copy`),
    );
    const ready = await fetch(`${address}/readyz`);
    assert.equal(ready.status, 200);
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
});
