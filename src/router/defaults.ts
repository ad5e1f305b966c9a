// Calibrations shipped with Switchboard, for when the data folder has none for a catalog: one fitted on the
// bundled catalog's labelled queries, and a generic one per embedder (fitted on a public tool-retrieval
// development set) for any other catalog. `switchboard calibrate` replaces either with a fit for the
// catalog at hand.
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Tool } from "../catalog/index.ts";
import { type Calibration, calibrationSchema } from "./calibration.ts";
import { forCatalog } from "./catalog-profile.ts";

const shippedSchema = z.array(
  z.object({
    /** Tool names of the catalog it was fitted on; absent for the generic default. */
    tools: z.array(z.string()).optional(),
    calibration: calibrationSchema,
  }),
);

const shipped = shippedSchema.parse(
  JSON.parse(readFileSync(new URL("./defaults/calibrations.json", import.meta.url), "utf8")),
);

/** A catalog counts as the one a calibration was fitted on when they share this much of their tool names. */
const SAME_CATALOG_OVERLAP = 0.8;

export function defaultCalibration(embedderId: string, tools: readonly Tool[]): Calibration {
  const names = new Set(tools.map((t) => t.name));
  const forEmbedder = shipped.filter((s) => s.calibration.embedderId === embedderId);
  const same = forEmbedder.find((s) => {
    if (!s.tools) return false;
    const shared = s.tools.filter((n) => names.has(n)).length;
    return shared / Math.max(s.tools.length, names.size) >= SAME_CATALOG_OVERLAP;
  });
  if (same) return same.calibration;
  const generic = forEmbedder.find((s) => !s.tools);
  if (generic) return forCatalog(generic.calibration, tools);
  return {
    version: 1,
    embedderId,
    lexicalWeight: 0.5,
    subwordShare: 0.3,
    rejectWeight: 0,
    threshold: 0.3,
    tierConfidence: null,
    source: `not calibrated for embedder ${embedderId}: run "switchboard calibrate" with labelled queries`,
    noToolQueries: [],
  };
}
