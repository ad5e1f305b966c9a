// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function calculate_tip(args) {
  const { bill } = args;
  const percent = args.tip_percent ?? 15;
  const people = args.people ?? 1;
  if (typeof bill !== "number" || !(bill > 0)) throw new Error("bill must be a positive amount");
  if (typeof percent !== "number" || percent < 0 || percent > 100)
    throw new Error("tip_percent must be from 0 to 100");
  if (!Number.isInteger(people) || people < 1 || people > 100)
    throw new Error("people must be an integer from 1 to 100");
  // Work in cents so that the shares add up exactly; the first people pay the leftover cents.
  const billCents = Math.round(bill * 100);
  let tipCents = Math.round((billCents * percent) / 100);
  if (args.round_up_total === true) tipCents = Math.ceil((billCents + tipCents) / 100) * 100 - billCents;
  const totalCents = billCents + tipCents;
  const base = Math.floor(totalCents / people);
  const shares = Array.from(
    { length: people },
    (_, k) => (base + (k < totalCents - base * people ? 1 : 0)) / 100,
  );
  return {
    bill: billCents / 100,
    tip_percent: percent,
    tip: tipCents / 100,
    total: totalCents / 100,
    people,
    per_person: shares[0],
    shares,
  };
}
