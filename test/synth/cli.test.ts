// `switchboard synth` as external checks call it: a real child process, JSON on stdout, the exit code.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { ToolRegistry } from "../../src/catalog/index.ts";
import { FileStore } from "../../src/store/index.ts";

const bin = fileURLToPath(new URL("../../bin/switchboard.js", import.meta.url));
let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "synth-cli-"));
  await writeFile(
    join(dir, "word_count.js"),
    "async function word_count(args, ctx) {\n  return { words: args.text.split(/\\s+/).filter(Boolean).length };\n}\n",
  );
  await writeFile(
    join(dir, "escape.js"),
    "async function escape(args) {\n  return process.mainModule.require('fs');\n}\n",
  );
  await writeFile(join(dir, "thrower.js"), "function thrower(args) {\n  throw new TypeError('no');\n}\n");
  await writeFile(
    join(dir, "word_count.schema.json"),
    JSON.stringify({
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      outputSchema: { type: "object", properties: { words: { type: "integer" } }, required: ["words"] },
    }),
  );
});
after(() => rm(dir, { recursive: true, force: true }));

function synth(args: string[]): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, "synth", ...args],
      { env: { ...process.env, SWITCHBOARD_LOG_LEVEL: "silent" } },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, json: stdout.trim() ? JSON.parse(stdout) : {}, stderr });
      },
    );
  });
}

describe("switchboard synth --json", () => {
  it("prints ok with the test run's result and exits 0", async () => {
    const { code, json } = await synth([
      "--name",
      "word_count",
      "--code",
      join(dir, "word_count.js"),
      "--schema",
      join(dir, "word_count.schema.json"),
      "--args",
      '{"text":"one two  three"}',
      "--json",
    ]);
    assert.equal(code, 0);
    assert.equal(json.status, "ok");
    assert.deepEqual(json.result, { words: 3 });
    assert.equal(typeof json.ms, "number");
  });

  it("prints rejected with the static stage for an escape attempt and exits 1", async () => {
    const { code, json } = await synth(["--name", "escape", "--code", join(dir, "escape.js"), "--json"]);
    assert.equal(code, 1);
    assert.equal(json.status, "rejected");
    const error = json.error as { stage: string; kind: string; message: string };
    assert.equal(error.stage, "static");
    assert.equal(error.kind, "policy");
    assert.match(error.message, /^2:10 `process` is refused/);
  });

  it("prints error with the runtime stage when the tool throws", async () => {
    const { code, json } = await synth([
      "--name",
      "thrower",
      "--code",
      join(dir, "thrower.js"),
      "--args",
      "{}",
      "--json",
    ]);
    assert.equal(code, 1);
    assert.deepEqual(json.error, { stage: "runtime", kind: "runtime", message: "2:9 TypeError: no" });
  });

  it("prints error for a code file that cannot be read", async () => {
    const { code, json } = await synth(["--name", "x", "--code", join(dir, "absent.js"), "--json"]);
    assert.equal(code, 1);
    assert.equal(json.status, "error");
    assert.match((json.error as { message: string }).message, /absent\.js/);
  });

  it("registers the tool in the data folder with --register", async () => {
    const data = join(dir, "data");
    const args = [
      "--name",
      "word_count",
      "--code",
      join(dir, "word_count.js"),
      "--register",
      "--data",
      data,
      "--json",
    ];
    const first = await synth(args);
    assert.equal(first.code, 0, JSON.stringify(first));
    const second = await synth(args);
    assert.deepEqual(second.json.registered, { name: "word_count", version: 2 });
    const registry = await ToolRegistry.open({ store: new FileStore(data) });
    assert.equal(registry.entry("word_count")?.origin, "synthesized");
    assert.equal(registry.get("word_count")?.binding?.type, "sandbox");
  });

  it("exits 2 for a usage mistake", async () => {
    const { code } = await synth(["--code", join(dir, "word_count.js"), "--json"]);
    assert.equal(code, 2);
  });
});
