// The route-and-execute service's own rule: a request longer than maxRequestChars is refused as invalid,
// naming the field, its length and the setting, before anything is routed, run or synthesized. (Answering
// a request is tested end to end in route-and-execute.test.ts and test/server.)
import assert from "node:assert/strict";
import { test } from "node:test";
import { AppError } from "../../src/app/index.ts";
import { routeAndExecuteWith } from "../../src/app/route-and-execute-service.ts";

test("a query over maxRequestChars is refused before any service is reached", async () => {
  const reached: string[] = [];
  // Every dependency records that it was reached and fails: the refusal must come first.
  const reach = (what: string): never => {
    reached.push(what);
    throw new Error(`${what} was reached`);
  };
  const answer = routeAndExecuteWith({
    config: { maxRequestChars: 100 },
    routing: { route: async () => reach("route") },
    directory: { get: () => reach("getTool") },
    execution: { runValidated: async () => reach("run") },
    synthesis: { synthesizeAndRun: async () => reach("synthesize") },
  });
  await assert.rejects(answer({ query: `convert ${"1".repeat(200)} euros` }), (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.code, "invalid");
    assert.match(
      error.message,
      /^query: is 214 characters long, more than the 100 .*SWITCHBOARD_MAX_REQUEST_CHARS/,
    );
    return true;
  });
  assert.deepEqual(reached, []);
});
