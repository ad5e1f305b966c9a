import assert from "node:assert/strict";
import { test } from "node:test";
import { confidence } from "../../src/router/calibration.ts";

test("confidence: the no-tool pull lowers it and closeness to the nearest tool text raises it", () => {
  const near = new Map([
    ["a", 0.8],
    ["b", 0.2],
  ]);
  const far = new Map([
    ["a", 0.3],
    ["b", 0.2],
  ]);
  // Same top fused score and no-tool pull: the query nearer to some tool text is the likelier tool request.
  assert.ok(confidence(0.5, near, 0.4, 0.5) > confidence(0.5, far, 0.4, 0.5));
  // Same candidates: a stronger pull towards the no-tool examples lowers it by the reject weight.
  assert.equal(
    Math.round((confidence(0.5, near, 0.2, 0.5) - confidence(0.5, near, 0.6, 0.5)) * 1e9) / 1e9,
    0.2,
  );
  // Without candidates only the fused score and the pull count.
  assert.equal(confidence(0.5, new Map(), 0.4, 0.5), 0.3);
});
