// Generates schema/catalog.schema.json from the zod catalog schema, the single source of truth, so
// editors can check catalog files (`"$schema": "<path>/catalog.schema.json"` in a `{ "tools": [...] }`
// file) while they are written. `npm run schema` rewrites it; a test fails when it drifts.
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { catalogFileSchema } from "../src/catalog/index.ts";

export const CATALOG_SCHEMA_PATH = fileURLToPath(new URL("../schema/catalog.schema.json", import.meta.url));

export function catalogJsonSchemaText(): string {
  // "input": what a person writes, so fields that have defaults are optional.
  const schema = z.toJSONSchema(catalogFileSchema, { io: "input" });
  return `${JSON.stringify({ ...schema, title: "Switchboard tool catalog" }, null, 2)}\n`;
}

if (import.meta.main) {
  await writeFile(CATALOG_SCHEMA_PATH, catalogJsonSchemaText());
  process.stdout.write(`wrote ${CATALOG_SCHEMA_PATH}\n`);
}
