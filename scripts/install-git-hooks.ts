// Part of `npm ci` (prepare): points this checkout's git at .githooks/, whose commit-msg hook refuses
// subjects over 72 characters. Outside a git checkout (an installed package) there is nothing to do.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
if (existsSync(`${root}/.githooks/commit-msg`) && existsSync(`${root}/.git`)) {
  const result = spawnSync("git", ["config", "core.hooksPath", ".githooks"], { cwd: root, stdio: "ignore" });
  if (result.status !== 0)
    process.stderr.write("switchboard: could not install the git hooks (is git installed?)\n");
}
