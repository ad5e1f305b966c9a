// Character-trigram similarity between a query and a tool's own words (name, title, description, tags).
// Word-level BM25 misses what differs inside a word: "astrological" against a catalog's "strology",
// "financial" against "finance", "predictions" against "predict". Trigrams of the padded words share most
// of their pieces there. Calibration decides its share per catalog and may turn it off (share 0) where
// whole words already decide; docs/performance.md has the gains it was kept for.
//
// Hand-written: it scores only the few dozen candidates a route already has (a trigram index over every
// tool would touch most of a large catalog per query), which no search library offers, and it is a tf-idf
// cosine over at most 38³ fixed gram ids, a few dozen lines.
import { bm25Idf } from "./lexical.ts";
import { nameWords, STOP_WORDS } from "./text.ts";

/** '<' and '>' pad a word; nameWords leaves only a-z and 0-9 inside it. */
const SYMBOLS = 38;
const GRAM_COUNT = SYMBOLS ** 3;
/** A gram's count per text is kept in the low byte of its entry. */
const COUNT_BITS = 8;
const MAX_COUNT = (1 << COUNT_BITS) - 1;

function symbol(code: number): number {
  if (code === 60) return 0; // <
  if (code === 62) return 1; // >
  if (code >= 97) return code - 97 + 2; // a-z
  return code - 48 + 28; // 0-9
}

/**
 * Scratch space of `trigrams`, reused by every call (it runs once per query): each gram's count so far, and
 * the ids seen, in order. A Map per call was a tenth of a route's allocations.
 */
const gramCounts = new Uint8Array(GRAM_COUNT);
let gramsSeen = new Int32Array(1024);

/** Each gram id of the text's words with its count, packed as id << 8 | count. */
export function trigrams(text: string): Uint32Array {
  let seen = 0;
  for (const word of nameWords(text)) {
    if (STOP_WORDS.has(word)) continue;
    const padded = `<${word}>`;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const id =
        (symbol(padded.charCodeAt(i)) * SYMBOLS + symbol(padded.charCodeAt(i + 1))) * SYMBOLS +
        symbol(padded.charCodeAt(i + 2));
      const count = gramCounts[id] as number;
      if (count === 0) {
        if (seen === gramsSeen.length) {
          const grown = new Int32Array(seen * 2);
          grown.set(gramsSeen);
          gramsSeen = grown;
        }
        gramsSeen[seen++] = id;
      }
      if (count < MAX_COUNT) gramCounts[id] = count + 1;
    }
  }
  const packed = new Uint32Array(seen);
  for (let i = 0; i < seen; i++) {
    const id = gramsSeen[i] as number;
    packed[i] = (id << COUNT_BITS) | (gramCounts[id] as number);
    gramCounts[id] = 0;
  }
  // By gram id, so a document's reads of the per-gram arrays move forward through memory.
  return packed.sort();
}

/** Sublinear term frequency by count, so a gram repeated across a long text does not drown the rest. */
const TERM_FREQUENCY = Float32Array.from({ length: MAX_COUNT + 1 }, (_, count) => 1 + Math.log(count));

/**
 * Every document's packed grams in one growing array, a slice per document. One small typed array per
 * document would each carry an ArrayBuffer the garbage collector tracks, which slows every route on a
 * large catalog.
 */
export class SubwordIndex {
  private pool = new Uint32Array(1 << 16);
  /** Entries of `pool` written so far, and those still belonging to a document. */
  private used = 0;
  private live = 0;
  /** Per document (the router's tool number): where its slice starts, and its length (-1: no document). */
  private start = new Int32Array(0);
  private length = new Int32Array(0);
  private readonly documentFrequency = new Int32Array(GRAM_COUNT);
  /** Float32, like `queryWeight`: half the cache footprint for the scattered reads of every similarity. */
  private readonly idf = new Float32Array(GRAM_COUNT);
  private documentCount = 0;
  /** Whether the catalog changed since `idf` (and `norms`) were computed. */
  private idfStale = true;
  /**
   * During `similarities`, the query's tf-idf weight times the IDF by gram id (zero elsewhere): a document's
   * dot product then reads one array per gram.
   */
  private readonly queryWeight = new Float32Array(GRAM_COUNT);
  /** Each document's tf-idf vector length under the current IDF. */
  private norms = new Float64Array(0);

