// What the CLI loads before it answers: help and usage mistakes must not pay for the composition root,
// the servers or the schema compiler. The child records every module it resolves through Node's module
// hooks, so the test sees the real import graph of the real entry point.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const RECORDER = `
import { registerHooks } from "node:module";
import { writeSync } from "node:fs";
const seen = [];
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r; } });
const { main } = await import(${JSON.stringify(new URL("../../src/cli/main.ts", import.meta.url).href)});
process.stdout.write = () => true;
process.stderr.write = () => true;
const code = await main(JSON.parse(process.argv[1]));
writeSync(1, JSON.stringify({ code, seen }));
`;

async function modulesLoadedBy(argv: string[]): Promise<{ code: number; seen: string[] }> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", RECORDER, JSON.stringify(argv)], {
    cwd: ROOT,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await new Promise((resolve) => child.once("close", resolve));
  const last = stdout.trim().split("\n").at(-1) ?? "";
  assert.ok(last.startsWith("{"), `the child printed no report: ${stderr}`);
  return JSON.parse(last);
}

const HEAVY = [
  /\/src\/app\//,
  /\/src\/server\//,
  /\/src\/router\//,
  /\/src\/embed\//,
  /node_modules\/(ajv|fastify|pino|hnswlib-node|@modelcontextprotocol)\//,
];

for (const argv of [
  ["--help"],
  ["exec", "--help"],
  ["route", "--top-k", "many", "x"],
  ["serve", "--nonsense"],
  ["nonsense"],
]) {
  test(`'switchboard ${argv.join(" ")}' answers without loading the app, servers, router or schema compiler`, async () => {
    const { code, seen } = await modulesLoadedBy(argv);
    assert.ok(code === 0 || code === 2, `exit code ${code}`);
    assert.ok(
      seen.some((url) => url.includes("/src/cli/")),
      "the recorder saw the CLI load",
    );
    const heavy = seen.filter((url) => HEAVY.some((pattern) => pattern.test(url)));
    assert.deepEqual(heavy, []);
  });
}
