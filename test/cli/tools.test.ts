// `switchboard tools`: the overlay the service serves, read and changed the way the API does it (here on a
// data folder; test/scaleout/cli.test.ts runs it on PostgreSQL beside a replica).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fixtureTools } from "../server/fixture-tools.ts";
import { CLI, tempDir, writeCatalog } from "../server/harness.ts";

let folder: string;
let catalog: string;
const { SWITCHBOARD_DATABASE_URL: _database, SWITCHBOARD_REDIS_URL: _redis, ...onDataFolder } = process.env;

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, "tools", ...args, "--data", join(folder, "data"), "--catalog", catalog],
      { env: onDataFolder },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const tool = {
  name: "stock_price",
  description: "Share price of a listed company on the stock exchange, by ticker symbol.",
  inputSchema: { type: "object", properties: { ticker: { type: "string" } } },
  binding: { type: "sandbox", code: "async function stock_price(args) { return { price: 1 }; }" },
};

before(async () => {
  folder = await tempDir("cli-tools");
  catalog = await writeCatalog(fixtureTools("http://127.0.0.1:9"));
});
after(() => rm(folder, { recursive: true, force: true }));

test("put stores a versioned tool, list shows it, delete removes it", async () => {
  const file = join(folder, "tool.yaml");
  await writeFile(file, JSON.stringify(tool));
  const first = await run(["put", file, "--json"]);
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(JSON.parse(first.stdout), { tools: [{ name: "stock_price", version: 1 }] });
  assert.equal(JSON.parse((await run(["put", file, "--json"])).stdout).tools[0].version, 2);
  const listed = JSON.parse((await run(["list", "--json"])).stdout).tools.map(
    (t: { name: string }) => t.name,
  );
  assert.ok(listed.includes("stock_price") && listed.includes("add_numbers"));
  assert.match(await readFile(join(folder, "data", "catalog", "overlay.json"), "utf8"), /stock_price/);

  assert.deepEqual(JSON.parse((await run(["delete", "stock_price", "--json"])).stdout), {
    deleted: "stock_price",
  });
  const gone = await run(["delete", "stock_price", "--json"]);
  assert.equal(gone.code, 1);
  assert.equal(JSON.parse(gone.stdout).error.code, "not_found");
});

test("a bad tool is refused with its file and place, and nothing is stored", async () => {
  const file = join(folder, "bad.json");
  await writeFile(file, JSON.stringify({ tools: [tool, { ...tool, name: "other", description: 7 }] }));
  const bad = await run(["put", file, "--json"]);
  assert.equal(bad.code, 1);
  const { error } = JSON.parse(bad.stdout);
  assert.equal(error.code, "invalid");
  assert.match(error.message, /bad\.json: tools\.1\.description: /);
  const listed = JSON.parse((await run(["list", "--json"])).stdout).tools.map(
    (t: { name: string }) => t.name,
  );
  assert.ok(!listed.includes("stock_price"));
  assert.equal((await run(["remove", "x"])).code, 2);
});
