// Arguments from the request, driven by the chosen tool's JSON Schema: each parameter's type, enum,
// pattern, format, name and description decide which of the request's typed mentions (mentions.ts) it
// takes. Every value records the span it came from. A required parameter nothing fits, or a place the
// request names that no zone matches, is reported as missing: the caller asks, it never guesses.
import { BARE_FILL_CONFIDENCE_BAR, bareFillConfidence, type Doubt } from "./bare-confidence.ts";
import { type Evidence, FILL_CONFIDENCE_BAR, fillConfidence } from "./confidence.ts";
import { requestStart } from "./envelope.ts";
import { learnFromExamples } from "./examples.ts";
import {
  type FilledValue,
  Filler,
  type FillOptions,
  type FillResult,
  type JsonSchema,
  type MissingField,
  type Param,
  paramsOf,
} from "./filler.ts";
import type { OpaqueValue } from "./opaque.ts";
import { fillFrequencies } from "./periods.ts";
import { fillCurrencies } from "./place-currencies.ts";
import { fillDescribedIds } from "./place-described-ids.ts";
import { fillDescribedValues, fillEnums } from "./place-enums.ts";
import { fillIdentifiers, fillLoneId } from "./place-ids.ts";
import { contestedEnums, fillPhrases, fillValueWords } from "./place-learned.ts";
import { fillLists } from "./place-lists.ts";
import { fillNumbers, unplacedNumbers } from "./place-numbers.ts";
import { fillFreeText } from "./place-phrases.ts";
import { checkString, fillBooleans, fillLabelledQuotes, fillOpaque, fillText } from "./place-text.ts";
import { placeTimesOfDay } from "./place-times.ts";
import { fillTyped, unplacedDates } from "./place-typed.ts";
import { fillUnits } from "./place-units.ts";
import { fillZones } from "./place-zones.ts";
import { severalValues } from "./several-values.ts";
import { unusedValues } from "./unused.ts";

export type { FilledValue, FillOptions, FillResult, MissingField };

/**
 * Fills the arguments a schema needs from a request. Supplied arguments are kept as they are; the rest
 * come from the request's text; required ones nothing fits are missing.
 */
export function fillArguments(
  query: string,
  schema: JsonSchema,
  supplied: Record<string, unknown> = {},
  options: FillOptions = {},
): FillResult {
  const learned = learnFromExamples(options.examples);
  const params = paramsOf(schema, learned);
  const f = new Filler(query);
  for (const [field, value] of Object.entries(supplied)) {
    f.args[field] = value;
    f.filled.push({ field, value, source: "agent", evidence: "agent" });
  }
  claimSupplied(f, supplied);
  // A label before the request ("[planner] step 3/5: …") holds no values.
  const start = requestStart(query);
  if (start > 0) f.claim({ start: 0, end: start });
  fillOpaque(f, params);
  fillIdentifiers(f, params);
  fillDescribedIds(f, params);
  if (options.bare) fillLoneId(f, params);
  fillLabelledQuotes(f, params);
  fillEnums(f, params);
  if (options.bare) fillDescribedValues(f, params);
  const contested = contestedEnums(f, params, learned);
  fillPhrases(f, params, learned);
  fillValueWords(f, params, learned);
  fillTyped(f, params);
  placeTimesOfDay(f, params);
  const unplaced = fillZones(f, params);
  fillUnits(f, params);
  fillCurrencies(f, params);
  fillFrequencies(f, params);
  fillLists(f, params);
  fillNumbers(f, params);
  fillBooleans(f, params);
  fillText(f, params);
  fillFreeText(f, params);
  // Several values first: of the reasons one field has, that one says the most (each value, for a call each).
  const ambiguous = [
    ...severalValues(f, params),
    ...contested,
    ...unplacedNumbers(f, params),
    ...unplacedDates(f, params),
  ];
  const unset = (name: string) => {
    delete f.args[name];
    const i = f.filled.findIndex((v) => v.field === name);
    if (i >= 0) f.filled.splice(i, 1);
  };
  for (const param of params)
    if (f.has(param) && !checkString(param, f.args[param.name]) && !(param.name in supplied))
      unset(param.name);
  // One text stated twice ("older than 4.2.1? 4.2.1 is the release with the fix") is one value: a second
  // parameter given it again is left for the request to name.
  for (const field of repeatedTexts(f.filled)) unset(field);
  const missing: MissingField[] = [
    ...unplaced.filter((m) => !(m.field in f.args)),
    ...ambiguous,
    ...params
      .filter((p) => p.required && !(p.name in f.args) && !ambiguous.some((m) => m.field === p.name))
      .map((p) => ({ field: p.name, schema: p.schema, reason: "the request does not say" })),
  ];
  const fromQuery = f.filled.filter((v) => v.source === "query");
  const kinds = fromQuery.map((v) => v.evidence ?? "order");
  // A value read as the parameter's default changes nothing the call does, however it was read: the
  // described tools' call is as sure as its least sure value that matters (the bare model was fitted
  // with every value's evidence, and keeps it).
  const defaults = new Map(params.map((p) => [p.name, p.schema.default]));
  const mattering = fromQuery
    .filter((v) => defaults.get(v.field) === undefined || defaults.get(v.field) !== v.value)
    .map((v) => v.evidence ?? "order");
  const doubts = [
    ...doubtsOf(f, params),
    ...(options.weakMatch ? (["weak_match"] as const) : []),
    ...(options.askUnnamed ? (["ask_unnamed"] as const) : []),
    ...(options.splitPart ? (["split_part"] as const) : []),
  ];
  const unused = unusedValues(f, options.output);
  const signals: Evidence[] = [...f.signals, ...(unused.length > 0 ? (["unused_value"] as const) : [])];
  return {
    arguments: f.args,
    filled: f.filled,
    missing,
    placedOpaque: f.placedOpaque,
    // A bare call that reads nothing runs on its defaults, unless the request states a value none of its
    // parameters took ("Send \"Roomba Upstairs\" back to its dock" to a call left without its device).
    confidence: options.bare
      ? fromQuery.length > 0 || doubts.includes("value_left")
        ? bareFillConfidence([...kinds, ...doubts])
        : 1
      : fillConfidence([...mattering, ...signals]),
    bar: options.bare ? BARE_FILL_CONFIDENCE_BAR : FILL_CONFIDENCE_BAR,
    doubts,
    suggested: fromQuery,
    signals,
    unused: unused.map((u) => ({ start: u.start, end: u.end, text: u.text })),
  };
}

