// BM25 over each tool's name words, title, description, tags and examples.
//
// Hand-written rather than minisearch: routing needs a score that means the same thing across queries (for
// the threshold), the share of the query's IDF mass a tool covers, which minisearch's relative BM25+ does
// not give; and minisearch's Map-based scoring is far slower at scale (`npm run bench` at 100k API-style
// tools, two benchmarks sharing the 2 cores: p50 0.64 ms here against 505 ms for minisearch's search).
import type { Tool } from "../catalog/index.ts";
import { nameWords, terms } from "./text.ts";

const K1 = 1.2;
const B = 0.75;
// Field weights by repetition: a tool's name words say what it does more precisely than its prose.
const NAME_WEIGHT = 3;
const TAG_WEIGHT = 2;

/** Raw BM25 per document for one query, and the query's normaliser (see `search`). */
export interface LexicalResult {
  /** Normalised score of a tool (0 when it shares no term with the query). */
  score(name: string): number;
  /** The best `n` tools, best first, with normalised scores. */
  top(n: number): [string, number][];
}

export class LexicalIndex {
  /** term → parallel arrays of documents and weighted term frequencies. */
  private readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();
  private readonly docTerms: (Map<string, number> | undefined)[] = [];
  private readonly docLength: number[] = [];
  private readonly toolByDoc: (string | undefined)[] = [];
  private readonly docByTool = new Map<string, number>();
  private totalLength = 0;
  /** Accumulator, one slot per document, reused: cleared lazily at the next search. */
  private scores = new Float64Array(0);
  /** The documents the last search scored (the first `touchedCount`), so clearing skips the rest. */
  private touched = new Int32Array(0);
  private touchedCount = 0;
  /**
   * BM25's length term k1·(1 − b + b·length/avgLength) per document, which only changes when the catalog
   * does: computed once for the average it was made with instead of for every posting of every query.
   */
  private lengthNorm = new Float64Array(0);
  private lengthNormAvg = Number.NaN;
  private lengthNormDocs = 0;

  get size(): number {
    return this.docByTool.size;
  }

  /** Adds or replaces a tool; `extra` are learned queries (feedback) indexed like examples. */
  upsert(tool: Tool, extra: readonly string[] = []): void {
    this.remove(tool.name);
    const counts = new Map<string, number>();
    const add = (words: string[], weight: number) => {
      for (const w of words) counts.set(w, (counts.get(w) ?? 0) + weight);
    };
    add(terms(nameWords(tool.name).join(" ")), NAME_WEIGHT);
    if (tool.title) add(terms(tool.title), 1);
    add(terms(tool.description), 1);
    for (const tag of tool.tags ?? []) add(terms(tag), TAG_WEIGHT);
    for (const text of [...(tool.examples ?? []), ...extra]) add(terms(text), 1);
    const doc = this.toolByDoc.length;
    let length = 0;
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (!list) {
        list = { docs: [], tfs: [] };
        this.postings.set(term, list);
      }
      list.docs.push(doc);
      list.tfs.push(tf);
      length += tf;
    }
    this.docTerms.push(counts);
    this.docLength.push(length);
    this.toolByDoc.push(tool.name);
    this.docByTool.set(tool.name, doc);
    this.totalLength += length;
  }

  remove(name: string): void {
    const doc = this.docByTool.get(name);
    if (doc === undefined) return;
    for (const term of this.docTerms[doc]?.keys() ?? []) {
      const list = this.postings.get(term);
      if (!list) continue;
      const at = list.docs.indexOf(doc);
      list.docs.splice(at, 1);
      list.tfs.splice(at, 1);
      if (list.docs.length === 0) this.postings.delete(term);
    }
    this.totalLength -= this.docLength[doc] ?? 0;
    this.docTerms[doc] = undefined;
    this.toolByDoc[doc] = undefined;
    this.docByTool.delete(name);
  }

  /**
   * Scores every tool sharing a term with the query, normalised to the share of the query's information a
   * tool covers: raw BM25 / Σ idf·(k1+1), the score of a tool containing every query term often. Terms the
   * catalog has never seen count in the denominator, so a query about something else scores low.
   */
  search(query: string): LexicalResult {
    const n = this.docByTool.size;
    const docCount = this.toolByDoc.length;
    for (let i = 0; i < this.touchedCount; i++) this.scores[this.touched[i] as number] = 0;
    if (this.scores.length < docCount) {
      this.scores = new Float64Array(docCount * 2);
      this.touched = new Int32Array(docCount * 2);
    }
    const avgLength = n ? this.totalLength / n : 1;
    const lengthNorm = this.lengthNormFor(avgLength);
    const scores = this.scores;
    const touched = this.touched;
    let touchedCount = 0;
    let norm = 0;
    for (const term of new Set(terms(query))) {
      const list = this.postings.get(term);
      const df = list?.docs.length ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      norm += idf * (K1 + 1);
      if (!list) continue;
      const { docs, tfs } = list;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i] as number;
        const tf = tfs[i] as number;
        const before = scores[doc] as number;
        if (before === 0) touched[touchedCount++] = doc;
        scores[doc] = before + (idf * tf * (K1 + 1)) / (tf + (lengthNorm[doc] as number));
      }
    }
    this.touchedCount = touchedCount;
    const divisor = norm || 1;
    // Valid until the next search, which clears the accumulator.
    return {
      score: (name) => {
        const doc = this.docByTool.get(name);
        return doc === undefined ? 0 : (scores[doc] as number) / divisor;
      },
      top: (k) => {
        // A bounded selection rather than sorting every touched document: common terms touch thousands.
        const best: number[] = [];
        for (let t = 0; t < touchedCount; t++) {
          const doc = touched[t] as number;
          const s = scores[doc] as number;
          if (best.length === k && s <= (scores[best[k - 1] as number] as number)) continue;
          let i = best.length < k ? best.length : k - 1;
          best[i] = doc;
          while (i > 0 && (scores[best[i - 1] as number] as number) < s) {
            best[i] = best[i - 1] as number;
            best[i - 1] = doc;
            i--;
          }
        }
        return best.map((doc) => [this.toolByDoc[doc] as string, (scores[doc] as number) / divisor]);
      },
    };
  }

  private lengthNormFor(avgLength: number): Float64Array {
    const docCount = this.toolByDoc.length;
    if (avgLength === this.lengthNormAvg && this.lengthNormDocs === docCount) return this.lengthNorm;
    if (this.lengthNorm.length < docCount) this.lengthNorm = new Float64Array(docCount * 2);
    for (let doc = 0; doc < docCount; doc++)
      this.lengthNorm[doc] = K1 * (1 - B + (B * (this.docLength[doc] as number)) / avgLength);
    this.lengthNormAvg = avgLength;
    this.lengthNormDocs = docCount;
    return this.lengthNorm;
  }
}
