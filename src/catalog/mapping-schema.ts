// The declarative mapping from one provider's answer to the tool's canonical output (a binding's `map`).
// A small declarative mapping, not an expression language such as JSONata: JSONata evaluates
// asynchronously and cannot be interrupted synchronously, so bounding its time would need another process
// per answer, while this mapping does one bounded walk over the answer and can be checked statically
// against the outputSchema by `catalog validate`.
import { z } from "zod";

export const CONVERSIONS = {
  celsius_to_fahrenheit: (v: number) => (v * 9) / 5 + 32,
  fahrenheit_to_celsius: (v: number) => ((v - 32) * 5) / 9,
  kelvin_to_celsius: (v: number) => v - 273.15,
  mps_to_kmh: (v: number) => v * 3.6,
  kmh_to_mps: (v: number) => v / 3.6,
  kmh_to_mph: (v: number) => v / 1.609344,
  mph_to_kmh: (v: number) => v * 1.609344,
  mm_to_inch: (v: number) => v / 25.4,
  inch_to_mm: (v: number) => v * 25.4,
} as const;

export type ConversionName = keyof typeof CONVERSIONS;

/**
 * How one output field is made: where it comes from (exactly one of path, const, object, switch) and, for a
 * path, what is done to the value. (No string shorthand for a path: a union would blur zod's messages about
 * nested mistakes into "Invalid input".)
 */
export interface FieldMap {
  path?: string;
  const?: unknown;
  object?: Record<string, FieldMap>;
  switch?: string;
  cases?: Record<string, FieldMap>;
  otherwise?: FieldMap;
  each?: FieldMap;
  lookup?: Record<string, unknown>;
  default?: unknown;
  as?: "number" | "integer" | "string" | "boolean";
  text?: "lower" | "upper" | "trim";
  convert?: ConversionName;
  scale?: number;
  offset?: number;
  round?: number;
}

export type OutputMap = Record<string, FieldMap>;

const PATH_DESCRIPTION =
  'Dot path into the answer ("current.temp_c", "items.0.name"); "$args.NAME" reads an argument, "$" is the value itself';

const SOURCES = ["path", "const", "object", "switch"] as const;
const PATH_ONLY = ["each", "lookup", "default", "as", "text", "convert", "scale", "offset", "round"] as const;

export const fieldMapSchema: z.ZodType<FieldMap> = z
  .strictObject({
    path: z.string().min(1).optional().meta({ description: PATH_DESCRIPTION }),
    const: z.unknown().optional().meta({ description: "A constant value" }),
    object: z
      .record(
        z.string(),
        z.lazy(() => fieldMapSchema),
      )
      .optional()
      .meta({ description: "A nested object, one mapping per field" }),
    switch: z.string().min(1).optional().meta({ description: `Path whose value picks one of \`cases\`` }),
    cases: z
      .record(
        z.string(),
        z.lazy(() => fieldMapSchema),
      )
      .optional(),
    otherwise: z
      .lazy(() => fieldMapSchema)
      .optional()
      .meta({ description: "The mapping when no case matches" }),
    each: z
      .lazy(() => fieldMapSchema)
      .optional()
      .meta({
        description: "Maps every item of the array at `path` (paths inside are relative to the item)",
      }),
    lookup: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "Replaces the value by the entry it names (a code → a description)" }),
    default: z.unknown().optional().meta({ description: "Used when the path is absent or null" }),
    as: z.enum(["number", "integer", "string", "boolean"]).optional(),
    text: z.enum(["lower", "upper", "trim"]).optional(),
    convert: z
      .enum(Object.keys(CONVERSIONS) as [ConversionName, ...ConversionName[]])
      .optional()
      .meta({ description: "A unit conversion" }),
    scale: z.number().optional().meta({ description: "Multiplies a number" }),
    offset: z.number().optional().meta({ description: "Adds to a number (after scale)" }),
    round: z.number().int().min(0).max(10).optional().meta({ description: "Decimal places kept" }),
  })
  .superRefine((spec, ctx) => {
    const sources = SOURCES.filter((key) => key in spec);
    if (sources.length !== 1)
      ctx.addIssue({
        code: "custom",
        message: `a field mapping needs exactly one of ${SOURCES.join(", ")}${sources.length ? ` (it has ${sources.join(", ")})` : ""}`,
      });
    if (!("path" in spec))
      for (const key of PATH_ONLY)
        if (key in spec)
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `only a mapping with "path" may use "${key}"`,
          });
    if ("switch" in spec && !spec.cases)
      ctx.addIssue({ code: "custom", path: ["cases"], message: 'a "switch" needs "cases"' });
    for (const key of ["cases", "otherwise"] as const)
      if (key in spec && !("switch" in spec))
        ctx.addIssue({ code: "custom", path: [key], message: `"${key}" belongs to a "switch"` });
  })
  .meta({ id: "FieldMap", description: "How one output field is made from the provider's answer" });

export const outputMapSchema = z.record(z.string(), fieldMapSchema).meta({
  description:
    "Maps this provider's answer to the tool's canonical output (its outputSchema): one entry per output field",
});
