// Numbers to numeric parameters, in one weighed assignment by the words around each number.
import { assignBest, type Candidate } from "./assign.ts";
import type { Evidence } from "./confidence.ts";
import { inDescribedUnit, unitFactor, unitKindCue } from "./described-units.ts";
import { requestStart } from "./envelope.ts";
import { type Filler, type JsonSchema, type MissingField, type Param, typeOf } from "./filler.ts";
import type { NumberMention } from "./mentions.ts";
import { phraseAfter, phraseNaming } from "./number-phrases.ts";
import type { Span } from "./opaque.ts";
import { PERIOD_MARGIN, periodAfter } from "./periods.ts";
import { namesRangeEnd, rangeEnd } from "./ranges.ts";
import { enumValues, isDateParam, opaqueKindsFor, TEXT_NAMES } from "./schema-cues.ts";
export function numericParams(params: Param[]): Param[] {
  return params.filter((p) => p.type === "number" || p.type === "integer");
}

export const BACKWARDS = /^\s*[a-z_]+\s+(?:before|ago|earlier|prior to|back from)\b/i;

/** A number stated as a loss or a fall: "a loss of $1000", "dropped by 5". */
const LOSS_BEFORE =
  /\b(?:loss|losses|lost|lose|losing|deficit|decrease|decreased|drop|dropped|decline|declined|fell|fall|down)\s+(?:of\s+|by\s+)?(?:about\s+|around\s+)?[$€£¥]?\s*$/i;

/** A parameter whose description says a loss or fall is given as a negative number. */
const SIGNED_BY_DESCRIPTION = /\bnegative\b/;

/**
 * Whether a number goes to the parameter negated: counted back ("3 days before") where the parameter
 * allows negative values, or stated as a loss where its description asks for losses as negative numbers.
 */
function countsNegative(text: string, n: NumberMention, param: Param): boolean {
  if (
    BACKWARDS.test(text.slice(n.end, n.end + 40)) &&
    typeof param.schema.minimum === "number" &&
    param.schema.minimum < 0
  )
    return true;
  return (
    n.value > 0 &&
    SIGNED_BY_DESCRIPTION.test(param.hint) &&
    LOSS_BEFORE.test(text.slice(Math.max(0, n.start - 40), n.start))
  );
}

/** How many mentions of one kind the assignment weighs. */
export const MAX_ASSIGNED = 64;

/** Prepositions whose presence in a parameter's description says what a value after them is to it. */
export const PREPOSITIONS = new Set([
  "from",
  "to",
  "of",
  "by",
  "per",
  "in",
  "at",
  "for",
  "over",
  "into",
  "after",
  "before",
  "since",
  "until",
  "between",
]);

/** Weights of the words around a value: the parameter's own word outweighs the examples' words, which outweigh a kind. */
export const CUE = {
  ownWord: 3,
  learned: 2.5,
  learnedFar: 1,
  kind: 1.5,
  preposition: 1,
  order: 0.5,
  /** A word of the parameter's own a few words back, as in "a gauge pressure of 2". */
  phrase: 2,
} as const;

/** How much of the order's weight breaks a tie between parameters the words cue alike: far less than any cue. */
const TIE_BREAK = 0.01;

export interface Scored {
  weight: number;
  how: string;
  evidence: Evidence;
  /** Which word placed it: the one before the number, or the one after. */
  side?: "before" | "after";
}

/** Units as written short, and the word a parameter's name spells them with ("90 mins": duration_minutes). */
const SHORT_UNITS: Readonly<Record<string, string>> = {
  min: "minute",
  mins: "minutes",
  hr: "hour",
  hrs: "hours",
  sec: "second",
  secs: "seconds",
  yr: "year",
  yrs: "years",
  wk: "week",
  wks: "weeks",
  mo: "month",
  mos: "months",
  ms: "milliseconds",
};

/** Whether a parameter's words name `word` (singular or plural, or a unit written short). */
export function namesWord(param: Param, written: string): boolean {
  const word = SHORT_UNITS[written] ?? written;
  return Boolean(word) && param.words.some((w) => w === word || `${w}s` === word || w === `${word}s`);
}

/**
 * Whether `word` is the parameter's own and tells it from the other numeric parameters. A word another of
 * them names too ("m" of acid_concentration_m and base_concentration_m) is this one's only when the phrase
 * it is part of names more of this one's words ("0.15 M acetic acid", "4 light years" for
 * distance_in_light_years, not speed_of_light), or as many and this one's name says less besides ("30
 * years" for years, not payment_per_year).
 */
