// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function statistics_summary(args) {
  const { numbers } = args;
  if (!Array.isArray(numbers) || numbers.length === 0)
    throw new Error("numbers must be a non-empty array of numbers");
  if (numbers.length > 100_000) throw new Error("numbers holds more than 100,000 values");
  const bad = numbers.findIndex((x) => typeof x !== "number" || !Number.isFinite(x));
  if (bad >= 0) throw new Error(`numbers[${bad}] is not a finite number`);
  const sorted = [...numbers].sort((a, b) => a - b);
  const n = sorted.length;
  const round = (x) => Number(x.toPrecision(12));
  // Quantiles by linear interpolation between closest ranks (the default of numpy, R type 7 and Excel).
  const quantile = (q) => {
    const pos = (n - 1) * q;
    const lo = Math.floor(pos);
    return sorted[lo] + (sorted[Math.min(lo + 1, n - 1)] - sorted[lo]) * (pos - lo);
  };
  const sum = sorted.reduce((s, x) => s + x, 0);
  const mean = sum / n;
  const squares = sorted.reduce((s, x) => s + (x - mean) ** 2, 0);
  const counts = new Map();
  for (const x of sorted) counts.set(x, (counts.get(x) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const modes = top > 1 ? [...counts].filter(([, c]) => c === top).map(([x]) => x) : [];
  return {
    count: n,
    sum: round(sum),
    mean: round(mean),
    median: round(quantile(0.5)),
    modes,
    min: sorted[0],
    max: sorted[n - 1],
    range: round(sorted[n - 1] - sorted[0]),
    q1: round(quantile(0.25)),
    q3: round(quantile(0.75)),
    population_variance: round(squares / n),
    population_stdev: round(Math.sqrt(squares / n)),
    sample_variance: n > 1 ? round(squares / (n - 1)) : null,
    sample_stdev: n > 1 ? round(Math.sqrt(squares / (n - 1))) : null,
  };
}
