// Checks that a tool's inputSchema/outputSchema is a valid JSON Schema and validates values against it.
// MCP's current specification defaults to draft 2020-12, but many servers still declare draft-07, so both
// meta-schemas are loaded.
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { canonicalJson } from "./hash.ts";
import { DATA_KEYWORDS, linearRegExp } from "./regex.ts";

const require = createRequire(import.meta.url);
const draft07 = require("ajv/dist/refs/json-schema-draft-07.json");

// ajv-formats is CommonJS: Node's ESM default import is the plugin function, TypeScript's is the module.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

// `pattern` runs on a linear-time engine (regex.ts): a tool's schema must not be able to stall the service.
const ajv = new Ajv2020({
  strict: false,
  allErrors: true,
  validateSchema: true,
  code: { regExp: linearRegExp, optimize: false },
});
ajv.addMetaSchema(draft07);
addFormats(ajv);

// ajv compares the items of a `uniqueItems` array pairwise with a deep equality, O(n²): 5,000 objects took
// 3.6 s and 20,000 held the event loop for about a minute. Compiled schemas use this keyword instead, which
// compares the items' canonical JSON in a set: the same equality (JSON values, key order ignored), linear.
const UNIQUE = "x-switchboard-unique-items";
type Validate = ((enabled: boolean, data: unknown[]) => boolean) & { errors?: Partial<ErrorObject>[] };
const uniqueByValue: Validate = (enabled, data) => {
  uniqueByValue.errors = [];
  if (!enabled) return true;
  const seen = new Map<string, number>();
  for (const [i, item] of data.entries()) {
    const key = canonicalJson(item);
    const j = seen.get(key);
    if (j !== undefined) {
      uniqueByValue.errors = [
        {
          keyword: "uniqueItems",
          params: { i, j },
          message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
        },
      ];
      return false;
    }
    seen.set(key, i);
  }
  return true;
};
ajv.addKeyword({
  keyword: UNIQUE,
  type: "array",
  schemaType: "boolean",
  errors: true,
  validate: uniqueByValue,
});

/** A copy of the schema whose `uniqueItems` run as the linear keyword above. */
function withLinearUniqueItems(node: unknown): unknown {
  if (node === null || typeof node !== "object") return node;
  if (Array.isArray(node)) return node.map(withLinearUniqueItems);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "uniqueItems" && typeof value === "boolean") out[UNIQUE] = value;
    else out[key] = DATA_KEYWORDS.has(key) ? value : withLinearUniqueItems(value);
  }
  return out;
}

export interface SchemaIssue {
  /** JSON Pointer-like dot path inside the checked value, "" for the root. */
  path: string;
  message: string;
}

const compiled = new WeakMap<object, ValidateFunction>();

function pointerToPath(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .join(".");
}

function describe(error: ErrorObject): SchemaIssue {
  let path = pointerToPath(error.instancePath);
  if (error.keyword === "required") {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    path = path ? `${path}.${missing}` : missing;
    return { path, message: "is required" };
  }
  if (error.keyword === "additionalProperties") {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    path = path ? `${path}.${extra}` : extra;
    return { path, message: "is not an allowed property" };
  }
  return { path, message: error.message ?? error.keyword };
}

/** Problems with the schema itself (not with a value); empty when it is a usable JSON Schema. */
export function checkJsonSchema(schema: object): SchemaIssue[] {
  const valid = ajv.validateSchema(schema);
  // The meta-schema reports one mistake several times (enum, type, anyOf): keep the first per location.
  if (!valid)
    return [
      ...new Map(
        (ajv.errors ?? [])
          .map(describe)
          .reverse()
          .map((i) => [i.path, i]),
      ).values(),
    ].reverse();
  try {
    validatorFor(schema);
    return [];
  } catch (error) {
    return [{ path: "", message: (error as Error).message }];
  }
}

function validatorFor(schema: object): ValidateFunction {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const validate = ajv.compile(withLinearUniqueItems(schema) as object);
  compiled.set(schema, validate);
  return validate;
}

/** A compiled check: undefined for a valid value (allocating nothing), else one issue per failed constraint. */
export type SchemaCheck = (value: unknown) => SchemaIssue[] | undefined;

/** The check for one schema, compiled once, for callers that check many values against it. */
export function schemaCheck(schema: object): SchemaCheck {
  const validate = validatorFor(schema);
  return (value) => (validate(value) ? undefined : issuesOf(validate.errors ?? []));
}

/** Validates a value against a JSON Schema; returns one issue per failed constraint, with its path. */
export function validateAgainstSchema(schema: object, value: unknown): SchemaIssue[] {
  const validate = validatorFor(schema);
  return validate(value) ? [] : issuesOf(validate.errors ?? []);
}

/** At most this many issues are named: 60,000 unknown keys made a 3.4 MB answer and a second of work. */
export const MAX_SCHEMA_ISSUES = 20;

function issuesOf(errors: ErrorObject[]): SchemaIssue[] {
  const issues = errors.slice(0, MAX_SCHEMA_ISSUES).map(describe);
  if (errors.length > MAX_SCHEMA_ISSUES)
    issues.push({ path: "", message: `and ${errors.length - MAX_SCHEMA_ISSUES} more problems` });
  return issues;
}
