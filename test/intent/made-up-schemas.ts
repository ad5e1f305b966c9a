// Builders for the schemas of the catalogs the filler's tests make up.

export const num = (description: string) => ({ type: "number", description });
export const str = (description: string) => ({ type: "string", description });
export const schema = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties,
  required,
});

/** A unit converter: a quantity, the unit it is in and the unit wanted. */
export const converter = schema(
  { quantity: num("how much"), source_unit: str("the unit it is in"), target_unit: str("the unit wanted") },
  ["quantity", "source_unit", "target_unit"],
);