/** What makes the call doubtful beyond its values' evidence (bare-confidence.ts). */
function doubtsOf(f: Filler, params: Param[]): Doubt[] {
  const doubts: Doubt[] = [];
  // A number the request states and no parameter took is `value_left`; an optional word-valued parameter
  // left open may be one the request names in words the filler did not read ("in inches", "in red").
  // A numeric one left open is doubtful when the request uses a word only its name has ("with monthly
  // compounding" to compounding_periods_per_year): the value is there in words.
  const numericNamed = (p: Param) => {
    const text = f.text.toLowerCase();
    const others = new Set(params.filter((o) => o !== p).flatMap((o) => o.words));
    return p.words.some((w) => w.length >= 5 && !others.has(w) && text.includes(w.slice(0, 5)));
  };
  if (
    params.some(
      (p) =>
        !p.required && !f.has(p) && (p.type === "number" || p.type === "integer" ? numericNamed(p) : true),
    )
  )
    doubts.push("optional_left");
  const numeric = f.filled.filter((v) => v.source === "query" && typeof v.value === "number");
  if (numeric.some((v) => v.evidence === "order") && numeric.some((v) => v.evidence !== "order"))
    doubts.push("order_mixed");
  const left = [...f.mentions.numbers.filter((n) => !n.words), ...f.mentions.quoted].some((m) => f.free(m));
  if (left) doubts.push("value_left");
  return doubts;
}

/** One line asking for what is missing, in the words of the schema. */
export function questionFor(tool: string, missing: MissingField[]): string {
  const named = missing.map((m) => {
    const description = typeof m.schema.description === "string" ? ` (${m.schema.description})` : "";
    return `${m.field.replace(/_/g, " ")}${description}`;
  });
  const unknownPlace = missing.find((m) => m.reason.startsWith("no time zone"));
  if (unknownPlace)
    return `Which time zone do you mean? ${unknownPlace.reason}; name a city or an IANA zone such as Europe/Paris.`;
  return `To run ${tool}, what ${named.length > 1 ? "are" : "is"} the ${named.join(" and the ")}?`;
}

export type { OpaqueValue };

/** A value the caller supplied that the request also names ("order 1234") is that value, not another one. */
function claimSupplied(f: Filler, supplied: Record<string, unknown>): void {
  const given = Object.values(supplied).flatMap((v) =>
    typeof v === "number" || (typeof v === "string" && v.trim() !== "") ? [String(v)] : [],
  );
  for (const n of f.mentions.numbers) if (given.some((v) => Number(v) === n.value)) f.claim(n);
  for (const m of [...f.mentions.quoted, ...f.mentions.tokens])
    if (given.includes(m.text.replace(/^["'`]|["'`]$/g, ""))) f.claim(m);
}

/** The later of two parameters given the same text from two places in the request. */
function repeatedTexts(filled: readonly FilledValue[]): string[] {
  const fromQuery = filled.filter((v) => v.source === "query" && typeof v.value === "string" && v.span);
  return fromQuery
    .filter((v, i) =>
      fromQuery.slice(0, i).some((w) => w.value === v.value && w.span?.start !== v.span?.start),
    )
    .map((v) => v.field);
}
