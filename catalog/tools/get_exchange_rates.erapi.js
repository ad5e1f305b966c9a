// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function get_exchange_rates(args, ctx) {
  // Secondary provider: open.er-api.com has more currencies but only today's rates, so a historical date
  // cannot be served from here.
  const base = typeof args.base === "string" ? args.base.trim().toUpperCase() : "EUR";
  if (!/^[A-Z]{3}$/.test(base))
    throw new Error(`base must be a 3-letter ISO 4217 currency code, got ${JSON.stringify(args.base)}`);
  const symbols = (args.symbols ?? []).map((s) => String(s).trim().toUpperCase());
  if (args.date !== undefined && args.date !== "latest")
    throw new Error("the fallback provider open.er-api.com has only the latest rates");
  let response;
  try {
    response = await ctx.fetch(`https://open.er-api.com/v6/latest/${base}`);
  } catch (error) {
    throw new Error(`could not reach open.er-api.com (offline or blocked?): ${error.message}`);
  }
  if (!response.ok) throw new Error(`open.er-api.com answered HTTP ${response.status}`);
  const body = await response.json();
  if (body.result !== "success")
    throw new Error(`open.er-api.com: ${body["error-type"] ?? "unknown error"} for ${base}`);
  const missing = symbols.filter((s) => body.rates[s] === undefined);
  if (missing.length) throw new Error(`open.er-api.com has no rate for ${missing.join(", ")}`);
  const rates = symbols.length ? Object.fromEntries(symbols.map((s) => [s, body.rates[s]])) : body.rates;
  const date = new Date(body.time_last_update_unix * 1000).toISOString().slice(0, 10);
  return { base: body.base_code, date, rates, source: "open.er-api.com" };
}