function ownWord(param: Param, word: string, peers: Peers, phrase: readonly string[] = [word]): boolean {
  if (!namesWord(param, word)) return false;
  const named = (p: Param) => phrase.filter((w) => namesWord(p, w === "into" ? "to" : w)).length;
  return peers.numeric.every(
    (p) =>
      p === param ||
      !namesWord(p, word) ||
      named(p) < named(param) ||
      (named(p) === named(param) && p.words.length > param.words.length),
  );
}

/** The parameters a number may go to, and the units all their descriptions share: what tells them apart. */
interface Peers {
  numeric: Param[];
  sharedUnits: Set<string>;
}

/** What the words around a number say about one parameter; undefined when they say nothing. */
function numberCue(f: Filler, n: NumberMention, param: Param, peers: Peers): Scored | undefined {
  let weight = 0;
  let how = "";
  let evidence: Evidence = "order";
  let side: Scored["side"];
  const take = (w: number, h: string, e: Evidence, s?: Scored["side"]) => {
    if (w > weight) {
      weight = w;
      how = h;
      evidence = e;
      side = s;
    }
  };
  const after = phraseAfter(f.text, n.end);
  if (ownWord(param, n.next, peers, after))
    take(CUE.ownWord, `number before "${n.next}"`, "own_word", "after");
  const twoBack = /([a-z]+)\s+[a-z]+\s*$/i
    .exec(f.text.slice(Math.max(0, n.start - 30), n.start))?.[1]
    ?.toLowerCase();
  if (ownWord(param, n.previous, peers, [twoBack ?? "", n.previous]))
    take(CUE.ownWord, `number after "${n.previous}"`, "own_word", "before");
  if (n.next && param.after.has(n.next))
    take(CUE.learned, `number before "${n.next}", as in the examples`, "learned", "after");
  if (n.previous && param.before.has(n.previous))
    take(CUE.learned, `number after "${n.previous}", as in the examples`, "learned", "before");
  if (twoBack && param.before.has(twoBack) && weight > 0) weight += CUE.learnedFar;
  const range = rangeEnd(f.text, n);
  // Weighed as an own word, but read no surer than a kind: the confidence tables were fitted without it.
  if (range && namesRangeEnd(param, range))
    take(CUE.ownWord, `number at the ${range} of a range`, "kind_cue");
  const period = periodAfter(f.text, n.end);
  if (period?.test(param.hint))
    take(CUE.ownWord + PERIOD_MARGIN, "number with the period its parameter names", "own_word", "after");
  // "unix time 0", "epoch 86400": a timestamp too short to be recognised by its shape alone.
  const before = f.text.slice(Math.max(0, n.start - 40), n.start);
  if (
    /\b(?:unix|epoch|timestamp)(?:\s+(?:time|timestamp|seconds|ms))?\s*$/i.test(before) &&
    opaqueKindsFor(param).includes("long_number")
  )
    take(CUE.ownWord, "number after 'unix time'", "own_word");
  if (n.percent && /\b(?:percent|percentage|rate|pct)\b/.test(param.hint))
    take(CUE.kind, "percentage", "kind_cue");
  // A year is a whole number of four digits, not money; it goes to a parameter named for a year.
  if (/^\d{4}$/.test(n.text.trim()) && !n.money && param.words.includes("year"))
    take(CUE.kind, "year", "kind_cue");
  if (
    n.money &&
    /amount|principal|bill|price|total|cost|value|salary|income|payment|revenue|sales|profit|earnings|budget|balance|investment|capital|fund/.test(
      param.hint,
    )
  )
    take(CUE.kind, "money amount", "kind_cue");
  const unit = unitAfter(f.text, n.end);
  if (unit && describesUnit(param, unit) && !peers.sharedUnits.has(unit))
    take(CUE.kind, `number in "${unit}", as the description says`, "kind_cue");
  if (unitFactor(f.text, n, param) !== 1 || unitKindCue(f.text, n, param, peers.numeric))
    take(CUE.kind, "number in a unit of the parameter's kind", "kind_cue");
  const following = distinctWords(param, after.slice(1), peers);
  if (following.length > 0) take(CUE.phrase, `number before "${following.join(" ")}"`, "own_word", "after");
  const named = phraseNaming(f.text, n.start);
  if (named.length > 0 && distinctWords(param, named, peers).length > 0)
    take(CUE.phrase, `number after "${named.join(" ")}"`, "own_word", "before");
  if (weight === 0 && PREPOSITIONS.has(n.previous) && new RegExp(`\\b${n.previous}\\b`).test(param.hint))
    take(CUE.preposition, `number after "${n.previous}", as the description says`, "kind_cue");
  // A number in words ("two charges") is rarely a value: only the schema's own or learned words place it;
  // but an amount of money or a number in hundreds and more ("ten thousand dollars") is one.
  if (n.words && (evidence as Evidence) === "kind_cue" && !n.money && n.value < 100) return undefined;
  // Nor is it a count for a list, or for one of several numbered parameters ("two points": point1, point2).
  if (n.words && (param.type === "array" || /\d$/.test(param.name))) return undefined;
  // One number is a list's only item where the list's own word names it ("the numbers 7"); after a
  // word the examples put before a list ("the average of 5040") it is no data set.
  if (param.type === "array" && (evidence as Evidence) !== "own_word") return undefined;
  return weight > 0 ? { weight, how, evidence, ...(side ? { side } : {}) } : undefined;
}

