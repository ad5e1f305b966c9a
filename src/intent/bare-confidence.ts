// How sure the filler is of a call to a bare function definition: a tool with neither example requests nor
// example calls, as imported OpenAI, Anthropic or BFCL definitions are. Nothing teaches the filler how such
// a tool's values are phrased, so the same evidence is right less often than for a described tool (on the
// bundled catalog's tools, every one has examples; see confidence.ts). Bare tools get a table and a bar of
// their own, fitted on labelled function-calling questions by `scripts/fit-fill-confidence.ts --family bare`,
// the bar chosen on questions the table was fitted without. Besides each value's evidence, a call carries
// doubts that any schema shows: they weigh in as rows of the same table, the least sure row deciding.
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
  | "weak_match";

export const DOUBTS: readonly Doubt[] = ["optional_left", "order_mixed", "value_left", "weak_match"];

/** Fitted share of right calls per kind of evidence and per doubt, for bare tools (add-one smoothed). */
export const BARE_FILL_CONFIDENCE: Readonly<Record<Evidence | Doubt, number>> = {
  agent: 1,
  opaque: 0.5,
  shape: 0.556,
  zone: 0.5,
  enum: 0.588,
  own_word: 0.744,
  learned: 0.5,
  kind_cue: 0.628,
  units: 0.2,
  quoted: 0.439,
  name: 0.5,
  list: 0.778,
  flag: 0.625,
  order: 0.619,
  text_word: 0.465,
  text_kind: 0.478,
  text_order: 0.314,
  optional_left: 0.476,
  order_mixed: 0.519,
  value_left: 0.167,
  weak_match: 0.474,
};

/** The least confidence at which a call to a bare tool runs; chosen out of fold on labelled questions. */
export const BARE_FILL_CONFIDENCE_BAR = 0.778;

/** A bare call's confidence: that of its least sure value or doubt (1 when nothing was read). */
export function bareFillConfidence(
  kinds: readonly (Evidence | Doubt)[],
  table: Readonly<Record<Evidence | Doubt, number>> = BARE_FILL_CONFIDENCE,
): number {
  return kinds.reduce((least, kind) => Math.min(least, table[kind]), 1);
}
