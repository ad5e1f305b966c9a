// Every typed value a request names, each with the span it came from, from the recognisers (one file
// each in recognisers/). Argument filling (fill.ts) matches them to a schema's parameters; nothing here
// knows about any one tool.
import { findOpaqueValues, type OpaqueValue } from "./opaque.ts";
import { type DateMention, findDates } from "./recognisers/dates.ts";
import { findMonths, type MonthMention } from "./recognisers/months.ts";
import { findNumbers, type NumberMention } from "./recognisers/numbers.ts";
import { findPasted } from "./recognisers/pasted.ts";
import { findQuoted } from "./recognisers/quoted.ts";
import { findShapes } from "./recognisers/shapes.ts";
import { type Mention, within } from "./recognisers/span.ts";
import { findTimes } from "./recognisers/times.ts";
import { findZones, type ZoneMention } from "./timezones.ts";

export type { DateMention, Mention, NumberMention };

export interface Mentions {
  text: string;
  opaque: OpaqueValue[];
  zones: ZoneMention[];
  quoted: Mention[];
  dates: DateMention[];
  /** Months of a year ("March 2025"), as "YYYY-MM"; their digits stay numbers too. */
  months: MonthMention[];
  /** A date with a time of day ("2024-01-15 14:00", "2021-01-01T00:00:00Z"): one value, not a date and a time. */
  datetimes: Mention[];
  times: Mention[];
  versions: Mention[];
  colors: Mention[];
  numbers: NumberMention[];
  expressions: Mention[];
  crons: Mention[];
  /** Words that are data, not English: identifiers ("myVariableName", "user_id") and %XX-escaped text. */
  tokens: Mention[];
  /** Pasted data: the text after a colon that ends the instruction, or the lines after one naming it. */
  trailing?: Mention;
}

export function findMentions(text: string): Mentions {
  const trailing = findPasted(text);
  const { times, datetimes } = findTimes(text);
  const dates = findDates(text);
  const shapes = findShapes(text);
  const quoted = findQuoted(text);
  // The digits of a date, a time, a version, a colour or a quoted text are not quantities ("2021" in
  // 2021-01-01T00:00Z, "10" in "10 Tips for Better Sleep").
  const partOfValue = within([
    ...datetimes,
    ...dates,
    ...times,
    ...shapes.versions,
    ...shapes.colors,
    ...quoted,
  ]);
  const zones = findZones(text);
  return {
    text,
    opaque: findOpaqueValues(text),
    zones,
    quoted,
    dates,
    months: findMonths(text),
    datetimes,
    times,
    versions: shapes.versions,
    colors: shapes.colors,
    numbers: findNumbers(text).filter((n) => !partOfValue(n)),
    expressions: shapes.expressions,
    crons: shapes.crons,
    tokens: shapes.tokens.filter((t) => !partOfValue(t)),
    ...(trailing ? { trailing } : {}),
  };
}
