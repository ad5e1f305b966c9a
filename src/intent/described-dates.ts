// A date in the form a parameter's description asks for ("The date (month-day-year)", "in MM/DD/YYYY
// format"): dates are read as YYYY-MM-DD, and a tool that parses another form would read them wrongly.

const PART: Record<string, "y" | "m" | "d"> = {
  yyyy: "y",
  year: "y",
  mm: "m",
  month: "m",
  dd: "d",
  day: "d",
};

/** The order and separator of a date format the text names, or undefined when it names none but ISO's. */
function describedFormat(hint: string): { order: ("y" | "m" | "d")[]; separator: string } | undefined {
  const m =
    /\b(yyyy|mm|dd|year|month|day)([-/.]|)(yyyy|mm|dd|year|month|day)\2(yyyy|mm|dd|year|month|day)\b/i.exec(
      hint,
    );
  if (!m) return undefined;
  const order = [m[1], m[3], m[4]].map((p) => PART[(p as string).toLowerCase()] as "y" | "m" | "d");
  if (new Set(order).size !== 3) return undefined;
  return { order, separator: m[2] ?? "" };
}

/** `iso` (YYYY-MM-DD) written as the description asks; unchanged when it asks for none or for ISO's form. */
export function inDescribedFormat(hint: string, iso: string): string {
  const format = describedFormat(hint);
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!format || !parts) return iso;
  const value = { y: parts[1], m: parts[2], d: parts[3] };
  return format.order.map((p) => value[p]).join(format.separator);
}
