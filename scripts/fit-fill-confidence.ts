// Fits the filler's confidence table (src/intent/confidence.ts) on labelled requests and chooses the bar
// by cross-validation: each labelled set in turn is held out, the table is fitted on the others, and the
// held-out set's calls are gated with it. A call is labelled when route-and-execute had every value it
// needs (the arguments step says `ready`), so only the bar decides whether it runs: that call is run as
// filled and judged as eval-requests judges (a call on a request that should have asked or declined, or
// with the wrong output, is wrong). Each kind of evidence gets the share of right calls among the calls
// that used it (add-one smoothed: a kind the data never saw sits at 0.5); a call's confidence is its least
// sure value's or call-level signal's (the arguments step's `signals`: a stated value left unused, a number
// claimed from both sides, a tool run in place of the router's first, a barely-matched tool on values any
// tool could take), each signal a row fitted like any evidence. `wrong` lists the wrong calls with their kinds. BFCL-format files (--bfcl) add one set per category: each question answered with its own
// functions, each call of the answer (one per part of a split question) with every value at hand labelled
// right when it is one of the ground truth's calls (a call on an irrelevance question is wrong). The bar is the lowest table value above that uninformed 0.5 at
// which every held-out set stays at most 2% silently wrong; the table printed is fitted on every set.
//   npx node scripts/fit-fill-confidence.ts [--sets dev,test,…] [--bfcl test/fixtures/bfcl/mini_simple.json,…]
// With --family bare it fits the weights of tools without examples (src/intent/bare-confidence.ts, a
// logistic model) on the --bfcl files alone: each call's kinds are its values' evidence and its doubts; the
// questions are split in two folds by a hash of their id, the model fitted on one fold gates the other's calls, and the bar is the
// lowest at which, over those out-of-fold calls, each category stays at most 2% silently wrong (1% executed
// on questions that expect no call). Each fold's counts are printed beside the totals.
//   npx node scripts/fit-fill-confidence.ts --family bare --bfcl FILE,…

import { createHash } from "node:crypto";
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
import {
  BARE_FILL_WEIGHTS,
  bareFillConfidence,
  type Doubt,
  type Evidence,
  FILL_CONFIDENCE,
  type FilledValue,
  fillConfidence,
} from "../src/intent/index.ts";

const { values } = parseArgs({
  options: { sets: { type: "string" }, bfcl: { type: "string" }, family: { type: "string" } },
});

/** Silently wrong calls allowed per request, on sets the table was not fitted on. */
const MAX_SILENT_RATE = 0.02;
/** Where add-one smoothing puts a kind with no labelled calls: it never clears the bar alone. */
const UNINFORMED = 0.5;