  upsert(doc: number, text: string): void {
    this.remove(doc);
    const grams = trigrams(text);
    this.reserve(doc, grams.length);
    this.pool.set(grams, this.used);
    this.start[doc] = this.used;
    this.length[doc] = grams.length;
    this.used += grams.length;
    this.live += grams.length;
    for (const entry of grams) this.count(entry >>> COUNT_BITS, 1);
    this.documentCount++;
    this.idfStale = true;
  }

  remove(doc: number): void {
    const length = this.length[doc] ?? -1;
    if (length < 0) return;
    const from = this.start[doc] as number;
    for (let i = from; i < from + length; i++) this.count((this.pool[i] as number) >>> COUNT_BITS, -1);
    this.length[doc] = -1;
    this.live -= length;
    this.documentCount--;
    this.idfStale = true;
  }

  /**
   * Cosine of the query's and each document's tf-idf vectors, written into `out` by document; documents
   * already in `out` keep their score. One query against many documents, so the query's weights are spread
   * out once, then each document reads its own grams.
   */
  similarities(query: Uint32Array, docs: Iterable<number>, out: Map<number, number>): void {
    this.refreshIdf();
    const { idf, queryWeight, pool } = this;
    let queryNorm = 0;
    for (const entry of query) {
      const id = entry >>> COUNT_BITS;
      const w = (TERM_FREQUENCY[entry & MAX_COUNT] as number) * (idf[id] as number);
      queryWeight[id] = w * (idf[id] as number);
      queryNorm += w * w;
    }
    queryNorm = Math.sqrt(queryNorm);
    for (const doc of docs) {
      if (out.has(doc)) continue;
      const from = this.start[doc] ?? 0;
      const to = from + (this.length[doc] ?? -1);
      let dot = 0;
      for (let i = from; i < to; i++) {
        const entry = pool[i] as number;
        dot += (TERM_FREQUENCY[entry & MAX_COUNT] as number) * (queryWeight[entry >>> COUNT_BITS] as number);
      }
      out.set(doc, dot > 0 ? dot / (queryNorm * (this.norms[doc] as number)) : 0);
    }
    for (const entry of query) queryWeight[entry >>> COUNT_BITS] = 0;
  }

  /** Room for document `doc` and `count` more pool entries: grows the arrays, or first drops dead slices. */
  private reserve(doc: number, count: number): void {
    if (doc >= this.length.length) {
      const size = Math.max(1024, this.length.length * 2, doc + 1);
      const grow = <T extends Int32Array | Float64Array>(old: T, fresh: T, fill: number): T => {
        fresh.fill(fill);
        fresh.set(old);
        return fresh;
      };
      this.start = grow(this.start, new Int32Array(size), 0);
      this.length = grow(this.length, new Int32Array(size), -1);
      this.norms = grow(this.norms, new Float64Array(size), 0);
    }
    if (this.used + count <= this.pool.length) return;
    // Replaced and removed documents leave dead slices: copy the live ones into a pool with room to spare.
    const pool = new Uint32Array(Math.max(this.pool.length, 2 * (this.live + count)));
    let used = 0;
    for (let d = 0; d < this.length.length; d++) {
      const length = this.length[d] as number;
      if (length < 0) continue;
      const from = this.start[d] as number;
      pool.set(this.pool.subarray(from, from + length), used);
      this.start[d] = used;
      used += length;
    }
    this.pool = pool;
    this.used = used;
  }

  private count(id: number, change: number): void {
    this.documentFrequency[id] = (this.documentFrequency[id] as number) + change;
  }

  /** BM25's IDF for every gram; recomputed only after the catalog changed. */
  private refreshIdf(): void {
    if (!this.idfStale) return;
    const n = this.documentCount;
    const { documentFrequency, idf } = this;
    for (let id = 0; id < GRAM_COUNT; id++) {
      const df = documentFrequency[id] as number;
      idf[id] = df === 0 ? 0 : bm25Idf(n, df);
    }
    // Every document's vector length under the new IDF: one pass over the pool (about 15M grams at 100k
    // tools), paid by the first route after a change rather than by every route's first visit to a tool.
    const { pool, norms } = this;
    for (let doc = 0; doc < this.length.length; doc++) {
      const from = this.start[doc] as number;
      const to = from + (this.length[doc] as number);
      let sum = 0;
      for (let i = from; i < to; i++) {
        const entry = pool[i] as number;
        const w = (TERM_FREQUENCY[entry & MAX_COUNT] as number) * (idf[entry >>> COUNT_BITS] as number);
        sum += w * w;
      }
      norms[doc] = Math.sqrt(sum);
    }
    this.idfStale = false;
  }
}
