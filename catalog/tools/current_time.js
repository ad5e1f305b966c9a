// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function current_time(args) {
  const zones = Intl.supportedValuesOf("timeZone");
  const raw = typeof args.timezone === "string" && args.timezone.trim() !== "" ? args.timezone.trim() : "UTC";
  const key = raw.toLowerCase();
  let zone =
    key === "utc" || key === "gmt"
      ? "UTC"
      : (zones.find((z) => z.toLowerCase() === key) ??
        zones.find((z) => z.toLowerCase().endsWith(`/${key.replace(/\s+/g, "_")}`)));
  if (!zone) {
    try {
      // Intl accepts links the list leaves out (e.g. "Asia/Kolkata" where ICU lists "Asia/Calcutta").
      new Intl.DateTimeFormat("en-US", { timeZone: raw });
      zone = raw;
    } catch {
      // unknown: the error below names it
    }
  }
  if (!zone)
    throw new Error(
      `unknown time zone "${raw}": use an IANA name like "America/Chicago" or a city like "Tokyo"`,
    );
  const now = Date.now();
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
    timeZoneName: "short",
  });
  for (const p of format.formatToParts(new Date(now))) parts[p.type] = p.value;
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const offset = Math.round((asUtc - Math.floor(now / 1000) * 1000) / 60000);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const utcOffset = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  const local = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  return {
    zone,
    local: local.replace("T", " "),
    iso: `${local}${utcOffset}`,
    weekday: parts.weekday,
    utc_offset: utcOffset,
    abbreviation: parts.timeZoneName,
    unix: Math.floor(now / 1000),
  };
}