interface Labelled {
  set: string;
  id: string;
  kinds: (Evidence | Doubt)[];
  right: boolean;
  /** The question's fold, for --family bare. */
  fold?: number;
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
          | { tool: string; filled: FilledValue[]; ready?: boolean; signals?: Evidence[] }
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
        // A call's kinds: each value's evidence and the call-level signals (a stated value left unused, a
        // tool run in place of the router's first), fitted as rows of the same table.
        calls.push({
          set,
          id: request.id,
          kinds: [...fromQuery.map((v) => v.evidence ?? "order"), ...(step.signals ?? [])],
          right,
        });
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
    for (const proposed of outcome.proposed ?? [])
      calls.push({
        set,
        id: outcome.id,
        kinds: [...proposed.evidence, ...proposed.doubts],
        right: proposed.right,
        fold: foldOf(outcome.id),
      });
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

/** One of two folds, by a hash of the question's id. */
function foldOf(id: string): number {
  return (createHash("sha256").update(id).digest()[0] ?? 0) % 2;
}

type Weights = Record<Evidence | Doubt | "bias", number>;

/** L2 penalty on the kinds' weights (not the bias): kinds seen on a few calls stay near 0. */
const L2 = 1;

/**
 * A logistic model of "the call is right" on the kinds present (evidence and doubts), fitted by gradient
 * descent on the mean log-loss with an L2 penalty; a few hundred labelled calls need no library.
 */
function fitBare(calls: Labelled[]): Weights {
  const kinds = (Object.keys(BARE_FILL_WEIGHTS) as (keyof Weights)[]).filter(
    (k) => k !== "bias" && k !== "agent",
  );
  const rows = calls.map((c) => ({ x: new Set<keyof Weights>(c.kinds), y: c.right ? 1 : 0 }));
  const w = Object.fromEntries(Object.keys(BARE_FILL_WEIGHTS).map((k) => [k, 0])) as Weights;
  const n = Math.max(1, rows.length);
  for (let step = 0; step < 2000; step++) {
    const grad = Object.fromEntries(Object.keys(w).map((k) => [k, 0])) as Weights;
    for (const row of rows) {
      let z = w.bias;
      for (const k of row.x) if (k !== "agent") z += w[k];
      const error = 1 / (1 + Math.exp(-z)) - row.y;
      grad.bias += error;
      for (const k of row.x) if (k !== "agent") grad[k] += error;
    }
    w.bias -= grad.bias / n;
    for (const k of kinds) w[k] -= grad[k] / n + (L2 * w[k]) / n;
  }
  for (const k of Object.keys(w) as (keyof Weights)[]) w[k] = Math.round(w[k] * 1000) / 1000;
  return w;
}

if (values.family === "bare") {
  if (!values.bfcl) throw new Error("--family bare needs --bfcl FILE,…");
  const { calls, requests } = await labelFunctions(values.bfcl.split(","));
  const weights = fitBare(calls);
  // Each call's confidence under the table fitted on the other fold.
  const outOfFold = [0, 1].flatMap((fold) => {
    const fitted = fitBare(calls.filter((c) => c.fold !== fold));
    return calls
      .filter((c) => c.fold === fold)
      .map((c) => ({ ...c, confidence: bareFillConfidence(c.kinds, fitted) }));
  });
  const allowed = (set: string) =>
    (set === "bfcl-irrelevance" ? 0.01 : MAX_SILENT_RATE) * Math.max(1, requests.get(set) ?? 0);
  const candidates = [...new Set([...outOfFold.map((c) => c.confidence), 1.001])]
    .filter((v) => v > UNINFORMED)
    .sort((a, b) => a - b);
  const rows = candidates.map((bar) => {
    const run = outOfFold.filter((c) => c.confidence >= bar);
    const tally = (set: string, fold?: number) => {
      const mine = run.filter((c) => c.set === set && (fold === undefined || c.fold === fold));
      const wrong = mine.filter((c) => !c.right).length;
      return { right: mine.length - wrong, wrong };
    };
    const bySet = Object.fromEntries(
      [...requests.keys()].map((set) => [
        set,
        { ...tally(set), of: requests.get(set) ?? 0, folds: [tally(set, 0), tally(set, 1)] },
      ]),
    );
    return { bar, bySet };
  });
  // The lowest bar at which, over both folds' out-of-fold calls, each category stays within its allowance.
  const chosen = rows.find((r) => Object.entries(r.bySet).every(([set, s]) => s.wrong <= allowed(set)));
  console.log(
    JSON.stringify(
      {
        requests: Object.fromEntries(requests),
        labelledCalls: calls.length,
        wrongCalls: calls.filter((c) => !c.right).length,
        weights,
        outOfFold: rows,
        bar: chosen?.bar,
      },
      null,
      1,
    ),
  );
  process.exit(0);
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
    .map((c) => ({
      ...c,
      confidence: fillConfidence(
        c.kinds.filter((k): k is Evidence => k in FILL_CONFIDENCE),
        fold,
      ),
    }));
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
      wrong: calls.filter((c) => !c.right).map((c) => `${c.id}: ${c.kinds.join(", ")}`),
      table,
      outOfFold: rows,
      bar: chosen?.bar,
    },
    null,
    1,
  ),
);
