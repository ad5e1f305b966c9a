// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function date_add(args) {
  const { amount, unit } = args;
  let date;
  if (args.date === undefined || args.date === "today") {
    const now = new Date();
    date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  } else {
    const m = typeof args.date === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(args.date.trim()) : null;
    if (!m) throw new Error(`date must be YYYY-MM-DD or "today", got ${JSON.stringify(args.date)}`);
    date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    if (date.getUTCDate() !== Number(m[3]) || date.getUTCMonth() !== Number(m[2]) - 1)
      throw new Error(`date: ${args.date} is not a real calendar date`);
  }
  if (!Number.isInteger(amount) || Math.abs(amount) > 100000)
    throw new Error("amount must be an integer from -100000 to 100000");
  const start = date.toISOString().slice(0, 10);
  if (unit === "days") date.setUTCDate(date.getUTCDate() + amount);
  else if (unit === "weeks") date.setUTCDate(date.getUTCDate() + 7 * amount);
  else if (unit === "months" || unit === "years") {
    // Adding a month to 31 January gives the last day of February, not 3 March.
    const day = date.getUTCDate();
    const months = unit === "months" ? amount : 12 * amount;
    date.setUTCDate(1);
    date.setUTCMonth(date.getUTCMonth() + months);
    const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    date.setUTCDate(Math.min(day, lastDay));
  } else if (unit === "business_days") {
    const step = amount < 0 ? -1 : 1;
    for (let left = Math.abs(amount); left > 0; ) {
      date.setUTCDate(date.getUTCDate() + step);
      const wd = date.getUTCDay();
      if (wd !== 0 && wd !== 6) left--;
    }
  } else throw new Error(`unit must be one of days, weeks, months, years, business_days, got "${unit}"`);
  if (Number.isNaN(date.getTime())) throw new Error("the resulting date is out of range");
  return {
    start,
    amount,
    unit,
    date: date.toISOString().slice(0, 10),
    weekday: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][date.getUTCDay()],
  };
}
