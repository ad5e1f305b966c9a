// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function date_difference(args) {
  // Calendar dates are handled as UTC midnights so that daylight-saving changes never add or lose a day.
  const parse = (raw, field) => {
    if (raw === "today") {
      const now = new Date();
      return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    }
    const m = typeof raw === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw.trim()) : null;
    if (!m) throw new Error(`${field} must be a date as YYYY-MM-DD or "today", got ${JSON.stringify(raw)}`);
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const t = Date.UTC(y, mo - 1, d);
    const check = new Date(t);
    if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d)
      throw new Error(`${field}: ${raw} is not a real calendar date`);
    return t;
  };
  const start = parse(args.start, "start");
  const end = parse(args.end, "end");
  const dayMs = 86400000;
  const days = Math.round((end - start) / dayMs);
  const sign = days < 0 ? -1 : 1;
  const [from, to] = sign < 0 ? [new Date(end), new Date(start)] : [new Date(start), new Date(end)];

  // Whole years, months and days between the dates, the way people count ("2 years, 3 months and 4 days").
  let years = to.getUTCFullYear() - from.getUTCFullYear();
  let months = to.getUTCMonth() - from.getUTCMonth();
  let restDays = to.getUTCDate() - from.getUTCDate();
  if (restDays < 0) {
    months -= 1;
    restDays += new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), 0)).getUTCDate();
  }
  if (months < 0) {
    years -= 1;
    months += 12;
  }

  // Monday–Friday between the dates, counting the start and excluding the end (like "working days until").
  const total = Math.abs(days);
  let businessDays = Math.floor(total / 7) * 5;
  const firstWeekday = from.getUTCDay();
  for (let k = 0; k < total % 7; k++) {
    const wd = (firstWeekday + Math.floor(total / 7) * 7 + k) % 7;
    if (wd !== 0 && wd !== 6) businessDays++;
  }
  return {
    start: new Date(start).toISOString().slice(0, 10),
    end: new Date(end).toISOString().slice(0, 10),
    days,
    weeks: Math.trunc((days / 7) * 100) / 100,
    breakdown: { years: sign * years, months: sign * months, days: sign * restDays },
    business_days: sign * businessDays,
  };
}
