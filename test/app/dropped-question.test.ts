// A request answered whole must not drop a question one of its parts asks: dropsQuestion, on answers this
// test makes up.
import assert from "node:assert/strict";
import { test } from "node:test";
import { dropsQuestion } from "../../src/app/route-and-execute/dropped-question.ts";
import type { RouteAndExecuteResponse } from "../../src/app/types.ts";

/** A completed whole answer whose one value was read from `text` in `query`. */
function answeredFrom(query: string, text: string): RouteAndExecuteResponse {
  const start = query.indexOf(text);
  return {
    status: "completed",
    tool: "decode_token",
    steps: [
      {
        step: "arguments",
        tool: "decode_token",
        filled: [
          { field: "token", value: text, source: "query", span: { start, end: start + text.length, text } },
        ],
        confidence: 0.9,
        bar: 0.8,
        ready: true,
      },
    ],
  } as RouteAndExecuteResponse;
}

test("a question with a value of its own, left out of the whole answer, is dropped", () => {
  const query =
    "We got a 429 back overnight, should they retry? and what's the sub claim in this token: abc.def.ghi";
  const parts = [
    "We got a 429 back overnight, should they retry",
    "what's the sub claim in this token: abc.def.ghi",
  ];
  assert.equal(dropsQuestion(query, parts, answeredFrom(query, "abc.def.ghi")), true);
});

test("a facet question, a remark about the answer, or a whole answer that is not completed drops nothing", () => {
  const facet = "Here's the token: abc.def.ghi. When does it expire and what role does it carry?";
  const facetParts = ["Here's the token: abc.def.ghi", "When does it expire and what role does it carry"];
  assert.equal(dropsQuestion(facet, facetParts, answeredFrom(facet, "abc.def.ghi")), false);
  const remark = "decode abc.def.ghi. is that right for 2 people?";
  assert.equal(
    dropsQuestion(
      remark,
      ["decode abc.def.ghi", "is that right for 2 people"],
      answeredFrom(remark, "abc.def.ghi"),
    ),
    false,
  );
  const query = "We got a 429 back overnight, should they retry? and decode abc.def.ghi";
  const asking = { ...answeredFrom(query, "abc.def.ghi"), status: "needs_input" } as RouteAndExecuteResponse;
  assert.equal(
    dropsQuestion(query, ["We got a 429 back overnight, should they retry", "decode abc.def.ghi"], asking),
    false,
  );
});
