// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function sunrise_sunset(args) {
  // The sunrise equation (NOAA's simplified solar position, as in Wikipedia's "Sunrise equation"): accurate
  // to a minute or two at ordinary latitudes, computed offline from coordinates and a date.
  const { latitude, longitude } = args;
  if (typeof latitude !== "number" || latitude < -90 || latitude > 90)
    throw new Error("latitude must be a number from -90 to 90");
  if (typeof longitude !== "number" || longitude < -180 || longitude > 180)
    throw new Error("longitude must be a number from -180 to 180");
  let day;
  if (args.date === undefined || args.date === "today") day = new Date().toISOString().slice(0, 10);
  else if (
    typeof args.date === "string" &&
    /^\d{4}-\d{2}-\d{2}$/.test(args.date) &&
    !Number.isNaN(Date.parse(args.date))
  )
    day = args.date;
  else throw new Error(`date must be YYYY-MM-DD or "today", got ${JSON.stringify(args.date)}`);
  const zone = args.timezone ?? "UTC";
  let local;
  try {
    local = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
  } catch {
    throw new Error(`timezone: unknown time zone "${zone}" (use an IANA name such as "Europe/London")`);
  }

  const rad = Math.PI / 180;
  const julianDay = Date.parse(`${day}T00:00:00Z`) / 86400000 + 2440587.5;
  const n = Math.ceil(julianDay - 2451545.0 + 0.0008);
  const meanSolarTime = n - longitude / 360;
  const anomaly = (357.5291 + 0.98560028 * meanSolarTime) % 360;
  const center =
    1.9148 * Math.sin(anomaly * rad) +
    0.02 * Math.sin(2 * anomaly * rad) +
    0.0003 * Math.sin(3 * anomaly * rad);
  const eclipticLongitude = (anomaly + center + 180 + 102.9372) % 360;
  const transit =
    2451545.0 +
    meanSolarTime +
    0.0053 * Math.sin(anomaly * rad) -
    0.0069 * Math.sin(2 * eclipticLongitude * rad);
  const declination = Math.asin(Math.sin(eclipticLongitude * rad) * Math.sin(23.4397 * rad));
  // -0.833° accounts for atmospheric refraction and the sun's radius.
  const cosHourAngle =
    (Math.sin(-0.833 * rad) - Math.sin(latitude * rad) * Math.sin(declination)) /
    (Math.cos(latitude * rad) * Math.cos(declination));
  const toDate = (julian) => new Date(Math.round(((julian - 2440587.5) * 86400000) / 60000) * 60000);
  const describe = (date) => ({
    utc: date.toISOString().replace(":00.000Z", "Z"),
    local: local.format(date),
  });
  const noon = toDate(transit);
  if (cosHourAngle < -1 || cosHourAngle > 1) {
    return {
      date: day,
      timezone: zone,
      sunrise: null,
      sunset: null,
      solar_noon: describe(noon),
      day_length_hours: cosHourAngle < -1 ? 24 : 0,
      polar: cosHourAngle < -1 ? "midnight sun: the sun does not set" : "polar night: the sun does not rise",
    };
  }
  const hourAngle = Math.acos(cosHourAngle) / rad;
  return {
    date: day,
    timezone: zone,
    sunrise: describe(toDate(transit - hourAngle / 360)),
    sunset: describe(toDate(transit + hourAngle / 360)),
    solar_noon: describe(noon),
    day_length_hours: Math.round(((2 * hourAngle) / 15) * 100) / 100,
    polar: null,
  };
}
