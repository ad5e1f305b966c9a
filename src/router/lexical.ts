// BM25 over each tool's name words, title, description, tags and examples.
//
// Hand-written rather than minisearch: routing needs a score that means the same thing across queries (for
// the threshold), the share of the query's IDF mass a tool covers, which minisearch's relative BM25+ does
// not give; and minisearch's Map-based scoring took several ms per query at 100k tools where this takes
// well under one (see `npm run bench`).
import type { Tool } from "../catalog/index.ts";
import { nameWords, terms } from "./text.ts";

const K1 = 1.2;
const B = 0.75;
// Field weights by repetition: a tool's name words say what it does more precisely than its prose.
const NAME_WEIGHT = 3;
const TAG_WEIGHT = 2;

export interface LexicalHit {
  doc: number;
  /** Raw BM25. */
  raw: number;
}

export class LexicalIndex {
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly docTerms = new Map<number, Map<string, number>>();
  private readonly docLength = new Map<number, number>();
  private totalLength = 0;
  private nextDoc = 0;
  private readonly docByTool = new Map<string, number>();
  private readonly toolByDoc = new Map<number, string>();

  get size(): number {
    return this.docByTool.size;
  }

  toolOf(doc: number): string | undefined {
    return this.toolByDoc.get(doc);
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
    const doc = this.nextDoc++;
    let length = 0;
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (!list) {
        list = new Map();
        this.postings.set(term, list);
      }
      list.set(doc, tf);
      length += tf;
    }
    this.docTerms.set(doc, counts);
    this.docLength.set(doc, length);
    this.totalLength += length;
    this.docByTool.set(tool.name, doc);
    this.toolByDoc.set(doc, tool.name);
  }

  remove(name: string): void {
    const doc = this.docByTool.get(name);
    if (doc === undefined) return;
    for (const term of this.docTerms.get(doc)?.keys() ?? []) {
      const list = this.postings.get(term);
      list?.delete(doc);
      if (list?.size === 0) this.postings.delete(term);
    }
    this.totalLength -= this.docLength.get(doc) ?? 0;
    this.docTerms.delete(doc);
    this.docLength.delete(doc);
    this.docByTool.delete(name);
    this.toolByDoc.delete(doc);
  }

  /**
   * Scores every tool sharing a term with the query. `norm` turns raw BM25 into the share of the query's
   * information a tool covers: raw / Σ idf·(k1+1), the score of a tool containing every query term often.
   * Terms the catalog has never seen count in the denominator, so a query about something else scores low.
   */
  search(query: string): { scores: Map<string, number>; norm: number } {
    const n = this.docByTool.size;
    const scores = new Map<string, number>();
    if (n === 0) return { scores, norm: 1 };
    const avgLength = this.totalLength / n;
    let norm = 0;
    for (const term of new Set(terms(query))) {
      const list = this.postings.get(term);
      const df = list?.size ?? 0;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      norm += idf * (K1 + 1);
      if (!list) continue;
      for (const [doc, tf] of list) {
        const length = this.docLength.get(doc) ?? avgLength;
        const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / avgLength));
        const name = this.toolByDoc.get(doc) as string;
        scores.set(name, (scores.get(name) ?? 0) + s);
      }
    }
    return { scores, norm: norm || 1 };
  }
}
