// The router's index: every text that stands for a tool (its main text, its examples, queries confirmed
// by use) in the dense HNSW index and the exact vector store, BM25 and subword over the tools' words, the
// departments of tier 1, and the no-tool class; kept in sync with the catalog and persisted. Query-time
// scoring (router.ts) and calibration (calibrate.ts) read it; only this file changes it.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Tool } from "../catalog/index.ts";
import type { Embedder } from "../embed/index.ts";
import type { Calibration } from "./calibration.ts";
import {
  type CandidateScope,
  type CandidateSources,
  type Candidates,
  findCandidates,
  type LexicalCandidates,
} from "./candidates.ts";
import type { DenseIndex } from "./dense.ts";
import type { FeedbackLog } from "./feedback.ts";
import { LexicalIndex } from "./lexical.ts";
import { NO_TOOL_ANCHORS } from "./no-tool-anchors.ts";
import type { Entry, IndexFiles } from "./persist.ts";
import { SubwordIndex } from "./subword.ts";
import { mainText, ownText } from "./text.ts";
import { cluster, dot, MIN_TOOLS_FOR_TIERS, Tiers } from "./tiers.ts";
import { VectorStore } from "./vector-store.ts";

export type RouterEmbedder = Pick<Embedder, "id" | "dimension" | "embed">;

/**
 * Texts per embedder call while indexing: a few of the embedder's batches, so that every worker gets some
 * of each call while progress still moves often.
 */
const EMBED_CHUNK = 256;

/**
 * Graph inserts between turns of the event loop while indexing. An insert into a large graph takes about a
 * millisecond; a whole chunk at once would hold the thread that hands the embedder's workers their next
 * batch (so they idle) and that answers routes (which a background fill keeps serving).
 */
const INSERTS_PER_TURN = 16;

/** How much less a tool's single closest example counts than the mean of its two closest (see scoreByExamples). */
const SINGLE_EXAMPLE_DISCOUNT = 0.05;

/**
 * A tool's main entry and example entries (labels in the vector store), and the length of its examples'
 * vector sum: the query's similarity to their normalised mean is the sum of its similarities to each,
 * divided by that length, so the mean needs no product of its own.
 */
interface ExampleSet {
  main: number | undefined;
  examples: number[];
  sumLength: number;
}

function entryKey(tool: string | null, text: string): string {
  return `${tool ?? ""}\u0000${text}`;
}

export class RouterIndex {
  readonly tools = new Map<string, Tool>();
  readonly lexical = new LexicalIndex();
  readonly subword = new SubwordIndex();
  readonly tiers = new Tiers();
  /** Category (given or clustered) per tool. */
  readonly categoryOf = new Map<string, string>();
  readonly vectors: VectorStore;
  readonly embedder: RouterEmbedder;
  /** Embeds the index's texts; the query embedder unless a shared store reuses stored vectors. */
  private readonly indexEmbedder: RouterEmbedder;
  readonly files: IndexFiles;
  readonly feedback: FeedbackLog;
  /** The fit in use; its no-tool queries are entries of the reject class. */
  calibration: Calibration;
  private rejectLabels: number[] = [];
  /** Per tool with two or more examples (given or learned), built on demand; null: fewer examples. */
  private readonly exampleSets = new Map<string, ExampleSet | null>();
  private readonly dense: DenseIndex;
  private saving: Promise<void> = Promise.resolve();
  private saveTimer: NodeJS.Timeout | undefined;

  constructor(
    embedder: RouterEmbedder,
    files: IndexFiles,
    feedback: FeedbackLog,
    dense: DenseIndex,
    calibration: Calibration,
    indexEmbedder: RouterEmbedder = embedder,
  ) {
    this.embedder = embedder;
    this.indexEmbedder = indexEmbedder;
    this.vectors = new VectorStore(embedder.dimension);
    this.files = files;
    this.feedback = feedback;
    this.dense = dense;
    this.calibration = calibration;
  }

  /** Adds or replaces one tool: embeds only its new texts and updates every index in place. */
  async upsert(tool: Tool): Promise<void> {
    const previous = this.tools.get(tool.name);
    if (previous) this.untier(previous);
    this.tools.set(tool.name, tool);
    await this.sync(tool.name);
    const number = this.files.toolNumber(tool.name);
    this.lexical.upsert(tool, this.feedback.byTool().get(tool.name) ?? [], number);
    this.subword.upsert(number, ownText(tool));
    this.tier(tool);
    this.scheduleSave();
  }

