// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function convert_case(args) {
  const { text, to } = args;
  if (typeof text !== "string") throw new Error("text must be a string");
  if (text.length > 100_000) throw new Error("text is longer than 100,000 characters");
  // Split identifiers and prose alike: on separators, and between a lower-case letter and an upper-case one
  // ("parseHTTPResponse" → parse, HTTP, Response).
  const words = () =>
    text
      .replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1 $2")
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const cap = (w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
  const small = new Set([
    "a",
    "an",
    "and",
    "as",
    "at",
    "but",
    "by",
    "for",
    "in",
    "nor",
    "of",
    "on",
    "or",
    "the",
    "to",
    "up",
    "via",
  ]);
  const converters = {
    lower: () => text.toLowerCase(),
    upper: () => text.toUpperCase(),
    camel: () =>
      words()
        .map((w, k) => (k === 0 ? w.toLowerCase() : cap(w)))
        .join(""),
    pascal: () => words().map(cap).join(""),
    snake: () =>
      words()
        .map((w) => w.toLowerCase())
        .join("_"),
    kebab: () =>
      words()
        .map((w) => w.toLowerCase())
        .join("-"),
    constant: () =>
      words()
        .map((w) => w.toUpperCase())
        .join("_"),
    title: () =>
      text
        .toLowerCase()
        .replace(/[\p{L}\p{N}']+/gu, (w, offset) => (offset > 0 && small.has(w) ? w : cap(w))),
    sentence: () =>
      text.toLowerCase().replace(/(^\s*|[.!?]\s+)(\p{Ll})/gu, (_m, lead, c) => lead + c.toUpperCase()),
  };
  if (!Object.hasOwn(converters, to))
    throw new Error(`to must be one of ${Object.keys(converters).join(", ")}, got "${to}"`);
  return { to, result: converters[to]() };
}
