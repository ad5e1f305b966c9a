// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function loan_payment(args) {
  const { principal, annual_rate_percent: rate } = args;
  const months = args.months ?? (args.years === undefined ? undefined : Math.round(args.years * 12));
  if (typeof principal !== "number" || !(principal > 0))
    throw new Error("principal must be a positive number");
  if (typeof rate !== "number" || rate < 0 || rate > 100)
    throw new Error("annual_rate_percent must be from 0 to 100");
  if (!Number.isInteger(months) || months < 1 || months > 1200)
    throw new Error("give the term as years or months (1 to 1200 months)");
  const scheduleRows = args.schedule_rows ?? 0;
  if (!Number.isInteger(scheduleRows) || scheduleRows < 0 || scheduleRows > 1200)
    throw new Error("schedule_rows must be an integer from 0 to 1200");
  // Standard annuity formula: payment = P·r / (1 − (1 + r)^−n), with r the monthly rate.
  const r = rate / 100 / 12;
  const payment = r === 0 ? principal / months : (principal * r) / (1 - (1 + r) ** -months);
  const cents = (x) => Math.round(x * 100) / 100;
  const schedule = [];
  let balance = principal;
  for (let k = 1; k <= scheduleRows && k <= months; k++) {
    const interest = balance * r;
    const toPrincipal = payment - interest;
    balance -= toPrincipal;
    schedule.push({
      month: k,
      payment: cents(payment),
      interest: cents(interest),
      principal: cents(toPrincipal),
      balance: cents(Math.max(balance, 0)),
    });
  }
  return {
    monthly_payment: cents(payment),
    months,
    total_paid: cents(payment * months),
    total_interest: cents(payment * months - principal),
    schedule,
  };
}
