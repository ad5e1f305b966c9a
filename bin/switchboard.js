#!/usr/bin/env node
// Entry point of the `switchboard` CLI. Plain JavaScript so that it parses on any Node and can refuse
// an old one with a single sentence instead of a native-module stack trace.
const major = Number(process.versions.node.split(".")[0]);
if (major < 24) {
  process.stderr.write(
    `switchboard needs Node.js 24 or newer, but this is Node.js ${process.versions.node}; ` +
      "run it through npm (npm start, npx switchboard), which uses the Node 24 installed by npm ci.\n",
  );
  process.exit(1);
}
// Node caches compiled (and type-stripped) modules in the system's temporary folder, which roughly halves
// the time to load Switchboard on every start after the first.
const { enableCompileCache } = await import("node:module");
enableCompileCache?.();
// A checkout runs the TypeScript sources; the installed package, which ships no src/, runs the compiled
// dist/ (Node does not strip types under node_modules).
const { existsSync } = await import("node:fs");
const source = new URL("../src/cli/main.ts", import.meta.url);
const { main } = await import(existsSync(source) ? source.href : "../dist/cli/main.js");
// Output piped into a reader that stops early (| head) ends the command quietly, as other CLIs do.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});
process.exitCode = await main(process.argv.slice(2));
