// Every dense entry's vector, by label, in one block of WebAssembly memory, with a SIMD inner product against
// one query at a time. A route computes exact similarities for the tools only BM25 found, for the no-tool
// examples and for calibration; as one Float32Array per entry on the heap each cost a Map lookup, a cache
// miss and a JavaScript loop V8 does not vectorise (bench/router.ts measures it). hnswlib keeps its own
// copy but reads one vector per native call.
import { RouterError } from "./errors.ts";
import { SIMD_WASM } from "./simd.ts";

// @types/node declares no WebAssembly globals (TypeScript keeps them in its DOM library); what this file uses:
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
};

const compiled = new WebAssembly.Module(SIMD_WASM);
const PAGE = 65536;
/** WebAssembly's 32-bit memory: 4 GiB. */
const MAX_PAGES = 65536;
/** Floats the kernel takes per step; rows are padded with zeros to a multiple of it. */
const LANES = 8;

interface Kernel {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  dot(a: number, b: number, n: number): number;
  dots(query: number, rows: number, n: number, count: number, out: number): void;
}

export interface ExactHit {
  label: number;
  similarity: number;
}

export class VectorStore {
  readonly dimension: number;
  /** Floats per row: the dimension rounded up to the kernel's step. */
  private readonly stride: number;
  private readonly kernel: Kernel;
  private floats: Float32Array;
  /**
   * label → row, 0 for none (row 0 holds the query). An array rather than a Map: labels are small integers
   * handed out in order, and a Map lookup misses the CPU cache on a large catalog.
   */
  private rowOf = new Int32Array(1024);
  /** row → label, -1 for a free row; the inverse of rowOf, for exact search. */
  private labelOf = new Int32Array(1024).fill(-1);
  private count = 0;
  private readonly freeRows: number[] = [];
  private nextRow = 1;

  constructor(dimension: number) {
    this.dimension = dimension;
    this.stride = Math.ceil(dimension / LANES) * LANES;
    this.kernel = new WebAssembly.Instance(compiled).exports as unknown as Kernel;
    this.floats = new Float32Array(this.kernel.memory.buffer);
  }

  get size(): number {
    return this.count;
  }

  has(label: number): boolean {
    return this.row(label) > 0;
  }

  *labels(): IterableIterator<number> {
    for (let label = 0; label < this.rowOf.length; label++)
      if ((this.rowOf[label] as number) > 0) yield label;
  }

  set(label: number, vector: Float32Array): void {
    this.check(vector);
    if (!Number.isInteger(label) || label < 0)
      throw new RouterError(`a vector label must be a whole number ≥ 0, not ${label}`);
    let row = this.row(label);
    if (row === 0) {
      row = this.freeRows.pop() ?? this.nextRow++;
      this.reserve(row + 1);
      if (label >= this.rowOf.length) {
        const grown = new Int32Array(Math.max(label + 1, this.rowOf.length * 2));
        grown.set(this.rowOf);
        this.rowOf = grown;
      }
      this.rowOf[label] = row;
      if (row >= this.labelOf.length) {
        const grown = new Int32Array(Math.max(row + 1, this.labelOf.length * 2)).fill(-1);
        grown.set(this.labelOf);
        this.labelOf = grown;
      }
      this.labelOf[row] = label;
      this.count++;
    }
    this.floats.set(vector, row * this.stride);
  }

  delete(label: number): void {
    const row = this.row(label);
    if (row === 0) return;
    this.rowOf[label] = 0;
    this.labelOf[row] = -1;
    this.count--;
    this.freeRows.push(row);
  }

  /** A copy of a label's vector, safe to keep. */
  get(label: number): Float32Array | undefined {
    return this.view(label)?.slice();
  }

  /**
   * The label's vector where it lies: no copy, but only valid until the next `set` (memory growth detaches
   * it), so for reading at once, never for keeping.
   */
  view(label: number): Float32Array | undefined {
    const row = this.row(label);
    if (row === 0) return undefined;
    return this.floats.subarray(row * this.stride, row * this.stride + this.dimension);
  }

  /** Sets the vector that `similarity` compares with, until the next call. */
  query(vector: Float32Array): void {
    this.check(vector);
    this.floats.set(vector, 0);
  }

  /** Inner product of the query and the label's vector (cosine for unit vectors); -1 for an unknown label. */
  similarity(label: number): number {
    const row = this.row(label);
    if (row === 0) return -1;
    return this.kernel.dot(0, row * this.stride * 4, this.stride);
  }

  /**
   * The `k` labels most similar to the query (set by `query`), best first, optionally only those `accept`
   * lets through: every row's inner product in one WebAssembly call, then a selection of the best.
   */
  search(k: number, accept?: (label: number) => boolean): ExactHit[] {
    const rows = this.nextRow - 1;
    if (rows <= 0 || k <= 0) return [];
    // The products are written after the last row, in memory reserved for them.
    const outRow = this.nextRow;
    this.reserve(outRow + Math.ceil(rows / this.stride) + 1);
    const outFloat = outRow * this.stride;
    this.kernel.dots(0, this.stride * 4, this.stride, rows, outFloat * 4);
    const floats = this.floats;
    const labelOf = this.labelOf;
    const bestLabels: number[] = [];
    const bestScores: number[] = [];
    for (let row = 1; row <= rows; row++) {
      const label = labelOf[row] as number;
      if (label < 0) continue;
      const score = floats[outFloat + row - 1] as number;
      const full = bestScores.length === k;
      if (full && score <= (bestScores[k - 1] as number)) continue;
      if (accept && !accept(label)) continue;
      // Insertion into the short sorted list: most rows fall below its last entry and stop above.
      let at = full ? k - 1 : bestScores.length;
      while (at > 0 && (bestScores[at - 1] as number) < score) {
        bestScores[at] = bestScores[at - 1] as number;
        bestLabels[at] = bestLabels[at - 1] as number;
        at--;
      }
      bestScores[at] = score;
      bestLabels[at] = label;
    }
    return bestLabels.map((label, i) => ({ label, similarity: bestScores[i] as number }));
  }

  private row(label: number): number {
    return this.rowOf[label] ?? 0;
  }

  private check(vector: Float32Array): void {
    if (vector.length !== this.dimension)
      throw new RouterError(`a vector of ${vector.length} dimensions for a store of ${this.dimension}`);
  }

  /** Grows the memory to hold `rows` rows, doubling so that building a large index grows it a few times. */
  private reserve(rows: number): void {
    const needed = rows * this.stride * 4;
    const memory = this.kernel.memory;
    if (needed <= memory.buffer.byteLength) return;
    const pages = Math.min(MAX_PAGES, Math.ceil(Math.max(needed, memory.buffer.byteLength * 2) / PAGE));
    if (pages * PAGE < needed)
      throw new RouterError(
        `cannot hold ${rows} vectors of ${this.dimension} dimensions in one index (WebAssembly memory stops at 4 GiB)`,
      );
    memory.grow(pages - memory.buffer.byteLength / PAGE);
    this.floats = new Float32Array(memory.buffer);
  }
}
