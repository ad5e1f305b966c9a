// `npm run build` (and prepack): compiles src/ into dist/ as JavaScript with .d.ts types, for the package.
// Node does not strip types under node_modules, so an installed Switchboard runs dist/; a checkout runs
// src/ directly. dist/ mirrors src/ one level below the package root, so paths relative to a module
// (../../catalog, ../../package.json) hold in both. Files read at run time are copied beside the code.
import { spawnSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const DATA_FILES = ["router/defaults"];

rmSync(`${root}dist`, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const result = spawnSync(process.execPath, [tsc, "-p", `${root}tsconfig.build.json`], { stdio: "inherit" });
if (result.status !== 0) process.exit(result.status ?? 1);
for (const folder of DATA_FILES)
  cpSync(`${root}src/${folder}`, `${root}dist/${folder}`, {
    recursive: true,
    filter: (f) => !f.endsWith(".ts"),
  });
process.stdout.write("built dist/\n");
