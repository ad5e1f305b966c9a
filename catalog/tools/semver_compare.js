// biome-ignore lint/correctness/noUnusedVariables: the sandbox calls the tool function by its name
async function semver_compare(args) {
  // Semantic Versioning 2.0.0 precedence (https://semver.org/#spec-item-11); build metadata is ignored.
  const pattern =
    /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;
  const parse = (raw, field) => {
    if (typeof raw !== "string") throw new Error(`${field} must be a version string such as "1.4.2"`);
    const m = pattern.exec(raw.trim());
    if (!m) throw new Error(`${field}: "${raw}" is not a semantic version (MAJOR.MINOR.PATCH[-pre][+build])`);
    return {
      raw: raw.trim(),
      core: [Number(m[1]), Number(m[2]), Number(m[3])],
      pre: m[4] ? m[4].split(".") : [],
    };
  };
  const a = parse(args.a, "a");
  const b = parse(args.b, "b");
  const comparePre = (x, y) => {
    if (x.length === 0 || y.length === 0) return x.length === y.length ? 0 : x.length === 0 ? 1 : -1;
    for (let k = 0; k < Math.max(x.length, y.length); k++) {
      if (x[k] === undefined) return -1;
      if (y[k] === undefined) return 1;
      const xn = /^\d+$/.test(x[k]);
      const yn = /^\d+$/.test(y[k]);
      if (xn && yn && Number(x[k]) !== Number(y[k])) return Number(x[k]) < Number(y[k]) ? -1 : 1;
      if (xn !== yn) return xn ? -1 : 1;
      if (x[k] !== y[k]) return x[k] < y[k] ? -1 : 1;
    }
    return 0;
  };
  let comparison = 0;
  for (let k = 0; k < 3 && comparison === 0; k++) {
    if (a.core[k] !== b.core[k]) comparison = a.core[k] < b.core[k] ? -1 : 1;
  }
  if (comparison === 0) comparison = comparePre(a.pre, b.pre);
  const names = ["major", "minor", "patch"];
  const differing = names.find((_, k) => a.core[k] !== b.core[k]);
  const difference = differing ?? (comparePre(a.pre, b.pre) !== 0 ? "prerelease" : "none");
  const relation = comparison < 0 ? "<" : comparison > 0 ? ">" : "=";
  return {
    a: a.raw,
    b: b.raw,
    comparison,
    relation: `${a.raw} ${relation} ${b.raw}`,
    difference,
    newer: comparison === 0 ? null : comparison > 0 ? a.raw : b.raw,
    // Below 1.0.0 a minor bump is conventionally breaking too (semver item 4).
    breaking: difference === "major" || (difference === "minor" && a.core[0] === 0 && b.core[0] === 0),
  };
}
