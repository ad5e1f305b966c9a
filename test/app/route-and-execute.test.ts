// Route-and-execute as an agent meets it, on a few bundled offline tools run in the real sandbox: a place
// no zone matches asks instead of answering in UTC, a JWT in the query is found and routed on, supplied
// arguments pick the tool that takes them, two intents get two answers, the second using the first's
// result; and `switchboard eval-requests` judges such requests by kind.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { configFrom, openSwitchboard, type Switchboard } from "../../src/app/index.ts";
import { loadCatalog } from "../../src/catalog/index.ts";
import { createLogger, readEnv } from "../../src/config/index.ts";

const ROOT = join(import.meta.dirname, "../..");
const NAMES = [
  "current_time",
  "convert_timezone",
  "jwt_decode",
  "base64_codec",
  "convert_units",
  "convert_number_base",
  "generate_uuid",
  "unix_timestamp",
];
const JWT =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

let app: Switchboard;
let catalog: string;

before(async () => {
  const dir = await mkdtemp(join(tmpdir(), "switchboard-rae-"));
  const tools = (await loadCatalog(join(ROOT, "catalog"))).filter((t) => NAMES.includes(t.name));
  // Sandboxed code must live inside its catalog's folder: each tool's file is copied next to the catalog.
  await mkdir(join(dir, "tools"));
  for (const tool of tools) {
    if (tool.binding?.type !== "sandbox" || !tool.binding.file)
      throw new Error(`${tool.name} is not sandboxed`);
    const file = `tools/${basename(tool.binding.file)}`;
    await copyFile(tool.binding.file, join(dir, file));
    tool.binding = { ...tool.binding, file };
    // The catalog's deadlines are for a quiet machine; this file tests answers, not speed.
    tool.policy = { ...tool.policy, timeoutMs: 30_000 };
  }
  catalog = join(dir, "catalog.json");
  await writeFile(catalog, JSON.stringify({ tools }));
  const env = readEnv();
  app = await openSwitchboard(
    configFrom({ ...env, SWITCHBOARD_LLM_BASE_URL: undefined }, { catalog, data: join(dir, "data") }),
    {
      logger: createLogger("error"),
    },
  );
});
after(() => app?.close());

test("a city is read into the zone; a place no zone matches asks instead of answering in UTC", async () => {
  const tokyo = await app.routeAndExecute({ query: "what time is it in Tokyo" });
  assert.equal(tokyo.status, "completed", JSON.stringify(tokyo));
  assert.equal((tokyo.result?.output as { zone?: string } | undefined)?.zone, "Asia/Tokyo");
  const step = tokyo.steps.find((s) => s.step === "arguments");
  assert.ok(step?.step === "arguments");
  assert.deepEqual(step.filled[0]?.span, { start: 19, end: 24, text: "Tokyo" });
  const atlantis = await app.routeAndExecute({ query: "what time is it in Atlantis" });
  assert.equal(atlantis.status, "needs_input", JSON.stringify(atlantis));
  assert.deepEqual(
    atlantis.missing?.map((m) => m.field),
    ["timezone"],
  );
  assert.match(atlantis.question ?? "", /time zone/);
});

test("a JWT pasted into the query is taken out of the routing text and decoded", async () => {
  const answer = await app.routeAndExecute({ query: `decode this jwt ${JWT}` });
  assert.equal(answer.status, "completed", JSON.stringify(answer.steps));
  assert.equal(answer.tool, "jwt_decode");
  const route = answer.steps[0];
  assert.ok(route?.step === "route");
  assert.equal(route.routedText, "decode this jwt jwt");
});

test("without the value it needs, the chosen tool asks for it; the agent's argument picks the tool that takes it", async () => {
  const asked = await app.routeAndExecute({ query: "decode this jwt" });
  assert.equal(asked.status, "needs_input");
  assert.equal(asked.tool, "jwt_decode");
  assert.deepEqual(
    asked.missing?.map((m) => m.field),
    ["token"],
  );
  const given = await app.routeAndExecute({ query: "what's inside this", arguments: { token: JWT } });
  assert.equal(given.status, "completed", JSON.stringify(given.steps));
  assert.equal(given.tool, "jwt_decode");
});

