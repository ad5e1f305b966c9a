// Reads the weights of a tfjs graph model (model.json and its binary shards) into named typed arrays,
// following the tfjs weights-manifest format: each group's shards are one buffer, weights laid out in order.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { EmbedError } from "../errors.ts";

const manifestSchema = z.object({
  weightsManifest: z.array(
    z.object({
      paths: z.array(z.string()),
      weights: z.array(
        // Strict: a quantized weight has a "quantization" key, which this reader does not decode.
        z.strictObject({
          name: z.string(),
          shape: z.array(z.number().int().nonnegative()),
          dtype: z.enum(["float32", "int32"]),
        }),
      ),
    }),
  ),
});

export interface Weight {
  shape: number[];
  values: Float32Array | Int32Array;
}

export async function readTfjsWeights(folder: string): Promise<Map<string, Weight>> {
  const file = join(folder, "model.json");
  const parsed = manifestSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
  if (!parsed.success)
    throw new EmbedError(`${file}: not a tfjs model with float32/int32 weights: ${parsed.error.message}`);
  const weights = new Map<string, Weight>();
  for (const group of parsed.data.weightsManifest) {
    const shards = await Promise.all(group.paths.map((path) => readFile(join(folder, path))));
    const bytes = Buffer.concat(shards);
    let offset = 0;
    for (const { name, shape, dtype } of group.weights) {
      const count = shape.reduce((product, size) => product * size, 1);
      if (offset + count * 4 > bytes.length)
        throw new EmbedError(`${file}: weight ${name} runs past the end of its shards`);
      // Copied out so that each array is aligned and owns its memory.
      const slice = bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + count * 4);
      weights.set(name, {
        shape,
        values: dtype === "float32" ? new Float32Array(slice) : new Int32Array(slice),
      });
      offset += count * 4;
    }
  }
  return weights;
}
