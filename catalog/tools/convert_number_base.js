// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function convert_number_base(args) {
  // BigInt arithmetic, so integers of any size convert exactly.
  const digits = "0123456789abcdefghijklmnopqrstuvwxyz";
  const prefixes = { "0x": 16, "0b": 2, "0o": 8 };
  let text = typeof args.value === "number" && Number.isInteger(args.value) ? String(args.value) : args.value;
  if (typeof text !== "string" || text.trim() === "")
    throw new Error('value must be an integer written as a string, e.g. "ff" or "0b1010"');
  text = text.trim().toLowerCase().replace(/[_\s]/g, "");
  const negative = text.startsWith("-");
  if (negative) text = text.slice(1);
  let from = args.from_base;
  const prefix = Object.keys(prefixes).find((p) => text.startsWith(p));
  if (prefix && (from === undefined || from === prefixes[prefix])) {
    from = prefixes[prefix];
    text = text.slice(2);
  }
  from = from ?? 10;
  const bases = args.to_bases ?? [2, 8, 10, 16];
  for (const b of [from, ...bases])
    if (!Number.isInteger(b) || b < 2 || b > 36)
      throw new Error(`bases must be integers from 2 to 36, got ${b}`);
  if (text === "" || text.length > 1000) throw new Error("value must have 1 to 1000 digits");
  let n = 0n;
  for (const [k, c] of [...text].entries()) {
    const d = digits.indexOf(c);
    if (d < 0 || d >= from) throw new Error(`value: "${c}" at position ${k + 1} is not a base-${from} digit`);
    n = n * BigInt(from) + BigInt(d);
  }
  const results = {};
  for (const b of bases) {
    let rest = n;
    let out = rest === 0n ? "0" : "";
    while (rest > 0n) {
      out = digits[Number(rest % BigInt(b))] + out;
      rest /= BigInt(b);
    }
    results[String(b)] = (negative && n !== 0n ? "-" : "") + out;
  }
  return { value: args.value, from_base: from, results };
}
