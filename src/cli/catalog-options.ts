import { readEnv } from "../config/index.ts";
import { catalogOptionsSchema } from "../router/index.ts";

/** The --catalog/--data/--embedder options every routing command takes, defaulting from the environment. */
export function catalogCommandOptions() {
  const env = readEnv();
  return catalogOptionsSchema({
    catalog: env.SWITCHBOARD_CATALOG,
    data: env.SWITCHBOARD_DATA,
    embedder: env.SWITCHBOARD_EMBEDDER,
  });
}
