// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function unix_timestamp(args) {
  const { timestamp, datetime } = args;
  if ((timestamp === undefined) === (datetime === undefined))
    throw new Error('give exactly one of "timestamp" (to read) or "datetime" (to convert)');
  let ms;
  let unit = null;
  if (timestamp !== undefined) {
    const n =
      typeof timestamp === "string" && /^-?\d+(\.\d+)?$/.test(timestamp.trim())
        ? Number(timestamp)
        : timestamp;
    if (typeof n !== "number" || !Number.isFinite(n))
      throw new Error("timestamp must be a number of seconds or milliseconds since 1970-01-01 UTC");
    // Values beyond 1e11 cannot be seconds before the year 5138, so they are read as milliseconds.
    unit = args.unit ?? (Math.abs(n) >= 1e11 ? "milliseconds" : "seconds");
    if (unit !== "seconds" && unit !== "milliseconds")
      throw new Error('unit must be "seconds" or "milliseconds"');
    ms = unit === "seconds" ? n * 1000 : n;
  } else {
    if (typeof datetime !== "string")
      throw new Error("datetime must be an ISO 8601 string such as 2024-05-01T12:00:00Z");
    const text = datetime.trim();
    // A date-time without an offset is taken as UTC, never as the host's local time.
    const normalised = /^\d{4}-\d{2}-\d{2}$/.test(text)
      ? `${text}T00:00:00Z`
      : /[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)
        ? `${text.replace(" ", "T")}Z`
        : text.replace(" ", "T");
    ms = Date.parse(normalised);
    if (Number.isNaN(ms))
      throw new Error(`datetime: cannot read ${JSON.stringify(datetime)} as an ISO 8601 date-time`);
  }
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) throw new Error("the timestamp is outside the range of dates");
  return {
    seconds: Math.floor(ms / 1000),
    milliseconds: Math.round(ms),
    iso_utc: date.toISOString(),
    read_as: unit,
    weekday: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][date.getUTCDay()],
  };
}
