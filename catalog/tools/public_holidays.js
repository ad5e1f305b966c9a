// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function public_holidays(args, ctx) {
  const country = typeof args.country === "string" ? args.country.trim().toUpperCase() : "";
  if (!/^[A-Z]{2}$/.test(country))
    throw new Error(
      `country must be a two-letter ISO 3166 code such as "DE" or "US", got ${JSON.stringify(args.country)}`,
    );
  const year = args.year ?? new Date().getUTCFullYear();
  if (!Number.isInteger(year) || year < 1975 || year > 2075)
    throw new Error("year must be an integer from 1975 to 2075");
  let response;
  try {
    response = await ctx.fetch(`https://date.nager.at/api/v3/PublicHolidays/${year}/${country}`);
  } catch (error) {
    throw new Error(`could not reach date.nager.at (offline or blocked?): ${error.message}`);
  }
  if (response.status === 404 || response.status === 204)
    throw new Error(`date.nager.at has no holiday data for country "${country}"`);
  if (!response.ok) throw new Error(`date.nager.at answered HTTP ${response.status}`);
  const list = await response.json();
  const holidays = list.map((h) => ({
    date: h.date,
    name: h.name,
    local_name: h.localName,
    nationwide: h.global !== false,
    regions: h.counties ?? [],
  }));
  const today = new Date().toISOString().slice(0, 10);
  return {
    country,
    year,
    count: holidays.length,
    next: holidays.find((h) => h.date >= today) ?? null,
    holidays,
    source: "date.nager.at",
  };
}
