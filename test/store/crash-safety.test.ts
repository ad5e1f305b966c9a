import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { existsSync, type FSWatcher, watch } from "node:fs";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";

const fixtures = join(import.meta.dirname, "../fixtures");
// Kill at least MIN_KILLS times, and go on until MIN_MID_WRITE kills have interrupted a write (a busy
// machine makes some kills land between writes), up to MAX_KILLS.
const MIN_KILLS = 8;
const MIN_MID_WRITE = 3;
const MAX_KILLS = 80;
const PAYLOAD_BYTES = 1_000_000;

/**
 * Resolves once the child has finished a write and the temporary file of a later one has appeared beside
 * `file`: a kill from then on falls inside a write. Timed from the child's output alone, a busy machine's
 * scheduler let most kills fall between writes, and the test went on for hundreds of kills.
 */
function nextWriteUnderway(child: ChildProcess, file: string): Promise<void> {
  const folder = dirname(file);
  return new Promise((resolve, reject) => {
    let watcher: FSWatcher | undefined;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      watcher?.close();
      if (error) reject(error);
      else resolve();
    };
    child.stdout?.on("data", (chunk: Buffer) => {
      if (watcher || !chunk.toString().includes("wrote ")) return;
      watcher = watch(folder, (_event, name) => {
        if (name && name !== basename(file) && existsSync(join(folder, name))) settle();
      });
    });
    child.once("exit", (code) => settle(new Error(`writer exited early with code ${code}`)));
  });
}

for (const mode of ["writeJson", "writeVia"]) {
  test(`SIGKILL at random moments during large ${mode} writes never leaves a torn or unreadable file`, async (t) => {
    const root = await mkdtemp(join(tmpdir(), "sb-crash-"));
    const file = join(root, "state/data.json");
    let lastVersion = 0;
    let killedMidWrite = 0;
    let leftovers = 0;
    let kill = 0;
    for (; kill < MIN_KILLS || (killedMidWrite < MIN_MID_WRITE && kill < MAX_KILLS); kill++) {
      const child = spawn(
        process.execPath,
        [join(fixtures, "store-writer.ts"), root, "state/data.json", String(PAYLOAD_BYTES), mode],
        {
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      await nextWriteUnderway(child, file);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10));
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;

      const stored = JSON.parse(await readFile(file, "utf8"));
      assert.equal(stored.payload.length, PAYLOAD_BYTES, `after kill ${kill}: payload is complete`);
      assert.equal(
        createHash("sha256").update(stored.payload).digest("hex"),
        stored.checksum,
        `after kill ${kill}: the payload belongs to version ${stored.version}`,
      );
      assert.ok(stored.version > lastVersion, "every run wrote at least one version before its kill");
      lastVersion = stored.version;
      // A new temporary file left beside the data file shows that this kill landed in the middle of a write.
      const entries = (await readdir(join(root, "state"))).length - 1;
      if (entries > leftovers) killedMidWrite++;
      leftovers = entries;
    }
    t.diagnostic(`${kill} kills, ${killedMidWrite} of them mid-write, last version ${lastVersion}`);
    assert.ok(
      killedMidWrite >= MIN_MID_WRITE,
      "kills interrupted writes, so the checks above meant something",
    );
  });
}

test("two processes incrementing one counter with updateJson lose no increment", async () => {
  const root = await mkdtemp(join(tmpdir(), "sb-lock-"));
  const times = 40;
  const run = promisify(execFile);
  const incrementer = join(fixtures, "store-incrementer.ts");
  await Promise.all([
    run(process.execPath, [incrementer, root, "counter.json", String(times)]),
    run(process.execPath, [incrementer, root, "counter.json", String(times)]),
  ]);
  const stored = JSON.parse(await readFile(join(root, "counter.json"), "utf8"));
  assert.equal(stored.count, 2 * times);
});
