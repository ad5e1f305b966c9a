// Routing quality on labelled queries, as `switchboard eval` measures it, for the service: the figures
// (hit@1, recall@K, no-tool AUROC), the score each query gave the right tool, the best wrong tool and, for
// queries that need no tool, the top tool, and the pairs of tools the router confuses most. The labelled set
// is the catalog's own (`<catalog folder>/eval/queries.jsonl`, as the bundled catalog ships) or one the
// caller sends.
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { evaluate, type Judged, MAX_QUERY_CHARS, type QueryLine, readQueryLines } from "../router/index.ts";

/** Labelled queries one request may send: routing them all takes a while on a busy machine. */
export const MAX_EVAL_QUERIES = 1000;
/** How deep each query is ranked: the right tool's score is known when it ranks this high. */
const RANKED_DEPTH = 20;
const CONFUSED_PAIRS = 10;
const EXAMPLES_PER_PAIR = 3;

const labelledQuerySchema = z.strictObject({
  query: z.string().trim().min(1, "must not be empty").max(MAX_QUERY_CHARS),
  tools: z.array(z.string().min(1).max(128)).max(20).meta({ description: "Right tools; [] for no tool" }),
});

export const routeEvaluationRequestSchema = z
  .strictObject({
    set: z
      .enum(["catalog", "uploaded"])
      .meta({ description: "catalog: the catalog's own labelled queries; uploaded: the `queries` sent" }),
    queries: z.array(labelledQuerySchema).min(1).max(MAX_EVAL_QUERIES).optional(),
    topK: z.number().int().min(1).max(RANKED_DEPTH).default(5),
  })
  .refine((request) => (request.set === "uploaded") === (request.queries !== undefined), {
    message: 'queries are sent with set "uploaded", and only then',
    path: ["queries"],
  })
  .meta({ id: "RouteEvaluationRequest" });
export type RouteEvaluationRequest = z.infer<typeof routeEvaluationRequestSchema>;

export const routeEvaluationResponseSchema = z
  .object({
    set: z.enum(["catalog", "uploaded"]),
    queries: z.number().int(),
    topK: z.number().int(),
    threshold: z.number(),
    metrics: z.record(z.string(), z.number().nullable()).meta({
      description: "hit@1, recall@K, complete@K, mrr, noToolAUROC, noToolAccuracy, p50Ms, p99Ms",
    }),
    scores: z.object({
      right: z.array(z.number()).meta({ description: "The right tool's score, per query that ranked it" }),
      bestWrong: z
        .array(z.number())
        .meta({ description: "The best wrong tool's score, per query with tools" }),
      noTool: z.array(z.number()).meta({ description: "The top score of each query that needs no tool" }),
    }),
    rightUnranked: z
      .number()
      .int()
      .meta({ description: `Queries whose right tool ranked below ${RANKED_DEPTH}` }),
    confused: z.array(
      z.object({
        expected: z.string(),
        chosen: z.string(),
        count: z.number().int(),
        queries: z.array(z.string()),
      }),
    ),
  })
  .meta({ id: "RouteEvaluation" });
export type RouteEvaluation = z.infer<typeof routeEvaluationResponseSchema>;

/** The labelled set a catalog folder ships beside its tools, if any. */
export async function catalogLabelledSet(catalog: string): Promise<string | undefined> {
  const file = join(catalog, "eval", "queries.jsonl");
  const found = await stat(file).catch(() => undefined);
  return found?.isFile() ? file : undefined;
}

export async function readCatalogLabelledSet(catalog: string): Promise<QueryLine[] | undefined> {
  const file = await catalogLabelledSet(catalog);
  return file ? readQueryLines(file, true) : undefined;
}

interface Ranked {
  threshold: number;
  tools: { name: string; score: number }[];
}

/** Routes each query in turn (one at a time, so an evaluation does not crowd out the service's callers). */
export async function evaluateRouting(
  queries: readonly { query: string; tools: readonly string[] }[],
  topK: number,
  route: (query: string, depth: number) => Promise<Ranked>,
): Promise<Omit<RouteEvaluation, "set">> {
  const judged: Judged[] = [];
  const scores: RouteEvaluation["scores"] = { right: [], bestWrong: [], noTool: [] };
  const confused = new Map<string, { expected: string; chosen: string; count: number; queries: string[] }>();
  let rightUnranked = 0;
  let threshold = 0;
  for (const { query, tools: gold } of queries) {
    const started = performance.now();
    const result = await route(query, RANKED_DEPTH);
    const ms = performance.now() - started;
    threshold = result.threshold;
    const top = result.tools[0];
    judged.push({
      gold,
      ranked: result.tools.map((t) => t.name),
      confidence: top?.score ?? -1,
      matched: top !== undefined && top.score >= result.threshold,
      ms,
    });
    if (gold.length === 0) {
      if (top) scores.noTool.push(top.score);
      continue;
    }
    const right = result.tools.find((t) => gold.includes(t.name));
    if (right) scores.right.push(right.score);
    else rightUnranked++;
    const wrong = result.tools.find((t) => !gold.includes(t.name));
    if (wrong) scores.bestWrong.push(wrong.score);
    if (top && !gold.includes(top.name)) {
      const expected = gold[0] ?? "";
      const key = `${expected}\n${top.name}`;
      const pair = confused.get(key) ?? { expected, chosen: top.name, count: 0, queries: [] };
      pair.count++;
      if (pair.queries.length < EXAMPLES_PER_PAIR) pair.queries.push(query);
      confused.set(key, pair);
    }
  }
  // Ranked RANKED_DEPTH deep for the scores; the figures count only the top K, as `eval --top-k` does.
  const metrics = evaluate(
    judged.map((j) => ({ ...j, ranked: j.ranked.slice(0, topK) })),
    topK,
  );
  return {
    queries: queries.length,
    topK,
    threshold,
    metrics,
    scores,
    rightUnranked,
    confused: [...confused.values()]
      .sort((a, b) => b.count - a.count || a.expected.localeCompare(b.expected))
      .slice(0, CONFUSED_PAIRS),
  };
}
