// Fits the filler's confidence table (src/intent/confidence.ts) on labelled requests and chooses the bar
// by cross-validation: each labelled set in turn is held out, the table is fitted on the others, and the
// held-out set's calls are gated with it. A call is labelled when route-and-execute had every value it
// needs (the arguments step says `ready`), so only the bar decides whether it runs: that call is run as
// filled and judged as eval-requests judges (a call on a request that should have asked or declined, or
// with the wrong output, is wrong). Each kind of evidence gets the share of right calls among the calls
// that used it (add-one smoothed: a kind the data never saw sits at 0.5); a call's confidence is its least
// sure value's. BFCL-format files (--bfcl) add one set per category: each question answered with its own
// functions, a one-call answer with every value at hand labelled right when it matches the ground truth (a
// call on an irrelevance question is wrong). The bar is the lowest table value above that uninformed 0.5 at
// which every held-out set stays at most 2% silently wrong; the table printed is fitted on every set.
//   npx node scripts/fit-fill-confidence.ts [--sets dev,test,…] [--bfcl ../shared/eval/bfcl/BFCL_v4_simple_python.json,…]
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  configFrom,
  containsExpected,
  evaluateFunctions,
  type LabelledRequest,
  openSwitchboard,
  readLabelledRequests,
} from "../src/app/index.ts";
import { createLogger, readEnv } from "../src/config/index.ts";
import { type Evidence, FILL_CONFIDENCE, type FilledValue, fillConfidence } from "../src/intent/index.ts";

const { values } = parseArgs({ options: { sets: { type: "string" }, bfcl: { type: "string" } } });

/** Silently wrong calls allowed per request, on sets the table was not fitted on. */
const MAX_SILENT_RATE = 0.02;
/** Where add-one smoothing puts a kind with no labelled calls: it never clears the bar alone. */
const UNINFORMED = 0.5;

interface Labelled {
  set: string;
  kinds: Evidence[];
  right: boolean;
}

async function label(sets: string[]): Promise<{ calls: Labelled[]; requests: Map<string, number> }> {
  const data = await mkdtemp(join(tmpdir(), "switchboard-fit-fill-"));
  const env = readEnv();
  const app = await openSwitchboard(configFrom(env, { data }), {
    logger: createLogger("error"),
    waitForSandbox: true,
  });
  const calls: Labelled[] = [];
  const requests = new Map<string, number>();
  try {
    for (const set of sets) {
      const labelled: LabelledRequest[] = await readLabelledRequests(`catalog/eval/requests-${set}.jsonl`);
      for (const request of labelled) {
        if (request.kind === "multi_intent") continue;
        requests.set(set, (requests.get(set) ?? 0) + 1);
        const answer = await app.routeAndExecute({
          query: request.query,
          ...(request.arguments ? { arguments: request.arguments } : {}),
        });
        const step = answer.steps.find((s) => s.step === "arguments") as
          | { tool: string; filled: FilledValue[]; ready?: boolean }
          | undefined;
        if (!step?.ready) continue;
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
        calls.push({ set, kinds: fromQuery.map((v) => v.evidence ?? "order"), right });
      }
    }
  } finally {
    await app.close();
    await rm(data, { recursive: true, force: true });
  }
  return { calls, requests };
}

/** BFCL questions as labelled calls, one set per category. */
async function labelFunctions(
  files: string[],
): Promise<{ calls: Labelled[]; requests: Map<string, number> }> {
  const env = readEnv();
  const report = await evaluateFunctions(files, {
    settings: {
      embedder: {
        kind: env.SWITCHBOARD_EMBEDDER,
        ...(env.SWITCHBOARD_MODEL ? { model: env.SWITCHBOARD_MODEL } : {}),
      },
    },
  });
  const requests = new Map<string, number>();
  const calls: Labelled[] = [];
  for (const outcome of report.outcomes) {
    const set = `bfcl-${outcome.category}`;
    requests.set(set, (requests.get(set) ?? 0) + 1);
    if (outcome.proposed)
      calls.push({ set, kinds: outcome.proposed.evidence, right: outcome.proposed.right });
  }
  return { calls, requests };
}

function fitTable(calls: Labelled[]): Record<Evidence, number> {
  const table = { ...FILL_CONFIDENCE } as Record<Evidence, number>;
  for (const kind of Object.keys(table) as Evidence[]) {
    if (kind === "agent") continue;
    const using = calls.filter((c) => c.kinds.includes(kind));
    table[kind] = Math.round(((using.filter((c) => c.right).length + 1) / (using.length + 2)) * 1000) / 1000;
  }
  return table;
}

const sets =
  values.sets?.split(",") ??
  (await readdir("catalog/eval")).flatMap((f) => /^requests-(.+)\.jsonl$/.exec(f)?.[1] ?? []).sort();
const labelled = await label(sets);
const functions = values.bfcl
  ? await labelFunctions(values.bfcl.split(","))
  : { calls: [], requests: new Map() };
const calls = [...labelled.calls, ...functions.calls];
const requests = new Map([...labelled.requests, ...functions.requests]);
sets.push(...functions.requests.keys());
const table = fitTable(calls);
// Out of fold: each set's calls with their confidence under the table fitted without that set.
const outOfFold = sets.flatMap((held) => {
  const fold = fitTable(calls.filter((c) => c.set !== held));
  return calls
    .filter((c) => c.set === held)
    .map((c) => ({ ...c, confidence: fillConfidence(c.kinds, fold) }));
});
const total = [...requests.values()].reduce((a, b) => a + b, 0);
const bars = [...new Set(Object.values(table))].filter((v) => v > UNINFORMED).sort((a, b) => a - b);
const rows = bars.map((bar) => {
  const run = outOfFold.filter((c) => c.confidence >= bar);
  const wrong = run.filter((c) => !c.right).length;
  const bySet = Object.fromEntries(
    sets.map((set) => {
      const mine = run.filter((c) => c.set === set);
      const silently = mine.filter((c) => !c.right).length;
      return [set, { run: mine.length, silentlyWrong: silently, rate: silently / (requests.get(set) ?? 1) }];
    }),
  );
  return {
    bar,
    run: run.length,
    right: run.length - wrong,
    silentlyWrong: wrong,
    rate: wrong / total,
    bySet,
  };
});
const chosen = rows.find((r) => Object.values(r.bySet).every((s) => s.rate <= MAX_SILENT_RATE));
console.log(
  JSON.stringify(
    {
      requests: Object.fromEntries(requests),
      labelledCalls: calls.length,
      wrongCalls: calls.filter((c) => !c.right).length,
      table,
      outOfFold: rows,
      bar: chosen?.bar,
    },
    null,
    1,
  ),
);
