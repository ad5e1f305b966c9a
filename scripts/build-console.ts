// `npm run build:console`: bundles the maintainer console (console/src, preact, uPlot, highlight.js) with
// esbuild into console/built/, which is committed: `npm start` and the packed package serve it as it is, with
// no build step and no bundler at run time, and test/console/bundle.test.ts fails when it is out of date.
// Names carry a content hash, so browsers may keep them forever. `--check DIR` builds into DIR instead
// (the test compares it with console/built). Prints each file's size and the gzipped total as JSON.
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({ options: { out: { type: "string" } } });
const out = values.out ?? join(root, "console", "built");

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const result = await build({
  entryPoints: [join(root, "console", "src", "main.tsx")],
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2022",
  jsx: "automatic",
  jsxImportSource: "preact",
  outdir: out,
  entryNames: "console-[hash]",
  legalComments: "eof",
  metafile: true,
  logLevel: "warning",
  absWorkingDir: root,
});
const names = Object.keys(result.metafile.outputs).map((path) => basename(path));
const script = names.find((name) => name.endsWith(".js"));
const style = names.find((name) => name.endsWith(".css"));
if (!script || !style) throw new Error(`esbuild wrote ${names.join(", ")}: expected one .js and one .css`);
const template = await readFile(join(root, "console", "index.html"), "utf8");
await writeFile(
  join(out, "index.html"),
  template
    .replace("{{script}}", `/console/assets/${script}`)
    .replace("{{style}}", `/console/assets/${style}`),
);

const files: Record<string, { bytes: number; gzipped: number }> = {};
let gzipped = 0;
for (const name of (await readdir(out)).sort()) {
  const body = await readFile(join(out, name));
  const size = gzipSync(body, { level: 9 }).length;
  files[name] = { bytes: body.length, gzipped: size };
  gzipped += size;
}
process.stdout.write(
  `${JSON.stringify({ out, files, gzippedTotal: gzipped, budget: 300 * 1024 }, null, 2)}\n`,
);
