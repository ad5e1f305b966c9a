// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function convert_currency(args, ctx) {
  const { amount } = args;
  const from = typeof args.from === "string" ? args.from.trim().toUpperCase() : "";
  const to = typeof args.to === "string" ? args.to.trim().toUpperCase() : "";
  if (typeof amount !== "number" || !Number.isFinite(amount) || amount < 0)
    throw new Error("amount must be a number ≥ 0");
  if (!/^[A-Z]{3}$/.test(from) || !/^[A-Z]{3}$/.test(to))
    throw new Error("from and to must be 3-letter ISO 4217 currency codes such as USD, EUR, JPY");
  if (from === to)
    return {
      amount,
      from,
      to,
      rate: 1,
      result: amount,
      date: new Date().toISOString().slice(0, 10),
      source: "identity",
    };
  let response;
  try {
    response = await ctx.fetch(`https://api.frankfurter.app/latest?from=${from}&to=${to}`);
  } catch (error) {
    throw new Error(`could not reach api.frankfurter.app (offline or blocked?): ${error.message}`);
  }
  if (response.status === 404 || response.status === 422)
    throw new Error(`frankfurter.app does not convert ${from} to ${to} (ECB reference currencies only)`);
  if (!response.ok) throw new Error(`api.frankfurter.app answered HTTP ${response.status}`);
  const body = await response.json();
  const rate = body.rates[to];
  return {
    amount,
    from,
    to,
    rate,
    result: Math.round(amount * rate * 100) / 100,
    date: body.date,
    source: "European Central Bank via frankfurter.app",
  };
}
