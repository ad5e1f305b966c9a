// How sure the filler is of a call to a bare function definition: a tool with neither example requests nor
// example calls, as imported OpenAI, Anthropic or BFCL definitions are. Nothing teaches the filler how such
// a tool's values are phrased, so the same evidence is right less often than for a described tool (on the
// bundled catalog's tools, every one has examples; see confidence.ts). Bare tools get weights and a bar of
// their own, fitted on labelled function-calling questions by `scripts/fit-fill-confidence.ts --family bare`,
// the bar chosen on questions the weights were fitted without. Besides each value's evidence, a call carries
// doubts that any schema shows; evidence and doubts are the features of one logistic model.
import type { Evidence } from "./confidence.ts";

/** What makes a filled call doubtful beyond its values' evidence. */
export type Doubt =
  /** An optional parameter that is not a number left to its default: the request may state it in words the filler missed ("in inches"). */
  | "optional_left"
  /** Some numbers placed by their words, others by order alone: the order fills what the cues left, often permuted. */
  | "order_mixed"
  /** A number or quoted text in the request that no parameter took. */
  | "value_left"
  /**
   * The router matched the tool's words to the request only weakly (below the margin over its threshold at
   * which words alone make the case): a near miss, as a function for sunrise is to a question on sunset.
   */
  | "weak_match"
  /** The request asks for something the tool's words do not name ("the acceleration", to a function for the maximum height). */
  | "ask_unnamed"
  /** The request is one part of a message split in several: its values may belong to another part. */
  | "split_part";

export const DOUBTS: readonly Doubt[] = [
  "optional_left",
  "order_mixed",
  "value_left",
  "weak_match",
  "ask_unnamed",
  "split_part",
];

/**
 * Fitted weights of a logistic model, for bare tools: the bias and, per kind of evidence or doubt present in
 * the call, what it adds to the log-odds that the call is right. Unlike the described tools' least-sure-row
 * table, kinds add up: on bare definitions no single kind separates right calls from wrong ones, their
 * combination does a little better (docs/performance.md). A kind no labelled call used weighs 0.
 */
export const BARE_FILL_WEIGHTS: Readonly<Record<Evidence | Doubt | "bias", number>> = {
  bias: 1.38,
  agent: 0,
  opaque: 0,
  shape: 1.182,
  zone: -0.459,
  enum: 0.152,
  described: 0.584,
  own_word: 0.881,
  learned: 0,
  kind_cue: -0.164,
  units: -0.643,
  quoted: -0.38,
  name: 0,
  list: 0.472,
  flag: 0.301,
  order: 0.359,
  text_word: -0.331,
  text_kind: -0.179,
  text_order: -1.841,
  optional_left: -0.816,
  order_mixed: -1.522,
  value_left: -1.538,
  weak_match: -0.148,
  ask_unnamed: -0.816,
  split_part: -0.546,
  // The described tools' call-level signals: a bare call is weighed by its doubts instead (value_left,
  // weak_match), so these weigh nothing here.
  unused_value: 0,
  switched: 0,
  contested: 0,
  weak_route: 0,
};

/** The least confidence at which a call to a bare tool runs; chosen out of fold on labelled questions. */
export const BARE_FILL_CONFIDENCE_BAR = 0.847;

/** A bare call's confidence: the logistic model's probability that it is right, given the kinds present. */
export function bareFillConfidence(
  kinds: readonly (Evidence | Doubt)[],
  weights: Readonly<Record<Evidence | Doubt | "bias", number>> = BARE_FILL_WEIGHTS,
): number {
  const present = new Set(kinds);
  present.delete("agent");
  let z = weights.bias;
  for (const kind of present) z += weights[kind];
  return Math.round((1 / (1 + Math.exp(-z))) * 1000) / 1000;
}
