// Replicas sharing one PostgreSQL: a catalog change through one is routable on the others, acknowledged
// writes survive a replica killed mid-burst, and a database restart stops writes (503) but not routing.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { down, up } from "../../scripts/services.ts";
import { fixtureTools } from "../server/fixture-tools.ts";
import { writeCatalog } from "../server/harness.ts";
import {
  type Cluster,
  call,
  readyz,
  type Service,
  sandboxTool,
  skipWithoutServices,
  startCluster,
  topTool,
  waitFor,
} from "./harness.ts";

const maintainer = "maintainer-key";
const agent = "agent-key";
const env = { SWITCHBOARD_MAINTAINER_KEYS: maintainer, SWITCHBOARD_AGENT_KEYS: agent };

describe("replicas sharing PostgreSQL", { skip: skipWithoutServices() }, () => {
  let cluster: Cluster;
  let a: Service;
  let b: Service;
  /** Killed with SIGKILL by one test; started with the others to save a start. */
  let victim: Service;

  before(async () => {
    const sandboxTools = fixtureTools("http://127.0.0.1:9").filter(
      (t) => (t as { binding: { type: string } }).binding.type === "sandbox",
    );
    cluster = await startCluster(await writeCatalog(sandboxTools), env, 3);
    [a, b, victim] = cluster.replicas as [Service, Service, Service];
  });
  after(() => cluster?.stop());

  test("a put and a delete through A reach B's routing", async (t) => {
    const query = "what is the share price of ACME on the stock exchange";
    // Routed once before, so B's query embedding is cached and the wait below times the put's propagation.
    assert.notEqual(await topTool(b, agent, query), "stock_price");
    const put = await call(a, "PUT", "/v1/tools/stock_price", {
      key: maintainer,
      body: sandboxTool(
        "stock_price",
        "Share price of a listed company on the stock exchange, by ticker symbol.",
      ),
    });
    assert.equal(put.status, 200);
    const putMs = await waitFor(
      "put routable on B",
      async () => (await topTool(b, agent, query)) === "stock_price",
      5000,
    );
    assert.equal((await call(b, "GET", "/v1/tools/stock_price", { key: agent })).body.version, 1);

    assert.equal((await call(a, "DELETE", "/v1/tools/stock_price", { key: maintainer })).status, 200);
    const deleteMs = await waitFor(
      "delete seen by B",
      async () => (await call(b, "GET", "/v1/tools/stock_price", { key: agent })).status === 404,
      5000,
    );
    assert.notEqual(await topTool(b, agent, query), "stock_price");
    t.diagnostic(`put routable on B after ${putMs} ms, delete after ${deleteMs} ms`);
  });

  test("kill -9 of a replica during 20 concurrent puts loses nothing acknowledged", async (t) => {
    const acknowledged: string[] = [];
    let killed = false;
    const puts = Array.from({ length: 20 }, async (_, i) => {
      const name = `burst_${i}`;
      const answer = await call(victim, "PUT", `/v1/tools/${name}`, {
        key: maintainer,
        body: sandboxTool(name, `Burst tool number ${i}: stores a record in archive shelf ${i}.`),
      }).catch(() => undefined);
      if (answer?.status !== 200) return;
      acknowledged.push(name);
      if (acknowledged.length === 5 && !killed) {
        killed = true;
        victim.child.kill("SIGKILL");
      }
    });
    await Promise.all(puts);
    await victim.stop();
    assert.ok(killed, "the replica was killed after 5 acknowledged puts");
    const names = async (): Promise<Set<string>> =>
      new Set(
        (await call(b, "GET", "/v1/tools", { key: agent })).body.tools.map((x: { name: string }) => x.name),
      );
    await waitFor(
      "acknowledged puts on B",
      async () => {
        const onB = await names();
        return acknowledged.every((name) => onB.has(name));
      },
      5000,
    );
    const onB = await names();
    const lost = acknowledged.filter((name) => !onB.has(name));
    assert.deepEqual(lost, []);
    t.diagnostic(
      `${acknowledged.length} of 20 puts acknowledged (kill -9 after the 5th), all on B; ${[...onB].filter((n) => n.startsWith("burst_")).length} burst tools stored`,
    );
  });

  test("PostgreSQL restart under load: routing continues, writes answer 503 and then recover", async (t) => {
    const statuses: number[] = [];
    let loading = true;
    const load = (async () => {
      while (loading) {
        statuses.push(
          (await call(a, "POST", "/v1/route", { key: agent, body: { query: "add 2 and 3", topK: 1 } }))
            .status,
        );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await down(cluster.folder, "postgres");
    await waitFor(
      "A reports postgres down",
      async () => (await readyz(a)).body.stores?.postgres === "down",
      10_000,
    );
    const refused = await call(a, "PUT", "/v1/tools/while_down", {
      key: maintainer,
      body: sandboxTool("while_down", "Written while the database was away; stored after it came back."),
    });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error.code, "store_unavailable");
    assert.equal(
      (await call(a, "GET", "/v1/tools/while_down", { key: agent })).status,
      404,
      "a refused write changes nothing",
    );

    await up(cluster.folder, "postgres");
    const recoveredMs = await waitFor(
      "writes recover",
      async () =>
        (
          await call(a, "PUT", "/v1/tools/while_down", {
            key: maintainer,
            body: sandboxTool(
              "while_down",
              "Written while the database was away; stored after it came back.",
            ),
          })
        ).status === 200,
      20_000,
    );
    await waitFor(
      "B catches up",
      async () => (await call(b, "GET", "/v1/tools/while_down", { key: agent })).status === 200,
      5000,
    );
    await waitFor(
      "A reports postgres up",
      async () => (await readyz(a)).body.stores?.postgres === "up",
      5000,
    );
    loading = false;
    await load;
    assert.ok(statuses.length > 0);
    assert.deepEqual(
      statuses.filter((s) => s !== 200),
      [],
      "every route during the outage answered",
    );
    t.diagnostic(
      `${statuses.length} routes during the restart, all 200; writes back ${recoveredMs} ms after PostgreSQL started`,
    );
  });
});
