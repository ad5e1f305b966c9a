// The dispatcher's default policy through the real service, against the flaky stand-in upstream: reads
// at 30% faults, writes at 30% faults, an outage and the recovery after it (test/dispatch/soak-service.ts).
// A smaller run than `npm run soak:dispatch`; the figures are printed. Timings are asserted only loosely
// here (a loaded machine is slow); the script holds the 50 ms fail-fast target.
import assert from "node:assert/strict";
import { test } from "node:test";
import { scaled } from "../load-factor.ts";
import { soakService } from "./soak-service.ts";

test("at the default policy: reads survive 30% faults, writes never run twice, an outage fails fast and recovery is seen", async () => {
  const report = await soakService({
    reads: 250,
    writes: 50,
    outageCalls: 150,
    concurrency: 16,
    failRate: 0.3,
  });
  console.log(JSON.stringify(report, null, 2));
  const { reads, writes, outage, recovery } = report;
  assert.ok(reads.completed >= 0.999 * reads.calls, `reads completed: ${reads.completed} of ${reads.calls}`);
  assert.equal(writes.ranTwice, 0, "no write ran twice");
  assert.equal(writes.doneButNotRun, 0, "no write reported done that did not run");
  assert.ok(writes.failed > 0, "some writes failed, so faults were really injected");
  assert.ok((outage.classes.breaker_open ?? 0) > 0.8 * outage.calls, "the outage is answered breaker_open");
  assert.ok(
    outage.upstreamRequestsPerCall < 1.6,
    `upstream requests per call: ${outage.upstreamRequestsPerCall}`,
  );
  assert.ok(outage.medianMsRefused < scaled(1000), `refusals are fast: median ${outage.medianMsRefused} ms`);
  assert.ok(
    recovery.pass,
    `recovered after ${recovery.recoveredAfterMs} ms; ${recovery.completedOfNext20} of 20 after`,
  );
});
