// The --catalog/--data/--embedder/--model/--json options of the commands that work on a catalog's index
// (index, route, eval, calibrate, feedback), defaulting from the environment like `serve` and `mcp`.
import { z } from "zod";
import type { SwitchboardOptions } from "../app/index.ts";
import { type Env, envSchema, readEnv } from "../config/index.ts";
import { loadApp } from "./load.ts";

export const catalogFlags = {
  catalog: { type: "string" },
  data: { type: "string" },
  embedder: { type: "string" },
  model: { type: "string" },
  json: { type: "boolean" },
} as const;

export function catalogCommandOptions() {
  const env = readEnv();
  const kinds: readonly string[] = envSchema.shape.SWITCHBOARD_EMBEDDER.unwrap().options;
  return z.object({
    catalog: z.string().min(1).default(env.SWITCHBOARD_CATALOG),
    data: z.string().min(1).default(env.SWITCHBOARD_DATA),
    embedder: z
      .string()
      .default(env.SWITCHBOARD_EMBEDDER)
      .refine((k): k is Env["SWITCHBOARD_EMBEDDER"] => kinds.includes(k), {
        message: `unknown embedder; use ${kinds.join(" or ")}`,
      }),
    model: z.string().min(1).optional(),
    json: z.boolean().default(false),
  });
}

/**
 * The Switchboard configuration these options name (SWITCHBOARD_MODEL and SWITCHBOARD_DATABASE_URL as
 * `serve` reads them), so the command opens the index the service uses, in the store it uses.
 */
export async function indexConfig(options: {
  catalog: string;
  data: string;
  embedder: Env["SWITCHBOARD_EMBEDDER"];
  model?: string | undefined;
}): Promise<SwitchboardOptions> {
  const { configFrom } = await loadApp();
  const env = readEnv();
  const model = options.model ?? env.SWITCHBOARD_MODEL;
  return {
    // The service's whole configuration (SWITCHBOARD_DATABASE_URL names the store), these flags on top.
    ...configFrom(env, { catalog: options.catalog, data: options.data }),
    embedder: { kind: options.embedder, ...(model ? { model } : {}) },
  };
}
