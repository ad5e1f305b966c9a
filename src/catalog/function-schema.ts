// Function parameters written with Python type names (the Gorilla/BFCL variant of OpenAI's function format:
// `dict`, `float`, `tuple`, `any`) turned into JSON Schema. Each change is reported, naming where it was,
// so that an importer's user sees what their definitions now say.

type JsonSchema = Record<string, unknown>;

/** Python (and a few Java/JavaScript) type names and their JSON Schema form. */
const TYPE_NAMES: Record<string, JsonSchema> = {
  dict: { type: "object" },
  float: { type: "number" },
  double: { type: "number" },
  int: { type: "integer" },
  long: { type: "integer" },
  short: { type: "integer" },
  byte: { type: "integer" },
  char: { type: "string" },
  str: { type: "string" },
  bool: { type: "boolean" },
  list: { type: "array" },
  tuple: { type: "array" },
  set: { type: "array", uniqueItems: true },
  hashmap: { type: "object" },
  none: { type: "null" },
  any: {},
};

const JSON_TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);

/** Keywords whose value is one schema, and those whose value maps names (or indexes) to schemas. */
const ONE_SCHEMA = ["items", "additionalProperties", "not", "contains", "propertyNames"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions"];
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];

function isRecord(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function convertType(node: JsonSchema, path: string, changes: string[]): void {
  const type = node.type;
  if (type === undefined) return;
  if (typeof type !== "string") return;
  if (JSON_TYPES.has(type)) return;
  const known = TYPE_NAMES[type.toLowerCase()];
  if (known === undefined) {
    delete node.type;
    changes.push(`${path}: the type "${type}" is neither JSON Schema nor a Python type; it was dropped`);
    return;
  }
  delete node.type;
  Object.assign(node, known);
  const became = "type" in known ? `"${String(known.type)}"` : "any value (no type)";
  changes.push(`${path}: the type "${type}" became ${became}`);
}

/** `required` entries that name no property make every call invalid: they are dropped. */
function dropUnknownRequired(node: JsonSchema, path: string, changes: string[]): void {
  if (!Array.isArray(node.required) || !isRecord(node.properties)) return;
  const properties = node.properties;
  const kept = node.required.filter((name) => typeof name === "string" && name in properties);
  if (kept.length === node.required.length) return;
  const dropped = node.required.filter((name) => !kept.includes(name));
  changes.push(
    `${path}.required: ${dropped.map((n) => JSON.stringify(n)).join(", ")} named no property; dropped`,
  );
  node.required = kept;
}

function walk(node: unknown, path: string, changes: string[]): void {
  if (!isRecord(node)) return;
  convertType(node, path, changes);
  dropUnknownRequired(node, path, changes);
  for (const key of ONE_SCHEMA) {
    const child = node[key];
    if (Array.isArray(child) && key === "items")
      for (const [i, c] of child.entries()) walk(c, `${path}.items.${i}`, changes);
    else walk(child, `${path}.${key}`, changes);
  }
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (isRecord(map))
      for (const [name, child] of Object.entries(map)) walk(child, `${path}.${key}.${name}`, changes);
  }
  for (const key of SCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list))
      for (const [i, child] of list.entries()) walk(child, `${path}.${key}.${i}`, changes);
  }
}

/**
 * A copy of `parameters` in JSON Schema, and the changes made (each naming its path under `root`). A
 * missing schema becomes an object that takes no arguments.
 */
export function functionParametersToJsonSchema(
  parameters: unknown,
  root: string,
): { schema: JsonSchema; changes: string[] } {
  const changes: string[] = [];
  if (parameters === undefined) return { schema: { type: "object", properties: {} }, changes };
  const schema = structuredClone(parameters) as JsonSchema;
  walk(schema, root, changes);
  if (schema.type === undefined && isRecord(schema.properties)) {
    schema.type = "object";
    changes.push(`${root}: had properties but no type; it is an object`);
  }
  return { schema, changes };
}
