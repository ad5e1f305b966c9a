// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function percentage(args) {
  const { operation, a, b } = args;
  if (typeof a !== "number" || !Number.isFinite(a) || typeof b !== "number" || !Number.isFinite(b))
    throw new Error("a and b must be finite numbers");
  const round = (x) => Number(x.toPrecision(12));
  const operations = {
    // a% of b
    percent_of: () => ({ result: round((a / 100) * b), explanation: `${a}% of ${b}` }),
    // a is what percent of b
    what_percent: () => {
      if (b === 0) throw new Error("b must not be 0: nothing is a percentage of zero");
      return { result: round((a / b) * 100), explanation: `${a} is this percent of ${b}` };
    },
    // change from a to b, in percent
    percent_change: () => {
      if (a === 0) throw new Error("a must not be 0: a change from zero has no percentage");
      return {
        result: round(((b - a) / Math.abs(a)) * 100),
        explanation: `percent change from ${a} to ${b}`,
      };
    },
    // b increased by a%
    increase_by: () => ({ result: round(b * (1 + a / 100)), explanation: `${b} increased by ${a}%` }),
    // b decreased by a%
    decrease_by: () => ({ result: round(b * (1 - a / 100)), explanation: `${b} decreased by ${a}%` }),
    // b is the value after adding a%: what was it before? (e.g. removing VAT)
    reverse_increase: () => {
      if (a <= -100) throw new Error("a must be above -100");
      return {
        result: round(b / (1 + a / 100)),
        explanation: `the value before a ${a}% increase that gave ${b}`,
      };
    },
  };
  if (!Object.hasOwn(operations, operation))
    throw new Error(`operation must be one of ${Object.keys(operations).join(", ")}, got "${operation}"`);
  return { operation, ...operations[operation]() };
}
