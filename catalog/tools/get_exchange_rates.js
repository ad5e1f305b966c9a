// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function get_exchange_rates(args, ctx) {
  const base = typeof args.base === "string" ? args.base.trim().toUpperCase() : "EUR";
  if (!/^[A-Z]{3}$/.test(base))
    throw new Error(`base must be a 3-letter ISO 4217 currency code, got ${JSON.stringify(args.base)}`);
  const symbols = (args.symbols ?? []).map((s) => String(s).trim().toUpperCase());
  const bad = symbols.find((s) => !/^[A-Z]{3}$/.test(s));
  if (bad !== undefined) throw new Error(`symbols: "${bad}" is not a 3-letter currency code`);
  const date = args.date ?? "latest";
  if (date !== "latest" && !/^\d{4}-\d{2}-\d{2}$/.test(date))
    throw new Error('date must be YYYY-MM-DD or "latest"');
  const query = `from=${base}${symbols.length ? `&to=${symbols.join(",")}` : ""}`;
  let response;
  try {
    // Frankfurter publishes the European Central Bank reference rates (working days, ~16:00 CET).
    response = await ctx.fetch(`https://api.frankfurter.app/${date}?${query}`);
  } catch (error) {
    throw new Error(`could not reach api.frankfurter.app (offline or blocked?): ${error.message}`);
  }
  if (response.status === 404 || response.status === 422)
    throw new Error(`frankfurter.app does not know currency ${base} or one of ${symbols.join(", ")}`);
  if (!response.ok) throw new Error(`api.frankfurter.app answered HTTP ${response.status}`);
  const body = await response.json();
  return {
    base: body.base,
    date: body.date,
    rates: body.rates,
    source: "European Central Bank via frankfurter.app",
  };
}
