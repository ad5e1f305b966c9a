// The console's built files are committed (so `npm start` and the packed package serve them with no build
// step): this fails when they are not what `npm run build:console` makes of the current sources, and when
// the bundle outgrows its budget of 300 KB gzipped.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import { BUILT_CONSOLE } from "../../src/server/index.ts";
import { ROOT, tempDir } from "../server/harness.ts";

test("console/built is what build:console makes of console/src, within 300 KB gzipped", async () => {
  const out = await tempDir("console-build");
  const build = spawnSync(process.execPath, [join(ROOT, "scripts", "build-console.ts"), "--out", out], {
    cwd: ROOT,
    encoding: "utf8",
  });
  assert.equal(build.status, 0, build.stderr);
  const fresh = (await readdir(out)).sort();
  const committed = (await readdir(BUILT_CONSOLE)).sort();
  assert.deepEqual(committed, fresh, "run `npm run build:console` and commit console/built");
  let gzipped = 0;
  for (const name of fresh) {
    const body = await readFile(join(out, name));
    assert.ok(
      body.equals(await readFile(join(BUILT_CONSOLE, name))),
      `${name} differs: run npm run build:console`,
    );
    gzipped += gzipSync(body, { level: 9 }).length;
  }
  assert.ok(gzipped < 300 * 1024, `${gzipped} bytes gzipped`);
});
