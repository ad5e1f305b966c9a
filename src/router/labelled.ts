// Query files (JSON lines): `{ "query": string, "tools"?: [names] }`. `route --queries` needs only the
// query; `eval`, `calibrate` and `--examples` need the tools too (an empty list: no tool should be chosen).
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { RouterError } from "./errors.ts";

const lineSchema = z.looseObject({
  query: z.string().refine((q) => q.trim().length > 0, "must not be empty"),
  tools: z.array(z.string().min(1)).optional(),
});

export interface QueryLine {
  query: string;
  tools?: string[];
}

export async function readQueryLines(path: string, needTools: boolean): Promise<QueryLine[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new RouterError(`cannot read queries file ${path}: ${(error as Error).message}`);
  }
  const out: QueryLine[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]?.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new RouterError(`${path}:${i + 1}: not valid JSON (${(error as Error).message})`);
    }
    const parsed = lineSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RouterError(`${path}:${i + 1}: ${issue?.path.join(".") || "line"} ${issue?.message}`);
    }
    if (needTools && parsed.data.tools === undefined)
      throw new RouterError(`${path}:${i + 1}: needs a "tools" list (empty when no tool should be chosen)`);
    out.push({ query: parsed.data.query, ...(parsed.data.tools ? { tools: parsed.data.tools } : {}) });
  }
  if (out.length === 0) throw new RouterError(`${path} holds no queries`);
  return out;
}
