// The repository's commit-msg hook, run as git runs it: a file holding the message, exit status as the verdict.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const HOOK = fileURLToPath(new URL("../../.githooks/commit-msg", import.meta.url));

function verdict(message: string) {
  const file = join(mkdtempSync(join(tmpdir(), "switchboard-commit-msg-")), "COMMIT_EDITMSG");
  writeFileSync(file, message);
  return spawnSync("sh", [HOOK, file], { encoding: "utf8" });
}

test("a subject of 72 characters passes; 73 is refused with its length; the body may be longer", () => {
  const body = `\n\n${"a long body line ".repeat(10)}\n`;
  assert.equal(verdict(`${"s".repeat(72)}${body}`).status, 0);
  const refused = verdict(`${"s".repeat(73)}${body}`);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /73 characters; at most 72/);
  assert.equal(verdict(`# a comment line git strips\nshort subject\n`).status, 0);
});