/** Parameters a bare number may go to: numeric ones, and strings that hold an integer ("the integer, e.g. \"255\""). */
export function takesNumber(param: Param): boolean {
  if (param.type === "number" || param.type === "integer") return true;
  if (param.type === "array")
    return (
      ["number", "integer"].includes(typeOf((param.schema.items ?? {}) as JsonSchema)) &&
      enumValues(param).length === 0
    );
  return (
    param.type === "string" &&
    enumValues(param).length === 0 &&
    (param.numeric ||
      /^(?:an? |the )?(?:integer|number)\b/.test(String(param.schema.description ?? "").toLowerCase())) &&
    !isDateParam(param)
  );
}

/**
 * Whether a parameter takes a rate as a fraction (5% is 0.05): a non-integer rate, return, yield or
 * probability whose schema does not say it is in percent, or that says it is a decimal or a fraction.
 */
export function takesFraction(param: Param): boolean {
  if (param.type !== "number") return false;
  if (/\b(?:decimal|fraction)\b/.test(param.hint)) return true;
  if (/percent|\bpct\b|%/.test(param.hint)) return false;
  if (typeof param.schema.maximum === "number" && param.schema.maximum > 1) return false;
  return /\b(?:rate|return|yield|growth|inflation|probability)\b/.test(param.hint);
}

export function numberValue(param: Param, n: NumberMention, negative: boolean): unknown {
  const signed = negative ? -n.value : n.value;
  // Rounded to the digits given, so 7% is 0.07, not 0.07000000000000001.
  const value = n.percent && takesFraction(param) ? Number((signed / 100).toPrecision(12)) : signed;
  if (param.type === "string") return n.text.trim();
  if (param.type === "array") return [value];
  return value;
}

export function fitsNumber(param: Param, n: number): boolean {
  if (param.type === "string") return Number.isInteger(n);
  const schema = param.type === "array" ? ((param.schema.items ?? {}) as JsonSchema) : param.schema;
  if ((param.type === "integer" || schema.type === "integer") && !Number.isInteger(n)) return false;
  if (typeof schema.minimum === "number" && n < schema.minimum) return false;
  if (typeof schema.maximum === "number" && n > schema.maximum) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(n)) return false;
  return true;
}

/** The unit written right after a number ("5 seconds", "2 meters/second^2", "9.8 m/s"), lower case. */
export function unitAfter(text: string, end: number): string | undefined {
  const unit = /^\s?([a-zµ°][\w/^°µ.-]*)/i.exec(text.slice(end, end + 40))?.[1];
  return unit?.replace(/[.,;:]+$/, "").toLowerCase() || undefined;
}

/** Whether the description gives the parameter in that unit ("in seconds", "(m/s^2)"). */
export function describesUnit(param: Param, unit: string): boolean {
  if (unit.length < 2 && !/[/^°µ]/.test(unit)) return false;
  if (PREPOSITIONS.has(unit) || /^(?:a|an|the|and|or|is|are|it|this|that)$/.test(unit)) return false; // "800 to start"
  return param.hint.split(/[\s(),;]+/).some((w) => w.replace(/[.:]+$/, "") === unit);
}

