// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function regex_extract(args) {
  const { text, pattern } = args;
  const flags = args.flags ?? "";
  const maxMatches = args.max_matches ?? 100;
  // Caps keep the work bounded; a catastrophically backtracking pattern is still stopped by the sandbox
  // timeout, which is the only reliable guard against it.
  if (typeof text !== "string") throw new Error("text must be a string");
  if (text.length > 200_000) throw new Error("text is longer than 200,000 characters");
  if (typeof pattern !== "string" || pattern === "") throw new Error("pattern must be a non-empty string");
  if (pattern.length > 500) throw new Error("pattern is longer than 500 characters");
  if (!/^[imsu]*$/.test(flags) || new Set(flags).size !== flags.length)
    throw new Error(`flags may hold each of i, m, s, u once, got "${flags}"`);
  if (!Number.isInteger(maxMatches) || maxMatches < 1 || maxMatches > 1000)
    throw new Error("max_matches must be an integer from 1 to 1000");
  let regex;
  try {
    regex = new RegExp(pattern, `${flags}g`);
  } catch (error) {
    throw new Error(`invalid regular expression: ${error.message}`);
  }
  const matches = [];
  let truncated = false;
  for (const m of text.matchAll(regex)) {
    if (matches.length === maxMatches) {
      truncated = true;
      break;
    }
    const entry = { match: m[0], index: m.index, groups: m.slice(1).map((g) => g ?? null) };
    if (m.groups) entry.named = { ...m.groups };
    matches.push(entry);
  }
  return { count: matches.length, truncated, matches };
}