test("two intents, the second using the first's result", async () => {
  const answer = await app.routeAndExecute({
    query: "convert 10 km to metres, then give that number in binary",
  });
  assert.equal(answer.status, "completed", JSON.stringify(answer));
  assert.deepEqual(
    answer.intents?.map((i) => i.tool),
    ["convert_units", "convert_number_base"],
  );
  assert.equal(answer.intents?.[1]?.intent, "give 10000 in binary");
  const second = answer.intents?.[1]?.result;
  assert.equal(second?.status, "completed");
  assert.equal(
    (second?.output as { results?: Record<string, string> } | undefined)?.results?.["2"],
    "10011100010000",
  );
});

test("switchboard eval-requests reports correct and silently wrong answers by kind", async () => {
  const dir = await mkdtemp(join(tmpdir(), "switchboard-rae-eval-"));
  const file = join(dir, "requests.jsonl");
  const lines = [
    {
      id: "a",
      kind: "self_contained",
      query: "what time is it in Berlin",
      expect: { status: "completed", tool: "current_time", output: { zone: "Europe/Berlin" } },
    },
    // Labelled wrong on purpose: the answer completes with another zone, so it counts as silently wrong.
    {
      id: "b",
      kind: "self_contained",
      query: "what time is it in Paris",
      expect: { status: "completed", tool: "current_time", output: { zone: "Asia/Tokyo" } },
    },
    {
      id: "c",
      kind: "missing",
      query: "what time is it in Atlantis",
      expect: { status: "needs_input", tool: "current_time" },
    },
  ];
  await writeFile(file, lines.map((l) => JSON.stringify(l)).join("\n"));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    // The bundled catalog, as a maintainer runs it: its shipped calibration decides what matches.
    [join(ROOT, "bin/switchboard.js"), "eval-requests", "--queries", file, "--json"],
    { cwd: ROOT, env: { ...process.env, SWITCHBOARD_LOG_LEVEL: "error" } },
  );
  const report = JSON.parse(stdout);
  assert.deepEqual(report.byKind.self_contained, {
    requests: 2,
    correct: 1,
    silentlyWrong: 1,
    correctRate: 0.5,
    silentlyWrongRate: 0.5,
  });
  assert.equal(report.byKind.missing.correct, 1);
  assert.equal(report.overall.correct, 2);
});

test("a place the request only points at is asked for; a zone link Intl accepts but does not list runs", async () => {
  const pointed = await app.routeAndExecute({ query: "what's the local time where the customer lives?" });
  assert.equal(pointed.status, "needs_input", JSON.stringify(pointed.steps));
  assert.equal(pointed.tool, "current_time");
  const linked = await app.routeAndExecute({
    query: "what time is it there right now",
    arguments: { timezone: "Asia/Kolkata" },
  });
  assert.equal(linked.status, "completed", JSON.stringify(linked.steps));
  assert.equal((linked.result?.output as { zone?: string } | undefined)?.zone, "Asia/Kolkata");
});

// Whether words alone that barely reach a tool run it ("generate a barcode for this product") is the bundled
// catalog's calibration's to say: test/server/route-and-execute-new-user.test.ts.
test("a quantity with its two units runs the converter over a tool whose enum the words name", async () => {
  const seconds = await app.routeAndExecute({ query: "how many seconds in 3 hours" });
  assert.equal(seconds.status, "completed", JSON.stringify(seconds.steps));
  assert.equal(seconds.tool, "convert_units");
  assert.equal((seconds.result?.output as { result?: number } | undefined)?.result, 10800);
});

test("a later part that no tool serves is not dropped by answering the request whole", async () => {
  const answer = await app.routeAndExecute({ query: "convert 2 km to meters and then paint it blue" });
  assert.notEqual(answer.status, "completed", JSON.stringify(answer));
  assert.equal(answer.intents?.[0]?.status, "completed");
});
