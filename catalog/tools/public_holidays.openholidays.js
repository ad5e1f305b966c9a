// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function public_holidays(args, ctx) {
  // Secondary provider: OpenHolidays covers fewer countries (mostly Europe) but is independent of Nager.
  const country = typeof args.country === "string" ? args.country.trim().toUpperCase() : "";
  if (!/^[A-Z]{2}$/.test(country))
    throw new Error(
      `country must be a two-letter ISO 3166 code such as "DE" or "US", got ${JSON.stringify(args.country)}`,
    );
  const year = args.year ?? new Date().getUTCFullYear();
  if (!Number.isInteger(year) || year < 1975 || year > 2075)
    throw new Error("year must be an integer from 1975 to 2075");
  const url = `https://openholidaysapi.org/PublicHolidays?countryIsoCode=${country}&languageIsoCode=EN&validFrom=${year}-01-01&validTo=${year}-12-31`;
  let response;
  try {
    response = await ctx.fetch(url, { headers: { accept: "application/json" } });
  } catch (error) {
    throw new Error(`could not reach openholidaysapi.org (offline or blocked?): ${error.message}`);
  }
  if (!response.ok)
    throw new Error(`openholidaysapi.org answered HTTP ${response.status} for country "${country}"`);
  const list = await response.json();
  const nameOf = (names) => (names.find((n) => n.language === "EN") ?? names[0])?.text ?? "";
  const holidays = list
    .map((h) => ({
      date: h.startDate,
      name: nameOf(h.name ?? []),
      local_name: (h.name ?? []).find((n) => n.language !== "EN")?.text ?? nameOf(h.name ?? []),
      nationwide: h.nationwide !== false,
      regions: (h.subdivisions ?? []).map((s) => s.code),
    }))
    .sort((a, b) => a.date.localeCompare(b.date));
  const today = new Date().toISOString().slice(0, 10);
  return {
    country,
    year,
    count: holidays.length,
    next: holidays.find((h) => h.date >= today) ?? null,
    holidays,
    source: "openholidaysapi.org",
  };
}
