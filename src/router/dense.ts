// The dense half: an hnswlib HNSW graph over unit vectors (cosine). Each entry is one text of a tool (its
// description, an example, a confirmed query); a tool's dense score is the best of its entries.
import hnswlib from "hnswlib-node";

export interface HnswParams {
  /** Graph degree. */
  m: number;
  efConstruction: number;
  /** Search breadth; hnswlib's default of 10 loses too much recall on a large catalog (bench/router.ts). */
  ef: number;
}

/**
 * The router fetches 32 entries, so ef 32 is what a route pays. A graph built with efConstruction 200 keeps
 * near-exact recall at that breadth, where a cheaper graph needs twice the breadth (and a slower search)
 * for the same recall; building costs more per insert, which is small next to embedding the text. The
 * figures behind the choice are in docs/performance.md.
 */
export const DEFAULT_HNSW: HnswParams = { m: 16, efConstruction: 200, ef: 32 };

export interface DenseHit {
  label: number;
  similarity: number;
}

export class DenseIndex {
  readonly dimension: number;
  readonly params: HnswParams;
  private readonly index: hnswlib.HierarchicalNSW;
  private live = 0;
  /** The search breadth last set on the native index, so a search makes no extra native call. */
  private ef: number;
  /**
   * hnswlib-node takes plain arrays only. Filling one kept array is far cheaper than `Array.from` of a
   * Float32Array on every search, and safe: hnswlib copies it before returning.
   */
  private readonly plain: number[];

  private constructor(dimension: number, params: HnswParams, index: hnswlib.HierarchicalNSW) {
    this.dimension = dimension;
    this.params = params;
    this.index = index;
    index.setEf(params.ef);
    this.ef = params.ef;
    this.plain = new Array<number>(dimension).fill(0);
  }

  static create(dimension: number, params: HnswParams, capacity: number): DenseIndex {
    const index = new hnswlib.HierarchicalNSW("cosine", dimension);
    index.initIndex({
      maxElements: Math.max(16, capacity),
      m: params.m,
      efConstruction: params.efConstruction,
      allowReplaceDeleted: true,
    });
    return new DenseIndex(dimension, params, index);
  }

  /** Reads a file whose checksum the caller has verified (hnswlib does not survive a corrupt file). */
  static async read(path: string, dimension: number, params: HnswParams, live: number): Promise<DenseIndex> {
    const index = new hnswlib.HierarchicalNSW("cosine", dimension);
    await index.readIndex(path, true);
    const dense = new DenseIndex(dimension, params, index);
    dense.live = live;
    return dense;
  }

  get size(): number {
    return this.live;
  }

  add(label: number, vector: Float32Array): void {
    // Reuses the slot of a deleted entry when there is one, so updates do not grow the index.
    const reuse = this.index.getCurrentCount() > this.live;
    if (!reuse && this.index.getCurrentCount() >= this.index.getMaxElements())
      this.index.resizeIndex(Math.ceil(this.index.getMaxElements() * 1.5));
    this.index.addPoint(this.asPlain(vector), label, reuse);
    this.live++;
  }

  remove(label: number): void {
    this.index.markDelete(label);
    this.live--;
  }

  /** The `k` nearest entries (cosine similarity), optionally only those `accept` lets through. */
  search(vector: Float32Array, k: number, accept?: (label: number) => boolean): DenseHit[] {
    const n = Math.min(k, this.live);
    if (n <= 0) return [];
    const ef = Math.max(this.params.ef, n);
    if (ef !== this.ef) {
      this.index.setEf(ef);
      this.ef = ef;
    }
    const { distances, neighbors } = accept
      ? this.index.searchKnn(this.asPlain(vector), n, accept)
      : this.index.searchKnn(this.asPlain(vector), n);
    return neighbors.map((label, i) => ({ label, similarity: 1 - (distances[i] ?? 1) }));
  }

  private asPlain(vector: Float32Array): number[] {
    const plain = this.plain;
    if (vector.length !== plain.length)
      throw new Error(`A vector of ${vector.length} dimensions for an index of ${plain.length}.`);
    for (let i = 0; i < plain.length; i++) plain[i] = vector[i] as number;
    return plain;
  }

  vector(label: number): Float32Array {
    return Float32Array.from(this.index.getPoint(label));
  }

  write(path: string): Promise<boolean> {
    return this.index.writeIndex(path);
  }
}