  async remove(name: string): Promise<void> {
    const tool = this.tools.get(name);
    if (!tool) return;
    this.untier(tool);
    this.tools.delete(name);
    this.lexical.remove(name);
    this.subword.remove(this.files.toolNumber(name));
    await this.sync(name);
    this.scheduleSave();
  }

  /** Confirmed query → tool pairs become examples of their tools: one locked write, one batched embedding. */
  async learn(pairs: readonly { query: string; tool: string }[]): Promise<void> {
    await this.embedAhead(pairs.map((p) => p.query));
    await this.feedback.record(pairs);
    await this.sync(undefined);
    const learned = this.feedback.byTool();
    for (const name of new Set(pairs.map((p) => p.tool)))
      this.lexical.upsert(this.tools.get(name) as Tool, learned.get(name) ?? [], this.files.toolNumber(name));
    this.scheduleSave();
  }

  /**
   * Takes in the learned queries as stored now (another process recorded some): only tools whose learned
   * queries changed are re-synced, embedding only texts new to the index. The number of tools changed.
   */
  async relearn(): Promise<number> {
    const before = this.feedback.byTool();
    await this.feedback.load();
    const after = this.feedback.byTool();
    const same = (a: string[] | undefined, b: string[] | undefined) =>
      (a ?? []).length === (b ?? []).length && (a ?? []).every((q, i) => q === b?.[i]);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
      (name) => this.tools.has(name) && !same(before.get(name), after.get(name)),
    );
    for (const name of changed) {
      await this.sync(name);
      this.lexical.upsert(this.tools.get(name) as Tool, after.get(name) ?? [], this.files.toolNumber(name));
    }
    if (changed.length > 0) this.scheduleSave();
    return changed.length;
  }

  /** A new calibration: persisted, and its no-tool queries made entries of the reject class. */
  async setCalibration(calibration: Calibration): Promise<void> {
    await this.embedAhead(calibration.noToolQueries);
    await this.files.writeCalibration(calibration);
    await this.useCalibration(calibration);
  }

  /**
   * Routes with `calibration` from now on: weights and threshold change together, in one assignment that
   * no route can observe halfway; its no-tool queries join the reject class just after.
   */
  async useCalibration(calibration: Calibration): Promise<void> {
    this.calibration = calibration;
    await this.sync(null);
    this.scheduleSave();
  }

  /**
   * With an index embedder shared between replicas, texts about to be announced are embedded (and stored)
   * first, so the other replicas read their vectors instead of embedding them too.
   */
  private async embedAhead(texts: readonly string[]): Promise<void> {
    if (this.indexEmbedder === this.embedder) return;
    const known = new Set([...this.files.entries.values()].map((entry) => entry.text));
    const fresh = [...new Set(texts)].filter((text) => !known.has(text));
    if (fresh.length > 0) await this.indexEmbedder.embed(fresh);
  }

  /** Writes pending index changes now. */
  async flush(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.saving = this.saving.then(() => this.files.save(this.dense));
    await this.saving;
  }

  private scheduleSave(): void {
    // Writing a large index takes longer than the change itself; batch changes that come in bursts.
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.flush().catch(() => {});
    }, 250);
    this.saveTimer.unref();
  }

  /** The candidates of one query, from every source the index holds (see candidates.ts). */
  candidates(
    text: string,
    vector: Float32Array,
    allowed: Set<string> | undefined,
    scope: Omit<CandidateScope, "allowed"> = {},
    lexical?: LexicalCandidates,
  ): Candidates {
    const sources: CandidateSources = {
      dense: this.dense,
      lexical: this.lexical,
      subword: this.subword,
      vectors: this.vectors,
      rejectLabels: this.rejectLabels,
      categoryOf: (number) => this.categoryOf.get(this.files.nameOfNumber(number)),
      numberOfLabel: (label) => this.files.numberOfLabel(label),
      labelsOfNumber: (number) => this.files.labelsOfNumber(number),
    };
    return findCandidates(sources, text, vector, allowed ? { ...scope, allowed } : scope, lexical);
  }

  /**
   * A tool's dense score is its best entry's similarity. For a tool with two or more examples (given or
   * learned) one lucky example should not decide alone: its score is the best of its main text, its closest
   * example a little discounted, the mean of its two closest examples and the centroid of all of them
   * (measured in docs/performance.md, "Router"). `excluded`: calibration's held-out entries, left out.
   */
  scoreByExamples(dense: Map<number, number>, vector: Float32Array, excluded?: Set<number>): void {
    this.vectors.query(vector);
    for (const tool of dense.keys()) {
      // Most tools of a large catalog have no examples: skipped before the cache (which would otherwise gain
      // a null for every tool any route ever considered) and before building their main text for nothing.
      if (!this.files.hasSeveralEntries(tool)) continue;
      const name = this.files.nameOfNumber(tool);
      const set = excluded ? this.exampleSetOf(name, excluded) : this.cachedExampleSet(name);
      if (!set) continue;
      let first = -1;
      let second = -1;
      let total = 0;
      for (const example of set.examples) {
        const s = this.vectors.similarity(example);
        total += s;
        if (s > first) {
          second = first;
          first = s;
        } else if (s > second) second = s;
      }
      const main = set.main === undefined ? -1 : this.vectors.similarity(set.main);
      dense.set(
        tool,
        Math.max(main, first - SINGLE_EXAMPLE_DISCOUNT, (first + second) / 2, total / set.sumLength),
      );
    }
  }

  private cachedExampleSet(tool: string): ExampleSet | null {
    let set = this.exampleSets.get(tool);
    if (set === undefined) {
      set = this.exampleSetOf(tool);
      this.exampleSets.set(tool, set);
    }
    return set;
  }

  private exampleSetOf(name: string, excluded?: Set<number>): ExampleSet | null {
    const tool = this.tools.get(name);
    if (!tool) return null;
    const mainOf = mainText(tool);
    let main: number | undefined;
    const examples: number[] = [];
    for (const label of this.files.labelsOf(name)) {
      if (!this.vectors.has(label) || excluded?.has(label)) continue;
      if (this.files.entries.get(label)?.text === mainOf) main = label;
      else examples.push(label);
    }
    if (examples.length < 2) return null;
    const sum = new Float32Array(this.vectors.dimension);
    for (const label of examples) {
      const v = this.vectors.view(label) as Float32Array;
      for (let i = 0; i < v.length; i++) (sum[i] as number) += v[i] as number;
    }
    return { main, examples, sumLength: Math.sqrt(dot(sum, sum)) || 1 };
  }

  /**
   * The texts that should be in the dense index for `scope` (one tool's name; null: the no-tool class;
   * undefined: everything): each tool's text, its examples and learned queries, the no-tool examples.
   */
  private wanted(scope: string | null | undefined): Entry[] {
    const out: Entry[] = [];
    const learned = this.feedback.byTool();
    const tools =
      scope === undefined ? [...this.tools.values()] : scope === null ? [] : [this.tools.get(scope)];
    for (const tool of tools) {
      if (!tool) continue;
      const texts = new Set([mainText(tool), ...(tool.examples ?? []), ...(learned.get(tool.name) ?? [])]);
      for (const text of texts) out.push({ tool: tool.name, text });
    }
    if (scope === undefined || scope === null)
      for (const text of new Set([...NO_TOOL_ANCHORS, ...this.calibration.noToolQueries]))
        out.push({ tool: null, text });
    return out;
  }

  /** Makes the dense index hold exactly `wanted(scope)`: drops stale entries, embeds and adds missing ones. */
  async sync(
    scope: string | null | undefined,
    onProgress?: (done: number, total: number) => void,
    signal?: AbortSignal,
  ) {
    const have = new Map<string, number>();
    const existing =
      scope === undefined
        ? [...this.files.entries.keys()]
        : scope === null
          ? this.rejectLabels
          : [...this.files.labelsOf(scope)];
    for (const label of existing) {
      const entry = this.files.entries.get(label) as Entry;
      have.set(entryKey(entry.tool, entry.text), label);
    }
    const missing: Entry[] = [];
    for (const w of this.wanted(scope)) {
      const key = entryKey(w.tool, w.text);
      if (have.has(key)) have.delete(key);
      else missing.push(w);
    }
    for (const label of have.values()) {
      this.dense.remove(label);
      this.files.deleteEntry(label);
      this.vectors.delete(label);
    }
    // Identical texts (tools sharing a description) are embedded once. All chunks go to the embedder at
    // once, so that its workers stay busy together. Texts go by length, so that each model batch holds
    // texts of about one length and pads little; entries are added chunk by chunk in that order, so
    // labels do not depend on which worker finished first.
    const entriesOf = new Map<string, Entry[]>();
    for (const m of missing) {
      const list = entriesOf.get(m.text);
      if (list) list.push(m);
      else entriesOf.set(m.text, [m]);
    }
    const texts = [...entriesOf.keys()].sort((a, b) => a.length - b.length);
    const chunks: Promise<Float32Array[]>[] = [];
    for (let i = 0; i < texts.length; i += EMBED_CHUNK)
      chunks.push(this.indexEmbedder.embed(texts.slice(i, i + EMBED_CHUNK)));
    // Awaited one by one below; a failure is reported there, not as an unhandled rejection of a later chunk.
    for (const chunk of chunks) chunk.catch(() => {});
    let added = 0;
    for (const [c, chunk] of chunks.entries()) {
      const vectors = await chunk;
      for (const [j, vector] of vectors.entries()) {
        for (const m of entriesOf.get(texts[c * EMBED_CHUNK + j] as string) as Entry[]) {
          const label = this.files.nextLabel++;
          this.dense.add(label, vector);
          this.files.setEntry(label, m);
          this.vectors.set(label, vector);
          if (++added % INSERTS_PER_TURN === 0) await nextTurn();
        }
      }
      onProgress?.(added, missing.length);
      // Stopped (the router is closing): what is in stays in and is saved; a reopen embeds the rest.
      if (signal?.aborted) break;
    }
    if (scope === undefined)
      for (const label of this.files.entries.keys())
        if (!this.vectors.has(label)) this.vectors.set(label, this.dense.vector(label));
    if (scope === undefined || scope === null)
      this.rejectLabels = [...this.files.entries].filter(([, e]) => e.tool === null).map(([label]) => label);
    if (scope === undefined) this.exampleSets.clear();
    else if (scope !== null) this.exampleSets.delete(scope);
    return { added: missing.length, removed: have.size };
  }

  /** The texts `sync(undefined)` would embed: wanted, not yet in the index, each distinct text once. */
  missingTexts(): number {
    const have = new Set<string>();
    for (const entry of this.files.entries.values()) have.add(entryKey(entry.tool, entry.text));
    const texts = new Set<string>();
    for (const w of this.wanted(undefined)) if (!have.has(entryKey(w.tool, w.text))) texts.add(w.text);
    return texts.size;
  }

  /** BM25 and subword over every tool; they need no vector, so they can serve while the dense index fills. */
  buildLexical(): void {
    const learned = this.feedback.byTool();
    for (const tool of this.tools.values()) {
      const number = this.files.toolNumber(tool.name);
      this.lexical.upsert(tool, learned.get(tool.name) ?? [], number);
      this.subword.upsert(number, ownText(tool));
    }
  }

  /** The departments of tier 1 over every tool; once, after the dense index is in sync. */
  buildTiers(): void {
    const tools = [...this.tools.values()];
    if (tools.some((t) => t.category)) {
      for (const tool of tools) this.categoryOf.set(tool.name, tool.category ?? "uncategorised");
    } else if (tools.length >= MIN_TOOLS_FOR_TIERS) {
      const k = Math.min(32, Math.max(3, Math.round(Math.sqrt(tools.length / 4))));
      const vectors = tools.map((t) => this.mainVector(t) as Float32Array);
      const assignment = cluster(vectors, k);
      tools.forEach((t, i) => {
        this.categoryOf.set(t.name, `cluster-${assignment[i]}`);
      });
    }
    for (const tool of tools) {
      const category = this.categoryOf.get(tool.name);
      const vector = this.mainVector(tool);
      if (category && vector) this.tiers.add(category, vector);
    }
  }

  /** A view of the tool's main vector: read it at once (see VectorStore.view). */
  private mainVector(tool: Tool): Float32Array | undefined {
    const text = mainText(tool);
    for (const label of this.files.labelsOf(tool.name))
      if (this.files.entries.get(label)?.text === text) return this.vectors.view(label);
    return undefined;
  }

  private tier(tool: Tool): void {
    const vector = this.mainVector(tool);
    if (!vector || this.tiers.size === 0) return;
    let category = tool.category;
    if (!category) {
      // A new tool in a clustered catalog joins the department whose tools it is closest to.
      const choice = this.tiers.choose(vector);
      category = choice ? [...choice.categories][0] : undefined;
    }
    if (!category) return;
    this.categoryOf.set(tool.name, category);
    this.tiers.add(category, vector);
  }

  private untier(tool: Tool): void {
    const category = this.categoryOf.get(tool.name);
    const vector = this.mainVector(tool);
    if (category && vector) this.tiers.add(category, vector, -1);
    this.categoryOf.delete(tool.name);
  }
}
