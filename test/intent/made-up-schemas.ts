// Builders for the schemas of the catalogs the filler's tests make up.

export const num = (description: string) => ({ type: "number", description });
export const str = (description: string) => ({ type: "string", description });
export const schema = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties,
  required,
});
