// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function url_codec(args) {
  const { action, text } = args;
  if (typeof text !== "string") throw new Error("text must be a string");
  if (text.length > 200_000) throw new Error("text is longer than 200,000 characters");
  // "component" encodes everything that is not unreserved (for one query value or path segment);
  // "full" keeps the characters that structure a URL (: / ? & = #).
  const mode = args.mode ?? "component";
  if (mode !== "component" && mode !== "full")
    throw new Error(`mode must be "component" or "full", got "${mode}"`);
  if (action === "encode") {
    return { action, mode, result: mode === "component" ? encodeURIComponent(text) : encodeURI(text) };
  }
  if (action === "decode") {
    try {
      const input = args.plus_as_space === false ? text : text.replace(/\+/g, " ");
      return { action, mode, result: mode === "component" ? decodeURIComponent(input) : decodeURI(input) };
    } catch {
      const bad = text.match(/%(?![0-9A-Fa-f]{2})|%[0-9A-Fa-f]{2}/g);
      throw new Error(`malformed percent-encoding${bad ? ` near "${bad[0]}"` : ""}: not valid UTF-8 escapes`);
    }
  }
  throw new Error(`action must be "encode" or "decode", got "${action}"`);
}
