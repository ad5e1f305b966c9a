// A quoted value to an optional parameter that names a name, and a bare call that reads nothing while the
// request states a value: on a schema this test makes up.
import assert from "node:assert/strict";
import { test } from "node:test";
import { BARE_FILL_CONFIDENCE_BAR, fillArguments } from "../../src/intent/index.ts";
import { schema, str } from "./made-up-schemas.ts";

const dock = schema({ device_name: str("Name of the robot. Default is the primary one.") }, []);

test("a quoted value goes to an optional parameter that names a name", () => {
  assert.equal(
    fillArguments('Send "Roomba Upstairs" back to its dock.', dock).arguments.device_name,
    "Roomba Upstairs",
  );
});

test("a bare call that reads nothing is not sure when the request states a value no parameter took", () => {
  const mode = schema({ mode: { type: "string", enum: ["eco", "max"] } }, []);
  const silent = fillArguments("run the cleaner", mode, {}, { bare: true });
  assert.equal(silent.confidence, 1);
  const stated = fillArguments('run the cleaner on "Roomba Upstairs"', mode, {}, { bare: true });
  assert.ok(stated.confidence < BARE_FILL_CONFIDENCE_BAR, String(stated.confidence));
});
