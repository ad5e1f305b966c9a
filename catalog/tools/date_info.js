// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function date_info(args) {
  const m = typeof args.date === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(args.date.trim()) : null;
  if (!m) throw new Error(`date must be YYYY-MM-DD, got ${JSON.stringify(args.date)}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d)
    throw new Error(`date: ${args.date} is not a real calendar date`);
  const weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  const dayOfYear = Math.round((date.getTime() - Date.UTC(y, 0, 1)) / 86400000) + 1;
  // ISO 8601 week: the week with the year's first Thursday is week 1; weeks start on Monday.
  const thursday = new Date(date.getTime());
  thursday.setUTCDate(d + 3 - ((date.getUTCDay() + 6) % 7));
  const isoYear = thursday.getUTCFullYear();
  const isoWeek = Math.floor((thursday.getTime() - Date.UTC(isoYear, 0, 1)) / 604800000) + 1;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return {
    date: date.toISOString().slice(0, 10),
    weekday: weekdays[date.getUTCDay()],
    day_of_year: dayOfYear,
    days_left_in_year: (leap ? 366 : 365) - dayOfYear,
    iso_week: isoWeek,
    iso_week_year: isoYear,
    quarter: Math.floor((mo - 1) / 3) + 1,
    is_leap_year: leap,
    days_in_month: new Date(Date.UTC(y, mo, 0)).getUTCDate(),
    is_weekend: date.getUTCDay() === 0 || date.getUTCDay() === 6,
  };
}
