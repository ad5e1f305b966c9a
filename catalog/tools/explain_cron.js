// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function explain_cron(args) {
  const macros = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
  };
  if (typeof args.expression !== "string" || args.expression.trim() === "")
    throw new Error('expression must be a cron expression such as "*/15 9-17 * * 1-5"');
  const original = args.expression.trim();
  const expression = macros[original.toLowerCase()] ?? original;
  const count = args.next ?? 5;
  if (!Number.isInteger(count) || count < 0 || count > 20)
    throw new Error("next must be an integer from 0 to 20");
  const parts = expression.split(/\s+/);
  if (parts.length !== 5)
    throw new Error(
      `a cron expression has 5 fields (minute hour day-of-month month day-of-week), this has ${parts.length}`,
    );

  const monthNames = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ];
  const dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  const specs = [
    { name: "minute", min: 0, max: 59 },
    { name: "hour", min: 0, max: 23 },
    { name: "day-of-month", min: 1, max: 31 },
    { name: "month", min: 1, max: 12, names: monthNames.map((m) => m.slice(0, 3).toLowerCase()) },
    { name: "day-of-week", min: 0, max: 7, names: dayNames.map((d) => d.slice(0, 3).toLowerCase()) },
  ];
  const parseField = (text, spec) => {
    const values = new Set();
    const number = (token) => {
      const lower = token.toLowerCase();
      if (spec.names?.includes(lower)) return spec.names.indexOf(lower) + (spec.name === "month" ? 1 : 0);
      if (!/^\d+$/.test(token)) throw new Error(`${spec.name} field: "${token}" is not a number`);
      const n = Number(token);
      if (n < spec.min || n > spec.max)
        throw new Error(`${spec.name} field: ${n} is outside ${spec.min}-${spec.max}`);
      return n;
    };
    for (const item of text.split(",")) {
      const [range, stepText] = item.split("/");
      const step = stepText === undefined ? 1 : Number(stepText);
      if (!Number.isInteger(step) || step < 1)
        throw new Error(`${spec.name} field: step "${stepText}" must be a positive integer`);
      let lo;
      let hi;
      if (range === "*") [lo, hi] = [spec.min, spec.max === 7 ? 6 : spec.max];
      else if (range.includes("-")) {
        const [a, b] = range.split("-");
        [lo, hi] = [number(a), number(b)];
        if (lo > hi) throw new Error(`${spec.name} field: range ${range} runs backwards`);
      } else {
        lo = number(range);
        hi = stepText === undefined ? lo : spec.max;
      }
      for (let v = lo; v <= hi; v += step) values.add(spec.name === "day-of-week" && v === 7 ? 0 : v);
    }
    return [...values].sort((a, b) => a - b);
  };
  const fields = parts.map((text, k) => parseField(text, specs[k]));
  const [minutes, hours, days, months, weekdays] = fields;

  const list = (items) =>
    items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
  const pad = (n) => String(n).padStart(2, "0");
  const phrase = (text, spec, label) => {
    if (text === "*") return null;
    const step = /^\*\/(\d+)$/.exec(text);
    if (step) return `every ${step[1]} ${spec.name === "day-of-month" ? "days" : `${spec.name}s`}`;
    const range = /^(\w+)-(\w+)$/.exec(text);
    if (range)
      return `${label(parseField(range[1], spec)[0])} through ${label(parseField(range[2], spec)[0])}`;
    return list(parseField(text, spec).map(label));
  };
  let time;
  if (
    parts[0] !== "*" &&
    parts[1] !== "*" &&
    minutes.length * hours.length <= 6 &&
    !parts[0].includes("/") &&
    !parts[1].includes("/")
  )
    time = `At ${list(hours.flatMap((h) => minutes.map((m) => `${pad(h)}:${pad(m)}`)))}`;
  else {
    const minutePart =
      parts[0] === "*"
        ? "Every minute"
        : parts[0].startsWith("*/")
          ? `Every ${parts[0].slice(2)} minutes`
          : `At minute ${list(minutes.map(String))}`;
    const hourPart =
      parts[1] === "*"
        ? ""
        : parts[1].startsWith("*/")
          ? `, every ${parts[1].slice(2)} hours`
          : `, between ${phrase(parts[1], specs[1], (h) => `${pad(h)}:00`)}`;
    time =
      minutePart +
      (parts[1] === "*" || !hourPart.includes("through")
        ? hourPart.replace("between", "during hour")
        : hourPart.replace(" through ", " and ").replace(/and (\d\d):00$/, (_m, h) => `and ${h}:59`));
  }
  const dom = phrase(parts[2], specs[2], (d) => String(d));
  const dow = phrase(parts[4], specs[4], (d) => dayNames[d % 7]);
  const mon = phrase(parts[3], specs[3], (m) => monthNames[m - 1]);
  let description = time;
  if (dom && dow) description += `, on day ${dom} of the month or on ${dow}`;
  else if (dom) description += `, on day ${dom} of the month`;
  else if (dow) description += `, on ${dow}`;
  if (mon) description += `, in ${mon}`;

  // Next run times in UTC: walk minute by minute, skipping whole days/hours that cannot match. Like Vixie
  // cron, when both day fields are restricted a day matches if either does.
  let from = Date.now();
  if (args.from !== undefined) {
    from = Date.parse(args.from);
    if (Number.isNaN(from))
      throw new Error(`from must be an ISO date-time, got ${JSON.stringify(args.from)}`);
  }
  const sets = fields.map((f) => new Set(f));
  const dayMatches = (date) => {
    const domOk = sets[2].has(date.getUTCDate());
    const dowOk = sets[4].has(date.getUTCDay());
    if (parts[2] !== "*" && parts[4] !== "*") return domOk || dowOk;
    return domOk && dowOk;
  };
  const runs = [];
  const t = new Date(Math.floor(from / 60000) * 60000 + 60000);
  const limit = from + 5 * 366 * 86400000;
  while (runs.length < count && t.getTime() < limit) {
    if (!sets[3].has(t.getUTCMonth() + 1) || !dayMatches(t)) {
      t.setUTCHours(24, 0, 0, 0);
    } else if (!sets[1].has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
    } else {
      if (sets[0].has(t.getUTCMinutes())) runs.push(t.toISOString().replace(":00.000Z", "Z"));
      t.setUTCMinutes(t.getUTCMinutes() + 1);
    }
  }
  return {
    expression: original,
    description,
    fields: { minute: minutes, hour: hours, day_of_month: days, month: months, day_of_week: weekdays },
    next_runs_utc: runs,
  };
}
