// BM25 over each tool's name words, title, description, tags and examples, plus pairs of name words
// (proximity): in an API catalog tools share their words in every combination (`deleteProjectIssue`,
// `updateProjectIssue`, `deleteAccountIssue`), so which query words stand together decides between them.
//
// Hand-written rather than minisearch: routing needs a score that means the same thing across queries (for
// the threshold), the share of the query's IDF mass a tool covers, which minisearch's relative BM25+ does
// not give; and minisearch's Map-based scoring is far slower at scale (docs/performance.md, "Router").
import type { Tool } from "../catalog/index.ts";
import { namePairs, nameWords, queryTerms, terms } from "./text.ts";

const K1 = 1.2;
const B = 0.75;
// Field weights by repetition: a tool's name words say what it does more precisely than its prose.
const NAME_WEIGHT = 3;
const TAG_WEIGHT = 2;
const EXAMPLE_ONLY_WEIGHT = 0.5;
/**
 * A pair of the tool's name words found close together in one step of the query scores like a term with
 * this share of its IDF. Pairs the catalog has never seen ("payment service") are not counted in the
 * normaliser: they are how people talk, not information a tool could cover. Half an IDF rather than a
 * whole one: see docs/performance.md, "Router".
 */
const PAIR_WEIGHT = 0.5;

/** One query's BM25, normalised (see `search`). */
export interface LexicalResult {
  /** Normalised score of a tool (0 when it shares no term with the query). */
  score(name: string): number;
  /** The same by document number (see `upsert`), without looking the name up. */
  scoreOf(doc: number): number;
  /** The best `n` tools, best first, with normalised scores. */
  top(n: number): [string, number][];
  /** The same as document numbers. */
  topDocs(n: number): [number, number][];
}

/** The documents holding one term, their weighted term frequencies, and their BM25 term weights. */
interface Posting {
  term: string;
  docs: number[];
  tfs: number[];
  /**
   * tf·(k1+1) / (tf + k1·(1 − b + b·length/avgLength)) per document, which only changes with the catalog:
   * computed on first use for the average length it was made with, so a search multiplies by the IDF and
   * adds instead of reading every document's length (scattered reads) for every posting of every query.
   */
  weights: Float64Array;
  /** The largest of `weights`: no document gains more than idf · maxWeight from this term. */
  maxWeight: number;
  /** The average document length `weights` hold; NaN when the list changed since. */
  weightsAvg: number;
}

/**
 * BM25's saturated, length-normalised term frequency. One function for the precomputed posting weights and
 * for a single document's score, so the two agree to the last bit (score() may answer from either).
 */
function termWeight(tf: number, length: number, avgLength: number): number {
  return (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / avgLength));
}

/** BM25's IDF of a term held by `df` of `n` documents; shared with subword similarity's grams. */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** A query term (or pair) the catalog holds, with its IDF and the most any document gains from it. */
interface QueryTerm {
  idf: number;
  posting: Posting;
  bound: number;
}

export class LexicalIndex {
  /** term → the documents holding it. */
  private readonly postings = new Map<string, Posting>();
  /**
   * Per document, its terms' postings and weighted frequencies, alternating: [posting, tf, posting, tf, …].
   * A score for a document `top` did not touch compares posting references, where a Map by term compared
   * strings, which miss the CPU cache on a large catalog.
   */
  private readonly docTerms: ((Posting | number)[] | undefined)[] = [];
  private readonly docLength: number[] = [];
  private readonly toolByDoc: (string | undefined)[] = [];
  private readonly docByTool = new Map<string, number>();
  private totalLength = 0;
  /** Accumulator, one slot per document, reused: cleared lazily by the next `top`. */
  private scores = new Float64Array(0);
  /** The documents the last search scored (the first `touchedCount`), so clearing skips the rest. */
  private touched = new Int32Array(0);
  private touchedCount = 0;
  /**
   * The query terms whose full scores the accumulator holds after `top`, for every touched document and,
   * unless `top` stopped touching new ones, for every other document too (zero).
   */
  private scoredFor: readonly QueryTerm[] | undefined;
  /** The first term whose list `top` skipped for untouched documents (held.length: none was). */
  private quitAt = 0;

  get size(): number {
    return this.docByTool.size;
  }

