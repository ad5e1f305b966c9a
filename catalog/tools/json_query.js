// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function json_query(args) {
  // A small path language instead of full JMESPath (no npm packages inside the isolate):
  //   a.b.c   a[0]   a[-1]   a[*].name   a["key with spaces"]   a[?status=="open"].id   a.length
  const { path } = args;
  let data = args.data;
  if (typeof args.json === "string") {
    if (args.json.length > 1_000_000) throw new Error("json is longer than 1,000,000 characters");
    try {
      data = JSON.parse(args.json);
    } catch (error) {
      throw new Error(`json is not valid JSON: ${error.message}`);
    }
  }
  if (data === undefined) throw new Error('give the document as "json" (a string) or "data" (a value)');
  if (typeof path !== "string") throw new Error("path must be a string");

  const steps = [];
  const stepPattern =
    /\s*(?:\.?([A-Za-z_$][\w$-]*)|\[\s*(-?\d+)\s*\]|\[\s*\*\s*\]|\.\*|\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[\s*'([^']*)'\s*\]|\[\?\s*([\w.-]+)\s*(==|!=|>=|<=|>|<)\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)\s*\])/y;
  let at = path.startsWith("$") ? 1 : 0;
  while (at < path.length && path.slice(at).trim() !== "") {
    stepPattern.lastIndex = at;
    const m = stepPattern.exec(path);
    if (!m) throw new Error(`path: cannot parse "${path.slice(at)}" at position ${at + 1}`);
    if (m[1] !== undefined) steps.push({ key: m[1] });
    else if (m[2] !== undefined) steps.push({ index: Number(m[2]) });
    else if (m[3] !== undefined) steps.push({ key: JSON.parse(`"${m[3]}"`) });
    else if (m[4] !== undefined) steps.push({ key: m[4] });
    else if (m[5] !== undefined) steps.push({ filter: { field: m[5], op: m[6], value: JSON.parse(m[7]) } });
    else steps.push({ wildcard: true });
    at = stepPattern.lastIndex;
  }

  const compare = (a, op, b) =>
    op === "=="
      ? a === b
      : op === "!="
        ? a !== b
        : op === ">"
          ? a > b
          : op === "<"
            ? a < b
            : op === ">="
              ? a >= b
              : a <= b;
  const get = (value, dotted) =>
    dotted.split(".").reduce((v, k) => (v !== null && typeof v === "object" ? v[k] : undefined), value);

  // Once a wildcard or filter has fanned out, later steps apply to each element (projection).
  let current = data;
  let projected = false;
  const apply = (value, step) => {
    if (step.key !== undefined) {
      if (step.key === "length" && (Array.isArray(value) || typeof value === "string")) return value.length;
      return value !== null &&
        typeof value === "object" &&
        !Array.isArray(value) &&
        Object.hasOwn(value, step.key)
        ? value[step.key]
        : undefined;
    }
    if (step.index !== undefined) {
      if (!Array.isArray(value)) return undefined;
      return value[step.index < 0 ? value.length + step.index : step.index];
    }
    return undefined;
  };
  for (const step of steps) {
    if (step.wildcard || step.filter) {
      const source = projected ? current.flat() : current;
      const items = Array.isArray(source)
        ? source
        : source !== null && typeof source === "object"
          ? Object.values(source)
          : [];
      current = step.filter
        ? items.filter((item) => compare(get(item, step.filter.field), step.filter.op, step.filter.value))
        : items;
      projected = true;
    } else if (projected) {
      current = current.map((item) => apply(item, step)).filter((v) => v !== undefined);
    } else {
      current = apply(current, step);
      if (current === undefined) return { path, found: false, result: null };
    }
  }
  return { path, found: true, result: current };
}
