// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function regex_extract(args) {
  const { text } = args;
  const flags = args.flags ?? "";
  const maxMatches = args.max_matches ?? 100;
  // What to find comes in one of three forms: a regex, a kind that names a common one, or an example of
  // the values ("PAY-123"), whose runs of letters and digits stand for any such run and whose other
  // characters stay as written. People name what they want far more often than they write a regex. The
  // most exact form given wins: a pattern, then an example, then a kind.
  const KINDS = {
    email: "[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+",
    url: "https?:\\/\\/[^\\s<>\"')\\]]+",
    ip: "\\b(?:(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)\\b",
    phone_number: "\\+?\\d[\\d ()-]{6,}\\d",
    hashtag: "#[\\p{L}\\p{N}_]+",
    iso_date: "\\b\\d{4}-\\d{2}-\\d{2}\\b",
    number: "-?\\d+(?:[.,]\\d+)*",
  };
  if (args.pattern === undefined && args.kind === undefined && args.like === undefined)
    throw new Error("say what to find: a pattern, a kind or an example (like)");
  let pattern = args.pattern;
  let regexFlags = flags;
  if (pattern === undefined && args.like === undefined) {
    if (!Object.hasOwn(KINDS, args.kind))
      throw new Error(`kind must be one of ${Object.keys(KINDS).join(", ")}, got "${args.kind}"`);
    pattern = KINDS[args.kind];
    if (args.kind === "hashtag" && !regexFlags.includes("u")) regexFlags += "u";
  }
  if (pattern === undefined && args.like !== undefined) {
    if (
      typeof args.like !== "string" ||
      !/^[\w.:#@/-]{2,40}$/.test(args.like) ||
      !/[A-Za-z\d]/.test(args.like)
    )
      throw new Error(
        'like must be one example value of 2 to 40 letters, digits and . : # @ / - _, e.g. "PAY-123"',
      );
    pattern = `(?<![\\w-])${args.like.replace(/[A-Z]+|[a-z]+|\d+|[^A-Za-z\d]/g, (run) =>
      /^[A-Z]+$/.test(run)
        ? "[A-Z]+"
        : /^[a-z]+$/.test(run)
          ? "[a-z]+"
          : /^\d+$/.test(run)
            ? "\\d+"
            : `\\${run}`,
    )}(?![\\w-])`;
  }
  // Caps keep the work bounded; a catastrophically backtracking pattern is still stopped by the sandbox
  // timeout, which is the only reliable guard against it.
  if (typeof text !== "string") throw new Error("text must be a string");
  if (text.length > 200_000) throw new Error("text is longer than 200,000 characters");
  if (typeof pattern !== "string" || pattern === "") throw new Error("pattern must be a non-empty string");
  if (pattern.length > 500) throw new Error("pattern is longer than 500 characters");
  if (!/^[imsu]*$/.test(regexFlags) || new Set(regexFlags).size !== regexFlags.length)
    throw new Error(`flags may hold each of i, m, s, u once, got "${flags}"`);
  if (!Number.isInteger(maxMatches) || maxMatches < 1 || maxMatches > 1000)
    throw new Error("max_matches must be an integer from 1 to 1000");
  let regex;
  try {
    regex = new RegExp(pattern, `${regexFlags}g`);
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