  /**
   * Adds or replaces a tool; `extra` are learned queries (feedback) indexed like examples. `doc` numbers its
   * document, so a caller can keep arrays by it (the router uses its own tool numbers); by default a tool
   * keeps its number and a new one takes the next.
   */
  upsert(
    tool: Tool,
    extra: readonly string[] = [],
    doc = this.docByTool.get(tool.name) ?? this.toolByDoc.length,
  ): void {
    const holder = this.toolByDoc[doc];
    if (holder !== undefined && holder !== tool.name)
      throw new Error(`BM25 document ${doc} already holds "${holder}", not "${tool.name}"`);
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
    // A word only examples use is often a value one of them happens to carry (a city, a product), not a
    // word for what the tool does: it counts half, so a request naming that value is not drawn to the tool.
    const ownWords = new Set(counts.keys());
    for (const text of [...(tool.examples ?? []), ...extra])
      for (const w of terms(text)) add([w], ownWords.has(w) ? 1 : EXAMPLE_ONLY_WEIGHT);
    // The document's length counts its words only, so pairs add to a score without changing the words'.
    let length = 0;
    for (const tf of counts.values()) length += tf;
    add(namePairs(name), 1);
    const own: (Posting | number)[] = [];
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (!list) {
        list = {
          term,
          docs: [],
          tfs: [],
          weights: new Float64Array(0),
          maxWeight: 0,
          weightsAvg: Number.NaN,
        };
        this.postings.set(term, list);
      }
      list.docs.push(doc);
      list.tfs.push(tf);
      list.weightsAvg = Number.NaN;
      own.push(list, tf);
    }
    this.docTerms[doc] = own;
    this.docLength[doc] = length;
    this.toolByDoc[doc] = tool.name;
    this.docByTool.set(tool.name, doc);
    this.totalLength += length;
  }

  remove(name: string): void {
    const doc = this.docByTool.get(name);
    if (doc === undefined) return;
    const own = this.docTerms[doc] ?? [];
    for (let i = 0; i < own.length; i += 2) {
      const list = own[i] as Posting;
      const at = list.docs.indexOf(doc);
      list.docs.splice(at, 1);
      list.tfs.splice(at, 1);
      list.weightsAvg = Number.NaN;
      if (list.docs.length === 0) this.postings.delete(list.term);
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
    const avgLength = n ? this.totalLength / n : 1;
    let norm = 0;
    const held: QueryTerm[] = [];
    const { terms: words, pairs } = queryTerms(query);
    const unique = new Set(words);
    for (const term of [...unique, ...pairs]) {
      const posting = this.postings.get(term);
      const isPair = !unique.has(term);
      if (isPair && !posting) continue;
      const df = posting?.docs.length ?? 0;
      const idf = (isPair ? PAIR_WEIGHT : 1) * bm25Idf(n, df);
      norm += idf * (K1 + 1);
      if (!posting) continue;
      this.refreshWeights(posting, avgLength);
      held.push({ idf, posting, bound: idf * posting.maxWeight });
    }
    // Shortest lists first: by the time the long ones come (the catalog's common words) the top is known
    // well enough to skip them (see `top`).
    held.sort((a, b) => a.posting.docs.length - b.posting.docs.length);
    const divisor = norm || 1;
    const scoreOf = (doc: number): number => {
      if (this.toolByDoc[doc] === undefined) return 0;
      if (this.scoredFor !== held) return this.exactScore(doc, held, 0, avgLength) / divisor;
      const s = this.scores[doc] as number;
      // An untouched document holds none of the terms before the quit: only the skipped ones can count.
      return (s > 0 ? s : this.exactScore(doc, held, this.quitAt, avgLength)) / divisor;
    };
    const topDocs = (k: number): [number, number][] =>
      this.top(held, k).map(([doc, s]) => [doc, s / divisor]);
    return {
      score: (name) => {
        const doc = this.docByTool.get(name);
        return doc === undefined ? 0 : scoreOf(doc);
      },
      scoreOf,
      top: (k) => topDocs(k).map(([doc, s]) => [this.toolByDoc[doc] as string, s]),
      topDocs,
    };
  }

  /**
   * The `k` best documents with their raw scores, best first. Term at a time over the accumulator, shortest
   * lists first, with Moffat and Zobel's quit-and-continue: once the k-th best score so far is at least the
   * most the remaining terms could give a document, no document only they hold can enter the top, so their
   * lists (the catalog's common words: a service name, "list", "get") add to the documents already touched
   * and touch no new ones. Fewer touched documents is what makes the final selection and the next search's
   * clearing cheap; the answer is exact. On 100k API-style tools (the bench's catalog, where every term is
   * common) touched documents fell from about 26,000 to 6,000 per query and top-32 time by about a sixth.
   * Hand-written: no maintained JavaScript BM25 library prunes (minisearch scores every posting).
   */
  private top(held: readonly QueryTerm[], k: number): [number, number][] {
    const docCount = this.toolByDoc.length;
    for (let i = 0; i < this.touchedCount; i++) this.scores[this.touched[i] as number] = 0;
    this.touchedCount = 0;
    this.scoredFor = undefined;
    if (k <= 0) return [];
    if (this.scores.length < docCount) {
      this.scores = new Float64Array(docCount * 2);
      this.touched = new Int32Array(docCount * 2);
    }
    const scores = this.scores;
    const touched = this.touched;
    let touchedCount = 0;
    let remaining = 0;
    for (const q of held) remaining += q.bound;
    let quitAt = held.length;
    for (let t = 0; t < held.length; t++) {
      const { idf, posting, bound } = held[t] as QueryTerm;
      // Finding the k-th best costs a pass over the touched documents: worth it before a list at least half
      // as long, which is where skipping pays.
      if (touchedCount >= k && posting.docs.length * 2 >= touchedCount) {
        this.touchedCount = touchedCount;
        if (this.kthBest(k) >= remaining) {
          quitAt = t;
          break;
        }
      }
      remaining -= bound;
      const docs = posting.docs;
      const weights = posting.weights;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i] as number;
        const before = scores[doc] as number;
        if (before === 0) touched[touchedCount++] = doc;
        scores[doc] = before + idf * (weights[i] as number);
      }
    }
    // Continue: the skipped lists only add to documents already touched.
    for (let t = quitAt; t < held.length; t++) {
      const { idf, posting } = held[t] as QueryTerm;
      const docs = posting.docs;
      const weights = posting.weights;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i] as number;
        const before = scores[doc] as number;
        // Without a branch: about half the documents of a common term's list are not in the race, in no
        // order a CPU could predict.
        scores[doc] = before + (before === 0 ? 0 : idf) * (weights[i] as number);
      }
    }
    this.touchedCount = touchedCount;
    this.scoredFor = held;
    this.quitAt = quitAt;
    return this.best(k).map((doc) => [doc, scores[doc] as number]);
  }

  /**
   * A document's raw score from its own term counts (the query's terms from `from` on), for documents `top`
   * did not score.
   */
  private exactScore(doc: number, held: readonly QueryTerm[], from: number, avgLength: number): number {
    const own = this.docTerms[doc];
    if (!own) return 0;
    const length = this.docLength[doc] as number;
    let s = 0;
    for (let t = from; t < held.length; t++) {
      const q = held[t] as QueryTerm;
      for (let i = 0; i < own.length; i += 2)
        if (own[i] === q.posting) {
          s += q.idf * termWeight(own[i + 1] as number, length, avgLength);
          break;
        }
    }
    return s;
  }

  /** The `k` touched documents with the highest accumulated scores, best first. */
  private best(k: number): number[] {
    // A bounded insertion rather than sorting every touched document: common terms touch thousands.
    const scores = this.scores;
    const best: number[] = [];
    for (let t = 0; t < this.touchedCount; t++) {
      const doc = this.touched[t] as number;
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
    return best;
  }

  /** The k-th highest accumulated score (scores only grow, so it bounds the final k-th from below). */
  private kthBest(k: number): number {
    const best = this.best(k);
    return this.scores[best[k - 1] as number] as number;
  }

  /** Brings a posting's weights and their maximum up to the catalog's current average length. */
  private refreshWeights(list: Posting, avgLength: number): void {
    if (list.weightsAvg === avgLength) return;
    const { docs, tfs } = list;
    if (list.weights.length !== docs.length) list.weights = new Float64Array(docs.length);
    let max = 0;
    for (let i = 0; i < docs.length; i++) {
      const tf = tfs[i] as number;
      const w = termWeight(tf, this.docLength[docs[i] as number] as number, avgLength);
      list.weights[i] = w;
      if (w > max) max = w;
    }
    list.maxWeight = max;
    list.weightsAvg = avgLength;
  }
}
