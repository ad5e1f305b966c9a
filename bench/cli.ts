// npm run bench:cli [-- --runs 7]
// Wall time of whole CLI commands as a user types them, against bare `node -e 0` in the same run: --help,
// `catalog validate` of the bundled catalog, and `exec` of a bundled offline tool on a fresh data folder.
// Prints JSON: medians and every run in ms, each command's median over bare Node's, the targets, and the
// load average (a busy machine moves every figure; compare the ratios of one run). A command that exited
// non-zero in some runs shows `failed` (how many, and the first message) and is not within its target.
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "bin", "switchboard.js");

const { values } = parseArgs({ options: { runs: { type: "string", default: "7" } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs must be a whole number of at least 1");

const data = await mkdtemp(join(tmpdir(), "switchboard-bench-cli-"));
const commands: { name: string; args: string[]; targetMs?: number }[] = [
  { name: "node -e 0", args: ["-e", "0"] },
  { name: "--help", args: [CLI, "--help"], targetMs: 250 },
  {
    name: "catalog validate catalog/",
    args: [CLI, "catalog", "validate", join(ROOT, "catalog")],
    targetMs: 1000,
  },
  {
    name: "exec percentage",
    args: [CLI, "exec", "percentage", "--args", '{"operation":"percent_of","a":15,"b":80}', "--data", data],
    targetMs: 1500,
  },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const round = (x: number) => Math.round(x * 10) / 10;

const measured: Record<
  string,
  { medianMs: number; runsMs: number[]; failed?: { runs: number; first: string } }
> = {};
try {
  // One untimed run of each first: Node's compile cache and the OS page cache warm as for a user's second command.
  for (const command of commands) spawnSync(process.execPath, command.args, { cwd: ROOT, stdio: "ignore" });
  const times = new Map<string, number[]>(commands.map((c) => [c.name, []]));
  // A run that exits non-zero is counted and its first message kept, not thrown: on a loaded machine a
  // call may miss its tool's deadline, and the figures of the other runs and commands still tell.
  const failed = new Map<string, { runs: number; first: string }>();
  // Interleaved, so that a change in the machine's load falls on every command alike.
  for (let i = 0; i < runs; i++)
    for (const command of commands) {
      const started = performance.now();
      const result = spawnSync(process.execPath, command.args, {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "pipe"],
      });
      const ms = performance.now() - started;
      if (result.status !== 0) {
        const seen = failed.get(command.name);
        if (seen) seen.runs++;
        else
          failed.set(command.name, {
            runs: 1,
            first: `exit ${result.status}: ${String(result.stderr).trim()}`,
          });
      }
      times.get(command.name)?.push(ms);
    }
  for (const [name, runsMs] of times) {
    const failures = failed.get(name);
    measured[name] = {
      medianMs: round(median(runsMs)),
      runsMs: runsMs.map(round),
      ...(failures ? { failed: failures } : {}),
    };
  }
} finally {
  await rm(data, { recursive: true, force: true });
}

const bare = measured["node -e 0"]?.medianMs ?? Number.NaN;
console.log(
  JSON.stringify(
    {
      runs,
      loadAverage: loadavg().map((x) => round(x)),
      commands: commands.map((c) => ({
        name: c.name,
        ...measured[c.name],
        overBareNode: round((measured[c.name]?.medianMs ?? Number.NaN) / bare),
        ...(c.targetMs === undefined
          ? {}
          : {
              targetMs: c.targetMs,
              withinTarget:
                !measured[c.name]?.failed &&
                (measured[c.name]?.medianMs ?? Number.POSITIVE_INFINITY) <= c.targetMs,
            }),
      })),
    },
    null,
    2,
  ),
);
