// BM25 over each tool's name words, title, description, tags and examples, plus pairs of name words
// (proximity): in an API catalog tools share their words in every combination (`deleteProjectIssue`,
// `updateProjectIssue`, `deleteAccountIssue`), so which query words stand together decides between them.
//
// Hand-written rather than minisearch: routing needs a score that means the same thing across queries (for
// the threshold), the share of the query's IDF mass a tool covers, which minisearch's relative BM25+ does
// not give; and minisearch's Map-based scoring is far slower at scale (`npm run bench` at 100k API-style
// tools, two benchmarks sharing the 2 cores: p50 0.64 ms here against 505 ms for minisearch's search).
import type { Tool } from "../catalog/index.ts";
import { namePairs, nameWords, queryTerms, terms } from "./text.ts";

const K1 = 1.2;
const B = 0.75;
// Field weights by repetition: a tool's name words say what it does more precisely than its prose.
const NAME_WEIGHT = 3;
const TAG_WEIGHT = 2;
/**
 * A pair of the tool's name words found close together in one step of the query scores like a term with
 * this share of its IDF. Pairs the catalog has never seen ("payment service") are not counted in the
 * normaliser: they are how people talk, not information a tool could cover. Measured with `switchboard
 * eval` (no calibration, no examples, generic fusion weight 0.65) on 4,000 API-style tools from
 * test/router/fixtures: hit@1 0.790 -> 0.889 (generate-api-catalog.ts) and 0.845 -> 0.855 (the differently
 * worded generate-service-catalog.ts); offline, a pair weight of 1 did worse on the first (0.91 against
 * 0.93) and no better on the second. MetaTool dev odd half identical (0.5563 / recall@5 0.7814 / AUROC
 * 0.9168): its names are one or two words.
 */
const PAIR_WEIGHT = 0.5;

/** Raw BM25 per document for one query, and the query's normaliser (see `search`). */
export interface LexicalResult {
  /** Normalised score of a tool (0 when it shares no term with the query). */
  score(name: string): number;
  /** The best `n` tools, best first, with normalised scores. */
  top(n: number): [string, number][];
}

/** The documents holding one term, their weighted term frequencies, and their BM25 term weights. */
interface Posting {
  docs: number[];
  tfs: number[];
  /**
   * tf·(k1+1) / (tf + k1·(1 − b + b·length/avgLength)) per document, which only changes with the catalog:
   * computed on first use for the average length it was made with, so a search multiplies by the IDF and
   * adds instead of reading every document's length (scattered reads) for every posting of every query.
   */
  weights: Float64Array;
  /** The average document length `weights` hold; NaN when the list changed since. */
  weightsAvg: number;
}

export class LexicalIndex {
  /** term → the documents holding it. */
  private readonly postings = new Map<string, Posting>();
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
    const name = terms(nameWords(tool.name).join(" "));
    add(name, NAME_WEIGHT);
    if (tool.title) add(terms(tool.title), 1);
    add(terms(tool.description), 1);
    for (const tag of tool.tags ?? []) add(terms(tag), TAG_WEIGHT);
    for (const text of [...(tool.examples ?? []), ...extra]) add(terms(text), 1);
    // The document's length counts its words only, so pairs add to a score without changing the words'.
    let length = 0;
    for (const tf of counts.values()) length += tf;
    add(namePairs(name), 1);
    const doc = this.toolByDoc.length;
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (!list) {
        list = { docs: [], tfs: [], weights: new Float64Array(0), weightsAvg: Number.NaN };
        this.postings.set(term, list);
      }
      list.docs.push(doc);
      list.tfs.push(tf);
      list.weightsAvg = Number.NaN;
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
      list.weightsAvg = Number.NaN;
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
   * catalog has never seen count in the denominator, so a query about something else scores low; pairs
   * of terms count only when some tool's name holds them (see PAIR_WEIGHT).
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
    const scores = this.scores;
    const touched = this.touched;
    let touchedCount = 0;
    let norm = 0;
    const { terms: words, pairs } = queryTerms(query);
    const unique = new Set(words);
    for (const term of [...unique, ...pairs]) {
      const list = this.postings.get(term);
      const isPair = !unique.has(term);
      if (isPair && !list) continue;
      const df = list?.docs.length ?? 0;
      const idf = (isPair ? PAIR_WEIGHT : 1) * Math.log(1 + (n - df + 0.5) / (df + 0.5));
      norm += idf * (K1 + 1);
      if (!list) continue;
      const docs = list.docs;
      const weights = this.weightsOf(list, avgLength);
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i] as number;
        const before = scores[doc] as number;
        if (before === 0) touched[touchedCount++] = doc;
        scores[doc] = before + idf * (weights[i] as number);
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

  private weightsOf(list: Posting, avgLength: number): Float64Array {
    if (list.weightsAvg === avgLength) return list.weights;
    const { docs, tfs } = list;
    if (list.weights.length !== docs.length) list.weights = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      const tf = tfs[i] as number;
      const length = this.docLength[docs[i] as number] as number;
      list.weights[i] = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / avgLength));
    }
    list.weightsAvg = avgLength;
    return list.weights;
  }
}
