// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function convert_timezone(args) {
  // Intl (with full ICU time zone data) is available inside the V8 isolate, so no tz database is bundled.
  const aliases = {
    utc: "UTC",
    gmt: "UTC",
    z: "UTC",
    est: "America/New_York",
    edt: "America/New_York",
    et: "America/New_York",
    cst: "America/Chicago",
    cdt: "America/Chicago",
    ct: "America/Chicago",
    mst: "America/Denver",
    mdt: "America/Denver",
    mt: "America/Denver",
    pst: "America/Los_Angeles",
    pdt: "America/Los_Angeles",
    pt: "America/Los_Angeles",
    bst: "Europe/London",
    cet: "Europe/Paris",
    cest: "Europe/Paris",
    eet: "Europe/Athens",
    ist: "Asia/Kolkata",
    jst: "Asia/Tokyo",
    kst: "Asia/Seoul",
    aest: "Australia/Sydney",
    aedt: "Australia/Sydney",
    nzst: "Pacific/Auckland",
    sgt: "Asia/Singapore",
    hkt: "Asia/Hong_Kong",
  };
  const zones = Intl.supportedValuesOf("timeZone");
  const resolveZone = (raw, field) => {
    if (typeof raw !== "string" || raw.trim() === "")
      throw new Error(`${field} must be a time zone such as "Europe/Paris", "PST" or a city`);
    const key = raw.trim().toLowerCase();
    if (Object.hasOwn(aliases, key)) return aliases[key];
    const exact = zones.find((z) => z.toLowerCase() === key);
    if (exact) return exact;
    const city = key.replace(/\s+/g, "_");
    const byCity = zones.find((z) => z.toLowerCase().endsWith(`/${city}`));
    if (byCity) return byCity;
    try {
      // Intl accepts links the list leaves out (e.g. "Asia/Kolkata" where ICU lists "Asia/Calcutta").
      new Intl.DateTimeFormat("en-US", { timeZone: raw.trim() });
      return raw.trim();
    } catch {
      throw new Error(
        `${field}: unknown time zone "${raw}" (use an IANA name like "Asia/Tokyo", an abbreviation like "CET", or a city)`,
      );
    }
  };
  const partsOf = (zone, epoch) => {
    const parts = {};
    const format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "long",
    });
    for (const p of format.formatToParts(new Date(epoch))) parts[p.type] = p.value;
    return parts;
  };
  const offsetMinutes = (zone, epoch) => {
    const p = partsOf(zone, epoch);
    const asUtc = Date.UTC(
      Number(p.year),
      Number(p.month) - 1,
      Number(p.day),
      Number(p.hour),
      Number(p.minute),
      Number(p.second),
    );
    return Math.round((asUtc - Math.floor(epoch / 1000) * 1000) / 60000);
  };
  const formatOffset = (minutes) => {
    const sign = minutes < 0 ? "-" : "+";
    const abs = Math.abs(minutes);
    return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  };
  const describe = (zone, epoch) => {
    const p = partsOf(zone, epoch);
    const offset = offsetMinutes(zone, epoch);
    return {
      zone,
      local: `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`,
      weekday: p.weekday,
      utc_offset: formatOffset(offset),
    };
  };

  const fromZone = resolveZone(args.from_zone ?? "UTC", "from_zone");
  const toZone = resolveZone(args.to_zone, "to_zone");
  const raw = typeof args.time === "string" ? args.time.trim() : "";
  const notes = [];
  let epoch;
  const withOffset = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(Z|[+-]\d{2}:?\d{2})$/i.exec(raw);
  // "15:00", "3:30 pm" and, with am/pm, "3pm": the minutes may only be left out next to am/pm.
  const clock = /^(?:(\d{4})-(\d{2})-(\d{2})[T ])?(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(am|pm)?$/i.exec(raw);
  const wall = clock && (clock[5] !== undefined || clock[7] !== undefined) ? clock : null;
  if (raw === "now") epoch = Date.now();
  else if (withOffset) {
    epoch = Date.parse(`${withOffset[1]}T${withOffset[2]}${withOffset[3].toUpperCase()}`);
    notes.push("the time carried its own UTC offset, so from_zone was not needed to place it");
  } else if (wall) {
    let hour = Number(wall[4]);
    const minute = Number(wall[5] ?? 0);
    const second = Number(wall[6] ?? 0);
    if (wall[7]) {
      if (hour < 1 || hour > 12) throw new Error(`time: "${raw}" has an hour outside 1-12 for am/pm`);
      hour = (hour % 12) + (wall[7].toLowerCase() === "pm" ? 12 : 0);
    }
    if (hour > 23 || minute > 59 || second > 59) throw new Error(`time: "${raw}" is not a valid time of day`);
    let year;
    let month;
    let day;
    if (wall[1]) [year, month, day] = [Number(wall[1]), Number(wall[2]), Number(wall[3])];
    else {
      const today = partsOf(fromZone, Date.now());
      [year, month, day] = [Number(today.year), Number(today.month), Number(today.day)];
      notes.push(`no date given: used today's date in ${fromZone}`);
    }
    const guess = Date.UTC(year, month - 1, day, hour, minute, second);
    if (new Date(guess).getUTCDate() !== day) throw new Error(`time: "${raw}" is not a real calendar date`);
    // A wall-clock time maps to UTC by subtracting the zone's offset at that moment; the second pass
    // settles times next to a daylight-saving change.
    const first = offsetMinutes(fromZone, guess);
    epoch = guess - first * 60000;
    const second2 = offsetMinutes(fromZone, epoch);
    if (second2 !== first) {
      epoch = guess - second2 * 60000;
      if (offsetMinutes(fromZone, epoch) !== second2)
        notes.push(
          `${raw} does not exist in ${fromZone} (clocks jump forward then); shifted by the DST change`,
        );
    }
  } else {
    throw new Error(
      `time must be "HH:MM", "h:mm am/pm", "YYYY-MM-DD HH:MM", an ISO time with offset, or "now"; got ${JSON.stringify(args.time)}`,
    );
  }
  const from = describe(fromZone, epoch);
  const to = describe(toZone, epoch);
  const difference = (offsetMinutes(toZone, epoch) - offsetMinutes(fromZone, epoch)) / 60;
  return {
    utc: new Date(epoch).toISOString().replace(".000Z", "Z"),
    from,
    to,
    difference_hours: difference,
    notes,
  };
}
