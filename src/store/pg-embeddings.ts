// Tool-text embeddings shared by every replica, keyed by embedder id and a hash of the text: a replica
// building its in-memory index takes the vectors another one already computed and embeds only the rest,
// storing them for the next. Queries never pass through here (Router's indexEmbedder), so a route costs
// no database round trip.
import { createHash } from "node:crypto";
import type pg from "pg";

interface IndexEmbedder {
  readonly id: string;
  readonly dimension: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

const hashOf = (text: string) => createHash("sha256").update(text).digest("base64url");

export function sharedEmbeddings(embedder: IndexEmbedder, pool: pg.Pool): IndexEmbedder {
  return {
    id: embedder.id,
    dimension: embedder.dimension,
    async embed(texts) {
      const hashes = texts.map(hashOf);
      const known = new Map<string, Float32Array>();
      try {
        const { rows } = await pool.query<{ text_hash: string; vector: number[] }>(
          "select text_hash, vector from switchboard_embeddings where embedder = $1 and text_hash = any($2)",
          [embedder.id, hashes],
        );
        for (const row of rows)
          if (row.vector.length === embedder.dimension)
            known.set(row.text_hash, Float32Array.from(row.vector));
      } catch {
        // The database is away: embed everything here, as a single replica would.
      }
      const missing = [...new Set(texts.filter((_, i) => !known.has(hashes[i] as string)))];
      if (missing.length > 0) {
        const vectors = await embedder.embed(missing);
        const missingHashes = missing.map(hashOf);
        missingHashes.forEach((hash, i) => {
          known.set(hash, vectors[i] as Float32Array);
        });
        await pool
          .query(
            `insert into switchboard_embeddings (embedder, text_hash, vector)
             select $1, h, v::float4[] from unnest($2::text[], $3::text[]) as t(h, v)
             on conflict do nothing`,
            // Array literals; a float32 printed by JS reads back as the same float4.
            [embedder.id, missingHashes, vectors.map((v) => `{${Array.from(v).join(",")}}`)],
          )
          .catch(() => undefined);
      }
      return hashes.map((hash) => known.get(hash) as Float32Array);
    },
  };
}
