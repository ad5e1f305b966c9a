// Calibration from labelled queries (tools empty = no tool): the lexical weight, the no-tool weight, the
// threshold and the tier-1 confidence are fitted (calibration.ts) on the candidates each query gets from
// the index, and the no-tool queries join the reject class. Queries that are also learned examples are
// scored in two folds with their own fold's examples left out, so the fit is honest.
import {
  type Calibration,
  type Fit,
  fit,
  type LabelledCandidates,
  MAX_NO_TOOL_QUERIES,
} from "./calibration.ts";
import { RouterError } from "./errors.ts";
import { normaliseQuery } from "./feedback.ts";
import { LexicalIndex } from "./lexical.ts";
import type { RouterIndex } from "./router-index.ts";

export interface LabelledQuery {
  query: string;
  tools: readonly string[];
}

export const MAX_QUERY_CHARS = 1000;

/** Normalised, non-empty queries whose tools all exist. */
function checked(index: RouterIndex, labelled: readonly LabelledQuery[]): LabelledQuery[] {
  const items = labelled
    .map((l) => ({ query: normaliseQuery(l.query).slice(0, MAX_QUERY_CHARS), tools: l.tools }))
    .filter((l) => l.query.length > 0);
  if (items.length === 0) throw new RouterError("calibration needs at least one labelled query");
  for (const l of items)
    for (const name of l.tools)
      if (!index.tools.has(name))
        throw new RouterError(`labelled query names unknown tool "${name}": "${l.query}"`);
  return items;
}

/** Each query's vector: the index's own for queries that are learned examples, embedded for the rest. */
async function vectorsOf(index: RouterIndex, items: readonly LabelledQuery[]): Promise<Float32Array[]> {
  const labelOf = new Map<string, number>();
  for (const [label, entry] of index.files.entries)
    if (index.vectors.has(label)) labelOf.set(entry.text, label);
  const unknown = items.filter((l) => !labelOf.has(l.query)).map((l) => l.query);
  const embedded = await index.embedder.embed(unknown);
  const fresh = new Map(unknown.map((text, i) => [text, embedded[i] as Float32Array]));
  return items.map(
    (l) => fresh.get(l.query) ?? (index.vectors.get(labelOf.get(l.query) as number) as Float32Array),
  );
}

/** The candidates of one fold's queries, scored with that fold's own learned examples left out. */
function scoreFold(
  index: RouterIndex,
  items: readonly LabelledQuery[],
  vectors: readonly Float32Array[],
  fold: number,
): LabelledCandidates[] {
  const held = items.filter((_, i) => i % 2 === fold);
  const heldTexts = new Set(held.map((l) => l.query.toLowerCase()));
  const lexical = new LexicalIndex();
  const learned = index.feedback.byTool();
  for (const tool of index.tools.values())
    lexical.upsert(
      tool,
      (learned.get(tool.name) ?? []).filter((q) => !heldTexts.has(q.toLowerCase())),
      index.files.toolNumber(tool.name),
    );
  const excluded = new Set<number>();
  for (const [label, entry] of index.files.entries)
    if (heldTexts.has(entry.text.toLowerCase())) excluded.add(label);
  const scored: LabelledCandidates[] = [];
  items.forEach((l, i) => {
    if (i % 2 !== fold) return;
    const vector = vectors[i] as Float32Array;
    const c = index.candidates(l.query, vector, undefined, { holdOut: { lexical, excluded } });
    index.scoreByExamples(c.dense, vector, excluded);
    const choice = index.tiers.choose(vector);
    const tier = choice && {
      confidence: choice.confidence,
      kept: l.tools.every((t) => choice.categories.has(index.categoryOf.get(t) ?? "")),
    };
    const gold = l.tools.map((name) => index.files.toolNumber(name));
    scored.push({ gold, ...c, ...(tier ? { tier } : {}) });
  });
  return scored;
}

/** Fits the calibration on `labelled`, makes it the index's and persists it. */
export async function calibrate(index: RouterIndex, labelled: readonly LabelledQuery[]): Promise<Fit> {
  const items = checked(index, labelled);
  const vectors = await vectorsOf(index, items);
  const scored = [0, 1].flatMap((fold) => scoreFold(index, items, vectors, fold));
  const previous = index.calibration;
  const result = fit(scored, { rejectWeight: previous.rejectWeight });
  const noTool = items.filter((l) => l.tools.length === 0).map((l) => l.query);
  const calibration: Calibration = {
    version: 1,
    embedderId: index.embedder.id,
    lexicalWeight: result.lexicalWeight,
    subwordShare: result.subwordShare,
    rejectWeight: result.rejectWeight,
    threshold: result.threshold,
    tierConfidence: result.tierConfidence,
    fittedAt: new Date().toISOString(),
    source: `fitted on ${items.length} labelled queries (${items.length - noTool.length} with tools, ${noTool.length} without)`,
    noToolQueries: [...new Set([...previous.noToolQueries, ...noTool])].slice(-MAX_NO_TOOL_QUERIES),
  };
  await index.setCalibration(calibration);
  return result;
}
