// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function slugify(args) {
  const { text } = args;
  const separator = args.separator ?? "-";
  const maxLength = args.max_length ?? 80;
  if (typeof text !== "string") throw new Error("text must be a string");
  if (text.length > 10_000) throw new Error("text is longer than 10,000 characters");
  if (separator !== "-" && separator !== "_") throw new Error('separator must be "-" or "_"');
  if (!Number.isInteger(maxLength) || maxLength < 1 || maxLength > 200)
    throw new Error("max_length must be an integer from 1 to 200");
  // Letters that NFKD does not split into base letter + accent.
  const special = { ß: "ss", æ: "ae", ø: "o", œ: "oe", đ: "d", ł: "l", þ: "th", ð: "d", "&": " and " };
  let slug = text
    .toLowerCase()
    .replace(/[ßæøœđłþð&]/g, (c) => special[c])
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, separator)
    .replace(new RegExp(`^\\${separator}+|\\${separator}+$`, "g"), "");
  if (slug.length > maxLength) {
    // Cut at a word boundary when there is one, so slugs do not end in half a word.
    const cut = slug.slice(0, maxLength + 1);
    const boundary = cut.lastIndexOf(separator);
    slug = boundary > 0 ? cut.slice(0, boundary) : slug.slice(0, maxLength);
  }
  if (slug === "") throw new Error("text has no letters or digits to build a slug from");
  return { slug };
}