/** The phrase's words that name this parameter and not every other open numeric one. */
function distinctWords(param: Param, words: string[], peers: Peers): string[] {
  return words.filter((w) => w.length > 2 && ownWord(param, w, peers));
}

/** The numeric parameters, and the units every one's description names ("in meters"), which tell none apart. */
function peersOf(f: Filler, params: Param[]): Peers {
  // A parameter placed already (a frequency, a range) competes for no number.
  const numeric = params.filter((p) => takesNumber(p) && !f.has(p));
  const units = f.mentions.numbers.map((n) => unitAfter(f.text, n.end));
  const sharedUnits = new Set(
    units.filter(
      (u): u is string => u !== undefined && numeric.length > 1 && numeric.every((p) => describesUnit(p, u)),
    ),
  );
  return { numeric, sharedUnits };
}

/**
 * Data pasted after "…: " is the text parameter's, when the tool has one to take it: its numbers ("ann,31")
 * are no values of the call ("convert this CSV to JSON: …" sets no row limit). Not when the colon ends a
 * label ("chmod question: what is 0o755 in decimal"): what follows is the request.
 */
function pastedData(f: Filler, params: Param[]): Span | undefined {
  const trailing = f.mentions.trailing;
  const takesText = params.some(
    (p) => p.type === "string" && p.required && !f.has(p) && TEXT_NAMES.test(p.name),
  );
  return trailing && takesText && trailing.start !== requestStart(f.text) ? trailing : undefined;
}

