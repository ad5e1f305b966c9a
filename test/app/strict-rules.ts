// OpenAI strict mode's documented rules for a function's parameters
// (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas), as a checker that names
// every breach by its path. Written from the guide, apart from the converter it checks.

type JsonSchema = Record<string, unknown>;

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const ALLOWED = new Set([
  "type",
  "description",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
  "pattern",
  "format",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "maxItems",
]);
const FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);
const MAX_PROPERTIES = 5000;
const MAX_DEPTH = 10;
const MAX_ENUM_VALUES = 1000;
const MAX_STRING_TOTAL = 120_000;

const isSchema = (value: unknown): value is JsonSchema =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Every breach of strict mode's rules in a function's parameters schema, as "path: rule". */
export function strictBreaches(parameters: JsonSchema): string[] {
  const breaches: string[] = [];
  const totals = { properties: 0, enumValues: 0, strings: 0 };
  if (parameters.type !== "object") breaches.push("(root): the root must be an object");
  if ("anyOf" in parameters) breaches.push("(root): the root must not be anyOf");
  const visit = (schema: unknown, path: string, depth: number): void => {
    if (!isSchema(schema)) return void breaches.push(`${path}: not a schema`);
    for (const key of Object.keys(schema))
      if (!ALLOWED.has(key)) breaches.push(`${path}: keyword "${key}" is not supported`);
    if (typeof schema.format === "string" && !FORMATS.has(schema.format))
      breaches.push(`${path}: format "${schema.format}" is not supported`);
    if (typeof schema.$ref === "string") return;
    if (Array.isArray(schema.anyOf)) {
      for (const [i, branch] of schema.anyOf.entries()) visit(branch, `${path}.anyOf.${i}`, depth);
      return;
    }
    const types =
      typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
    if (types.length === 0) breaches.push(`${path}: no type`);
    for (const type of types) if (!TYPES.has(type)) breaches.push(`${path}: type "${type}" is not supported`);
    if (types.filter((t) => t !== "null").length > 1)
      breaches.push(`${path}: a type union of ${types.join(", ")} (only one type, or one and "null")`);
    if (Array.isArray(schema.enum)) {
      totals.enumValues += schema.enum.length;
      for (const value of schema.enum) if (typeof value === "string") totals.strings += value.length;
    }
    if (types.includes("object")) {
      if (depth >= MAX_DEPTH) breaches.push(`${path}: nested deeper than ${MAX_DEPTH} levels`);
      if (schema.additionalProperties !== false) breaches.push(`${path}: additionalProperties is not false`);
      const properties = isSchema(schema.properties) ? schema.properties : undefined;
      if (!properties) breaches.push(`${path}: an object without properties`);
      const keys = Object.keys(properties ?? {});
      totals.properties += keys.length;
      for (const key of keys) totals.strings += key.length;
      const required = Array.isArray(schema.required) ? schema.required : [];
      const missing = keys.filter((key) => !required.includes(key));
      if (missing.length > 0) breaches.push(`${path}: properties not required: ${missing.join(", ")}`);
      for (const key of keys) visit(properties?.[key], `${path}.${key}`, depth + 1);
    }
    if (types.includes("array")) {
      if (!isSchema(schema.items)) breaches.push(`${path}: an array without one items schema`);
      else visit(schema.items, `${path}[]`, depth + 1);
    }
  };
  visit(parameters, "(root)", 0);
  for (const group of ["$defs", "definitions"])
    if (isSchema(parameters[group]))
      for (const [name, def] of Object.entries(parameters[group])) visit(def, `${group}.${name}`, 1);
  if (totals.properties > MAX_PROPERTIES) breaches.push(`(root): more than ${MAX_PROPERTIES} properties`);
  if (totals.enumValues > MAX_ENUM_VALUES) breaches.push(`(root): more than ${MAX_ENUM_VALUES} enum values`);
  if (totals.strings > MAX_STRING_TOTAL)
    breaches.push(`(root): names and enum values over ${MAX_STRING_TOTAL} characters`);
  return breaches;
}
