// Feedback (the service): a pair naming a tool the voter may not use is refused whole, naming the pair
// and the nearest name, with nothing recorded; an agent key's pairs wait as votes until a quorum agrees.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Feedback } from "../../src/app/feedback.ts";
import { AppError } from "../../src/app/index.ts";
import { LiveIndex } from "../../src/app/live-index.ts";
import { ToolDirectory } from "../../src/app/tool-directory.ts";
import { createLogger } from "../../src/config/index.ts";
import { type Fixture, openFixture, PRIVATE_TOOL, pendingFor } from "./services-fixture.ts";

const owner = { role: "agent" as const, id: "agent:owner" };
const other = { role: "agent" as const, id: "agent:other" };
let fixture: Fixture;
let feedback: Feedback;

before(async () => {
  fixture = await openFixture();
  const { registry, store } = fixture;
  await registry.put(PRIVATE_TOOL, "synthesized", pendingFor(owner.id));
  // Below the quorum nothing is learned, so the index is never opened here.
  const index = new LiveIndex({
    registry,
    open: () => Promise.reject(new Error("the index is not opened in these tests")),
    embedAhead: async () => {},
    logger: createLogger("silent"),
  });
  feedback = new Feedback({ store, quorum: 2, registry, directory: new ToolDirectory(registry), index });
});
after(() => fixture.close());

test("a pair naming another key's pending tool or a misspelt tool is refused whole, naming each", async () => {
  await assert.rejects(
    feedback.give(
      [
        { query: "weather in Oslo", tool: "get_weather" },
        { query: "count these words", tool: "count.words" },
        { query: "send a note", tool: "send_nte" },
      ],
      other,
    ),
    (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, "not_found");
      assert.match(error.message, /pairs\.1\.tool "count\.words"/);
      assert.match(error.message, /pairs\.2\.tool "send_nte".*send_note/);
      return true;
    },
  );
  assert.deepEqual(await feedback.votes(), [], "nothing was recorded, not even the valid pair");
});

test("an agent key's pair is a vote below the quorum: recorded, pending, not learned", async () => {
  const outcome = await feedback.give([{ query: "is it raining in Oslo", tool: "get_weather" }], other);
  assert.deepEqual(outcome, { recorded: 1, learned: 0, pending: 1, ignored: 0 });
  const votes = await feedback.votes();
  assert.equal(votes.length, 1);
  assert.equal(votes[0]?.tool, "get_weather");
});