export function fillNumbers(f: Filler, params: Param[]): void {
  const peers = peersOf(f, params);
  const inExpression = (n: NumberMention) =>
    f.mentions.expressions.some((e) => n.start >= e.start && n.end <= e.end);
  const pasted = pastedData(f, params);
  const free = () =>
    f.mentions.numbers.filter(
      (n) => f.free(n) && !(pasted && n.start >= pasted.start && n.end <= pasted.end),
    );
  // A list parameter of numbers takes every number when there are several.
  for (const param of params.filter(
    (p) => p.type === "array" && typeOf((p.schema.items ?? {}) as JsonSchema) !== "string",
  )) {
    if (f.has(param) || enumValues(param).length > 0) continue;
    // Numbers joined by operators are an expression ("3*3"), not a list of values.
    const all = free().filter((n) => !inExpression(n) && !n.words);
    // One number is not a list ("15% of my salary" names no data set), and a percentage among plain
    // numbers is a rate applied to them ("12.5% of 480"), not one more data point.
    const mixed = all.some((n) => n.percent) && !all.every((n) => n.percent);
    // Nor is it a list when another parameter's words claim one of the numbers ("from base 2 into base 10").
    const claimed = all
      .slice(0, MAX_ASSIGNED)
      .some((n) =>
        params.some((p) => p !== param && !f.has(p) && takesNumber(p) && numberCue(f, n, p, peers)),
      );
    // Two numbers joined by "out of" are a part of a whole ("43 out of 50"), not two data points.
    const ratio =
      all.length === 2 &&
      all[0] &&
      all[1] &&
      /^\s*out\s+of\s*$/i.test(f.text.slice(all[0].end, all[1].start));
    if (!claimed && all.length >= 2 && !ratio) {
      if (mixed || !all[0]) continue;
      const span = { start: all[0].start, end: all.at(-1)?.end ?? all[0].end };
      f.set(
        param,
        all.map((n) => n.value),
        span,
        "list of numbers",
        "list",
      );
    }
  }
  const open = params.filter((p) => !f.has(p) && takesNumber(p));
  // A request's scalar values are in its first sentences; the numbers of pasted data are no candidates,
  // and the bound keeps the assignment small on long text.
  const numbers = free()
    .filter((n) => !(inExpression(n) && f.mentions.expressions.some((e) => e.text.trim() !== n.text.trim())))
    .slice(0, MAX_ASSIGNED);
  // Order is the weakest cue: only to required parameters (or, for tools that require none, any), and
  // never to a parameter with a shape of its own (a Unix timestamp is a long number). Once a tool's
  // required numbers are placed, a number left over is no value for its options ("2x2 table" is no alpha).
  const requiresSome = params.some((p) => p.required);
  const byOrder = (requiresSome ? open.filter((p) => p.required) : open).filter(
    (p) => opaqueKindsFor(p).length === 0 && p.type !== "array" && (p.type !== "string" || p.numeric),
  );
  const candidates: Candidate<NumberMention, Param>[] = [];
  const scored = new Map<string, Scored>();
  // A number in words counts only what the schema names ("one month": an enum value "months").
  const counts = (n: NumberMention) =>
    !n.words ||
    params.some((p) =>
      enumValues(p).some((v) => typeof v === "string" && (v === n.next || v === `${n.next}s`)),
    );
  // Ranks are counted among the numbers order may place: "two numbers: 40 and 50" ranks 40 first.
  const plain = numbers.filter((n) => !n.percent && counts(n));
  for (const [i, n] of numbers.entries()) {
    for (const [j, param] of open.entries()) {
      const negative = countsNegative(f.text, n, param);
      const scaled = inDescribedUnit(f.text, n, param);
      const read = numberValue(param, scaled, negative);
      if (!fitsNumber(param, typeof read === "number" ? read : negative ? -scaled.value : scaled.value))
        continue;
      let cue = numberCue(f, n, param, peers);
      const k = byOrder.indexOf(param);
      if (k >= 0 && plain.includes(n)) {
        // Nearer ranks weigh a little more: the order breaks a tie, never a cue ("charges of 5C and 7C":
        // both are charges, the first is charge1).
        const byRank = CUE.order / (1 + Math.abs(plain.indexOf(n) - k));
        if (!cue) cue = { weight: byRank, how: "number", evidence: "order" };
        else cue = { ...cue, weight: cue.weight + byRank * TIE_BREAK };
      }
      if (!cue) continue;
      candidates.push({ mention: n, param, weight: cue.weight });
      scored.set(`${i}:${j}`, cue);
    }
  }
  for (const c of assignBest(numbers, open, candidates)) {
    const cue = scored.get(`${numbers.indexOf(c.mention)}:${open.indexOf(c.param)}`);
    if (!cue) continue;
    const negative = countsNegative(f.text, c.mention, c.param);
    f.set(
      c.param,
      numberValue(c.param, inDescribedUnit(f.text, c.mention, c.param), negative),
      c.mention,
      negative ? `${cue.how}, counted back` : cue.how,
      cue.evidence,
    );
  }
  // A number that the word before it claims for one parameter and the word after it for another (words,
  // not prepositions), one of them left without a value ("split the bill four ways": the bill's, or the number of ways?), is
  // contested: a call-level signal.
  for (const [i, n] of numbers.entries()) {
    const claims = open.flatMap((p, j) => {
      const cue = scored.get(`${i}:${j}`);
      // A preposition ("over 36 months") frames the value; it does not name it against the word after it.
      const word = cue?.side === "before" ? n.previous : n.next;
      return cue && cue.weight >= CUE.learned && cue.side && !PREPOSITIONS.has(word)
        ? [{ p, side: cue.side }]
        : [];
    });
    const sides = new Set(claims.map((c) => c.side));
    if (sides.size === 2 && claims.some((c) => !f.has(c.p)) && !f.free(n)) f.signals.add("contested");
  }
}

/**
 * A number the request names that no parameter took, while a numeric parameter it would fit is left to its
 * default ("split 120 three ways" is not a bill for one): which one it is, is the caller's to say.
 */
export function unplacedNumbers(f: Filler, params: Param[]): MissingField[] {
  const open = numericParams(params).filter((p) => !f.has(p));
  const inExpression = (n: NumberMention) =>
    f.mentions.expressions.some((e) => n.start >= e.start && n.end <= e.end);
  // A number in words nobody took is usually no value ("one of the", "the two of us").
  const left = f.mentions.numbers.filter((n) => f.free(n) && !inExpression(n) && !n.words);
  const missing: MissingField[] = [];
  for (const n of left) {
    const param = open.find((p) => fitsNumber(p, n.value) && !missing.some((m) => m.field === p.name));
    // Otherwise a value placed by its order alone may be the wrong one of the two ("round 3.14159 to 2
    // decimals" is not a conversion of 2).
    const byOrder = f.filled.find(
      (v) => v.evidence === "order" && v.source === "query" && !missing.some((m) => m.field === v.field),
    );
    const field = param ?? params.find((p) => p.name === byOrder?.field);
    if (field)
      missing.push({
        field: field.name,
        schema: field.schema,
        reason: `the request names ${n.text.trim()} but not which value it is`,
      });
  }
  return missing;
}
