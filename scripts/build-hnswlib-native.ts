// `npm ci` / `npm install` (prepare, which a checkout runs and an install of the package does not):
// rebuilds hnswlib-node's addon for this machine's CPU.
//
// hnswlib chooses its distance code when it is compiled (SSE, AVX or AVX-512, by what the compiler may
// use), and hnswlib-node's binding.gyp passes no -march, so its addon is built for the x86-64 baseline and
// computes distances with SSE only. hnswlib's own Python package compiles with -march=native for this
// reason. Here, at 100k tools, searches took 0.52-0.54 ms against 0.59-0.63 ms for the portable build
// (the same index and queries, the two builds alternating).
//
// The build runs in a copy, so a failure (an old compiler, a CPU gcc does not know) keeps the portable
// addon; the marker file tells `npm run bench` which build it measured.
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const addonDir = join(root, "node_modules", "hnswlib-node");
const release = join(addonDir, "build", "Release");
export const NATIVE_MARKER = join(release, "switchboard-native-cpu");

function rebuild(): string {
  if (process.arch !== "x64" && process.arch !== "arm64")
    return "kept the portable build (no -march=native here)";
  if (!existsSync(join(release, "addon.node"))) return "hnswlib-node is not built; nothing to rebuild";
  if (existsSync(NATIVE_MARKER)) return "already built for this CPU";
  // npm's own node-gyp, which reads nodedir from .npmrc (no header download).
  const nodeGyp = process.env.npm_config_node_gyp;
  if (!nodeGyp) return "kept the portable build (run through npm to rebuild it for this CPU)";
  const work = join(root, "node_modules", ".hnswlib-native-build");
  rmSync(work, { recursive: true, force: true });
  try {
    cpSync(addonDir, work, {
      recursive: true,
      filter: (source) => !source.startsWith(join(addonDir, "build")),
    });
    const flags = `${process.env.CXXFLAGS ?? ""} -march=native`.trim();
    const result = spawnSync(process.execPath, [nodeGyp, "rebuild"], {
      cwd: work,
      env: { ...process.env, CXXFLAGS: flags },
      stdio: ["ignore", "ignore", "pipe"],
      encoding: "utf8",
    });
    if (result.status !== 0) {
      const last = (result.stderr ?? "").trim().split("\n").slice(-3).join(" | ");
      return `kept the portable build: rebuilding with -march=native failed (${last || `exit ${result.status}`})`;
    }
    copyFileSync(join(work, "build", "Release", "addon.node"), join(release, "addon.node"));
    writeFileSync(NATIVE_MARKER, `${flags}\n`);
    return "rebuilt for this CPU (-march=native)";
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) process.stderr.write(`switchboard: hnswlib-node ${rebuild()}\n`);
