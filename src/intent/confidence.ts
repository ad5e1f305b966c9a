// How sure the filler is of a call's values. Each value is placed by one kind of evidence; the table below
// holds, for each kind, how often calls resting on it were right on labelled requests (fitted by
// `scripts/fit-fill-confidence.ts`, which prints this table). A call is as sure as its least sure value and
// its call-level signals (a stated value left unused, a number two parameters claim, a tool run in place of
// the router's first), which are rows of the same table, fitted the same way.
// Route-and-execute runs a call only at or above FILL_CONFIDENCE_BAR, chosen by cross-validation on labelled
// sets the table was fitted without; below it the values are proposed as `suggested`. A kind no labelled
// call used sits at 0.5, under the bar: evidence nobody has measured never runs a call alone.

/** What placed a value. */
export type Evidence =
  /** The agent sent it. */
  | "agent"
  /** An opaque value of the parameter's kind (a JWT for a token, an email for an email). */
  | "opaque"
  /** A value with a shape of its own: a date, a time, a version, a colour, an expression, a cron line. */
  | "shape"
  /** A city or zone name for a zone parameter. */
  | "zone"
  /** One of the parameter's enum values named. */
  | "enum"
  /** A value a bare tool's description names in quotes ("'Celsius' or 'Fahrenheit'"). */
  | "described"
  /** The parameter's own word right next to the value ("30 years", "top 5"). */
  | "own_word"
  /** The words around it, or a phrase, as in the tool's example calls. */
  | "learned"
  /** A percentage for a rate, money for an amount, a preposition the description uses. */
  | "kind_cue"
  /** "<n> <unit> to <unit>": a quantity and its units. */
  | "units"
  /** Quoted text, or the data after a colon. */
  | "quoted"
  /** A capitalised name for a free-text parameter. */
  | "name"
  /** Several numbers for a list. */
  | "list"
  /** A flag named ("without symbols"). */
  | "flag"
  /** Nothing but the order of the numbers in the text and of the parameters in the schema. */
  | "order"
  /** A free-text name beside the parameter's own word ("the company Tesla", "AA genotype"). */
  | "text_word"
  /** A name of the parameter's kind: a place after "in"/"from"/"to", a person after "by". */
  | "text_kind"
  /** A name or phrase for a required text parameter, by order alone. */
  | "text_order"
  /** A call-level signal: the request states a value (a number, quoted text, a date, a target unit) the call leaves unused. */
  | "unused_value"
  /** A call-level signal: the router scored another eligible tool higher; the evidence or a missing value set it aside. */
  | "switched"
  /** A call-level signal: the word before a number claims it for one parameter, the word after for another, one left empty. */
  | "contested"
  /** A call-level signal: the router scores the tool barely above its threshold, and every value read is one any tool could take. */
  | "weak_route";

/** Fitted share of right calls per kind of evidence (add-one smoothed); see the fit script. */
export const FILL_CONFIDENCE: Readonly<Record<Evidence, number>> = {
  agent: 1,
  opaque: 0.933,
  shape: 0.982,
  zone: 0.875,
  enum: 0.964,
  described: 0.5,
  own_word: 0.909,
  learned: 0.958,
  kind_cue: 0.929,
  units: 0.966,
  quoted: 0.973,
  name: 0.5,
  list: 0.818,
  flag: 0.5,
  order: 0.933,
  text_word: 0.5,
  text_kind: 0.5,
  text_order: 0.5,
  unused_value: 0.5,
  switched: 0.846,
  contested: 0.333,
  weak_route: 0.333,
};

/** The least confidence at which a filled call runs; chosen for at most 2% silently wrong on held-out sets. */
export const FILL_CONFIDENCE_BAR = 0.818;

/** A call's confidence: that of its least sure value (1 when nothing was read from the request). */
export function fillConfidence(
  kinds: readonly Evidence[],
  table: Readonly<Record<Evidence, number>> = FILL_CONFIDENCE,
): number {
  return kinds.reduce((least, kind) => Math.min(least, table[kind]), 1);
}
