// Fits the filler's confidence table (src/intent/confidence.ts) on labelled requests and chooses the bar
// on requests the fit did not see. Every request whose answer names a tool with every value read is
// labelled by running that call as filled (gate or not) and judging its output as eval-requests does: a
// call on a request that should have asked or declined, or with the wrong output, is wrong. Each kind of
// evidence gets the share of right calls among the calls that used it (add-one smoothed); a call's
// confidence is its least sure value's. The bar is the lowest at which the held-back requests stay at
// most 2% silently wrong.
//   npx node scripts/fit-fill-confidence.ts --fit dev,test,test2,test3 --check test4
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  configFrom,
  containsExpected,
  type LabelledRequest,
  openSwitchboard,
  readLabelledRequests,
} from "../src/app/index.ts";
import { createLogger, readEnv } from "../src/config/index.ts";
import { type Evidence, FILL_CONFIDENCE, type FilledValue, fillConfidence } from "../src/intent/index.ts";

const { values } = parseArgs({
  options: {
    fit: { type: "string", default: "dev,test,test2,test3" },
    check: { type: "string", default: "test4" },
  },
});

interface Labelled {
  kinds: Evidence[];
  right: boolean;
}

async function label(splits: string[]): Promise<{ calls: Labelled[]; requests: number }> {
  const data = await mkdtemp(join(tmpdir(), "switchboard-fit-fill-"));
  const env = readEnv();
  const app = await openSwitchboard(configFrom(env, { data }), { logger: createLogger("error") });
  const calls: Labelled[] = [];
  let requests = 0;
  try {
    for (const split of splits) {
      const labelled: LabelledRequest[] = await readLabelledRequests(`catalog/eval/requests-${split}.jsonl`);
      for (const request of labelled) {
        if (request.kind === "multi_intent") continue;
        requests++;
        const answer = await app.routeAndExecute({
          query: request.query,
          ...(request.arguments ? { arguments: request.arguments } : {}),
        });
        const step = answer.steps.find((s) => s.step === "arguments") as
          | { tool?: string; filled?: FilledValue[] }
          | undefined;
        const unsure =
          answer.status === "needs_input" && (answer as { suggested?: unknown }).suggested !== undefined;
        if (!step?.tool || !step.filled || !(answer.status === "completed" || unsure)) continue;
        const fromQuery = step.filled.filter((v) => v.source === "query");
        if (fromQuery.length === 0) continue;
        const args = Object.fromEntries(step.filled.map((v) => [v.field, v.value]));
        let right = false;
        if (request.expect.status === "completed" && request.expect.tool === step.tool) {
          const [result] = await app.execute([{ id: "fit", name: step.tool, arguments: args }]);
          // A call that did not complete (a timeout on a loaded machine) says nothing of its values.
          if (result?.status !== "completed") continue;
          right = !request.expect.output || containsExpected(result.output, request.expect.output);
        }
        calls.push({ kinds: fromQuery.map((v) => v.evidence ?? "order"), right });
      }
    }
  } finally {
    await app.close();
    await rm(data, { recursive: true, force: true });
  }
  return { calls, requests };
}

const fit = await label((values.fit ?? "").split(","));
const table = { ...FILL_CONFIDENCE } as Record<Evidence, number>;
for (const kind of Object.keys(table) as Evidence[]) {
  if (kind === "agent") continue;
  const using = fit.calls.filter((c) => c.kinds.includes(kind));
  table[kind] = Math.round(((using.filter((c) => c.right).length + 1) / (using.length + 2)) * 1000) / 1000;
}
const check = await label((values.check ?? "").split(","));
const bars = [...new Set([0, ...Object.values(table)])].sort((a, b) => a - b);
const rows = bars.map((bar) => {
  const run = check.calls.filter((c) => fillConfidence(c.kinds, table) >= bar);
  const wrong = run.filter((c) => !c.right).length;
  return {
    bar,
    run: run.length,
    right: run.length - wrong,
    silentlyWrong: wrong,
    rate: wrong / check.requests,
  };
});
const chosen = rows.find((r) => r.rate <= 0.02);
console.log(
  JSON.stringify(
    { fitCalls: fit.calls.length, table, check: { requests: check.requests, rows }, bar: chosen?.bar },
    null,
    1,
  ),
);
