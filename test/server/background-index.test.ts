// A large catalog's first start: the real service is ready once BM25 is built, routes on BM25 and trigrams
// with a notice while its dense index fills, says so in /readyz, and routes on everything once complete.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, type Service, startService, writeCatalog } from "./harness.ts";

/** Enough distinct texts to be over the background bar (BACKGROUND_FILL_FROM_TEXTS) on any machine. */
const TOOLS = 1500;
/** A safety net, not a claim: how long the fill may take at load 20 on two cores. */
const FILL_LIMIT_MS = 400_000;

let service: Service;

before(async () => {
  const departments = ["billing", "shipping", "records", "weather", "library"];
  const tools = Array.from({ length: TOOLS }, (_, i) => ({
    name: `lookup_${i}`,
    description: `Looks up entry ${i} of the ${departments[i % 5]} ledger, shelf ${Math.floor(i / 5)}.`,
    inputSchema: { type: "object" },
    category: departments[i % 5],
  }));
  tools.push({
    name: "currency_converter",
    description: "Converts an amount of money between currencies at today's exchange rates.",
    inputSchema: { type: "object" },
    category: "finance",
  });
  service = await startService({ catalog: await writeCatalog(tools) });
});
after(async () => {
  await service?.stop();
});

test("a large catalog is ready on BM25 while its dense index fills, then routes on all of it", async () => {
  const early = await call(service, "POST", "/v1/route", {
    body: { query: "convert money between currencies", topK: 3 },
  });
  assert.equal(early.status, 200);
  assert.equal(early.body.tools[0].name, "currency_converter");
  assert.equal(early.body.tools[0].why.dense, 0);
  assert.match(early.body.notices.join(" "), /dense index is still filling/);
  const ready = service
    .logs()
    .split("\n")
    .find((line) => line.includes('"msg":"ready"'));
  assert.match(ready ?? "", /"dense":"filling"/);

  const readyz = await call(service, "GET", "/readyz");
  assert.equal(readyz.status, 200);
  assert.equal(readyz.body.index.dense.state, "filling");

  const deadline = Date.now() + FILL_LIMIT_MS;
  let state = readyz.body;
  while (state.index && Date.now() < deadline) {
    assert.ok(state.index.dense.embedded <= state.index.dense.total);
    await new Promise((resolve) => setTimeout(resolve, 500));
    state = (await call(service, "GET", "/readyz")).body;
  }
  assert.deepEqual(state, { status: "ready" });
  const late = await call(service, "POST", "/v1/route", {
    body: { query: "convert money between currencies", topK: 3 },
  });
  assert.equal(late.body.tools[0].name, "currency_converter");
  assert.ok(late.body.tools[0].why.dense > 0);
  assert.deepEqual(late.body.notices ?? [], []);
  assert.match(service.logs(), /dense index complete/);
});
