// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function compound_interest(args) {
  const { principal, annual_rate_percent: rate, years } = args;
  const perYear = args.compounds_per_year ?? 12;
  const monthly = args.monthly_contribution ?? 0;
  if (typeof principal !== "number" || principal < 0) throw new Error("principal must be a number ≥ 0");
  if (typeof rate !== "number" || rate < -100 || rate > 1000)
    throw new Error("annual_rate_percent must be from -100 to 1000");
  if (typeof years !== "number" || !(years > 0) || years > 200)
    throw new Error("years must be above 0 and at most 200");
  if (![1, 2, 4, 12, 365].includes(perYear)) throw new Error("compounds_per_year must be 1, 2, 4, 12 or 365");
  if (typeof monthly !== "number" || monthly < 0)
    throw new Error("monthly_contribution must be a number ≥ 0");
  // Month by month, so that monthly contributions and any compounding frequency combine exactly.
  const totalMonths = Math.round(years * 12);
  const monthlyGrowth = (1 + rate / 100 / perYear) ** (perYear / 12);
  let balance = principal;
  const byYear = [];
  for (let m = 1; m <= totalMonths; m++) {
    balance = balance * monthlyGrowth + monthly;
    if (m % 12 === 0 || m === totalMonths)
      byYear.push({ year: Math.ceil(m / 12), balance: Math.round(balance * 100) / 100 });
  }
  const contributed = principal + monthly * totalMonths;
  return {
    final_balance: Math.round(balance * 100) / 100,
    total_contributed: Math.round(contributed * 100) / 100,
    interest_earned: Math.round((balance - contributed) * 100) / 100,
    effective_annual_rate_percent: Math.round(((1 + rate / 100 / perYear) ** perYear - 1) * 1e6) / 1e4,
    by_year: byYear.slice(0, 200),
  };
}
