// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function convert_currency(args, ctx) {
  const { amount } = args;
  const from = typeof args.from === "string" ? args.from.trim().toUpperCase() : "";
  const to = typeof args.to === "string" ? args.to.trim().toUpperCase() : "";
  if (typeof amount !== "number" || !Number.isFinite(amount) || amount < 0)
    throw new Error("amount must be a number ≥ 0");
  if (!/^[A-Z]{3}$/.test(from) || !/^[A-Z]{3}$/.test(to))
    throw new Error("from and to must be 3-letter ISO 4217 currency codes such as USD, EUR, JPY");
  let response;
  try {
    response = await ctx.fetch(`https://open.er-api.com/v6/latest/${from}`);
  } catch (error) {
    throw new Error(`could not reach open.er-api.com (offline or blocked?): ${error.message}`);
  }
  if (!response.ok) throw new Error(`open.er-api.com answered HTTP ${response.status}`);
  const body = await response.json();
  if (body.result !== "success")
    throw new Error(`open.er-api.com: ${body["error-type"] ?? "unknown error"} for ${from}`);
  const rate = body.rates[to];
  if (rate === undefined) throw new Error(`open.er-api.com has no rate from ${from} to ${to}`);
  const date = new Date(body.time_last_update_unix * 1000).toISOString().slice(0, 10);
  return {
    amount,
    from,
    to,
    rate,
    result: Math.round(amount * rate * 100) / 100,
    date,
    source: "open.er-api.com",
  };
}
