// Replicas sharing PostgreSQL agree on who may use a tool synthesized for an agent key: written through A,
// it is pending on B too (the owner's there, nobody else's), and a promotion through B reaches A. The
// LLM is a local chat-completions stand-in (test/fixtures/chat-stand-in.ts).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { BUNDLED_CATALOG } from "../../src/config/index.ts";
import { keyId } from "../../src/server/index.ts";
import { type ChatStandIn, startChatStandIn } from "../fixtures/chat-stand-in.ts";
import { type Cluster, call, type Service, skipWithoutServices, startCluster, waitFor } from "./harness.ts";

const MAINTAINER = "maint-replica-synth";
const ALICE = "agent-replica-alice";
const BOB = "agent-replica-bob";
// Made-up words no bundled tool serves, so that synthesis runs.
const QUERY = "quibble the wibble alpha";
const TOOL = "quibble_wibble_alpha";

describe("replicas agree on private synthesized tools", { skip: skipWithoutServices() }, () => {
  let llm: ChatStandIn;
  let cluster: Cluster;
  let a: Service;
  let b: Service;

  before(async () => {
    llm = await startChatStandIn(() =>
      JSON.stringify({
        name: TOOL,
        description: `Does what "${QUERY}" asks.`,
        inputSchema: { type: "object", properties: {} },
        code: `async function ${TOOL}() { return { made: "${TOOL}" }; }`,
      }),
    );
    cluster = await startCluster(
      BUNDLED_CATALOG,
      {
        SWITCHBOARD_MAINTAINER_KEYS: MAINTAINER,
        SWITCHBOARD_AGENT_KEYS: `${ALICE},${BOB}`,
        SWITCHBOARD_LLM_BASE_URL: llm.baseUrl,
        SWITCHBOARD_LLM_MODEL: "stand-in",
      },
      2,
    );
    [a, b] = cluster.replicas as [Service, Service];
  });
  after(async () => {
    await cluster?.stop();
    await llm?.close();
  });

  const routes = async (service: Service, key: string) =>
    (
      await call(service, "POST", "/v1/route", { key, body: { query: QUERY, topK: 50, threshold: 0 } })
    ).body.tools.some((t: { name: string }) => t.name === TOOL);
  /** "unknown_tool" when the caller may not see the tool (the call fails alone); otherwise its status. */
  const run = async (service: Service, key: string) => {
    const answer = await call(service, "POST", "/v1/execute", {
      key,
      body: { calls: [{ id: "x", name: TOOL }] },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [result] = answer.body.results;
    return result.error?.class === "unknown_tool" ? "unknown_tool" : result.status;
  };

  test("written through A, pending on B; promoted through B, everyone's on A", async () => {
    const made = await call(a, "POST", "/v1/route-and-execute", { key: ALICE, body: { query: QUERY } });
    assert.equal(made.body.status, "completed", JSON.stringify(made.body));
    // B takes the change in from the database, and keeps it Alice's.
    await waitFor("Alice's tool routable for her on B", () => routes(b, ALICE), 10_000);
    assert.equal(await routes(b, BOB), false);
    assert.equal(await run(b, BOB), "unknown_tool");
    assert.notEqual(await run(b, ALICE), "unknown_tool");
    const review = await call(b, "GET", "/v1/tools?status=pending", { key: MAINTAINER });
    assert.deepEqual(
      review.body.tools.map((t: { name: string; synthesis: { owner: string } }) => [
        t.name,
        t.synthesis.owner,
      ]),
      [[TOOL, keyId("agent", ALICE)]],
    );

    assert.equal((await call(b, "POST", `/v1/tools/${TOOL}/promote`, { key: MAINTAINER })).status, 200);
    await waitFor("the promotion seen on A", () => routes(a, BOB), 10_000);
    assert.notEqual(await run(a, BOB), "unknown_tool");
    assert.equal((await call(a, "POST", `/v1/tools/${TOOL}/promote`, { key: MAINTAINER })).status, 409);
  });
});
