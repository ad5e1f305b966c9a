// The hybrid router: a dense HNSW index of every text that stands for a tool (its description, its
// examples, queries confirmed by use), BM25 over the same texts, a calibrated fusion of the two, two tiers
// (departments, then tools) and a calibrated threshold. See docs/architecture.md for the contract.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Tool } from "../catalog/index.ts";
import type { Embedder } from "../embed/index.ts";
import type { DataStore } from "../store/index.ts";
import {
  type Calibration,
  confidence,
  fit,
  type LabelledCandidates,
  MAX_NO_TOOL_QUERIES,
} from "./calibration.ts";
import {
  type CandidateScope,
  type CandidateSources,
  type Candidates,
  findCandidates,
  type LexicalCandidates,
  searchLexical,
} from "./candidates.ts";
import { defaultCalibration } from "./defaults.ts";
import { DEFAULT_HNSW, DenseIndex, type HnswParams } from "./dense.ts";
import { RouterError } from "./errors.ts";
import { FeedbackLog, normaliseQuery } from "./feedback.ts";
import { fuse } from "./fusion.ts";
import { LexicalIndex } from "./lexical.ts";
import { NO_TOOL_ANCHORS } from "./no-tool-anchors.ts";
import { type Entry, IndexFiles } from "./persist.ts";
import { SubwordIndex } from "./subword.ts";
import { mainText, ownText } from "./text.ts";
import { cluster, dot, MIN_TOOLS_FOR_TIERS, Tiers } from "./tiers.ts";
import { VectorStore } from "./vector-store.ts";

export const MAX_QUERY_CHARS = 1000;

export type RouterEmbedder = Pick<Embedder, "id" | "dimension" | "embed">;

export interface RouterOptions {
  tools: readonly Tool[];
  store: DataStore;
  embedder: RouterEmbedder;
  /**
   * Embeds tool texts and examples for the index (not queries); defaults to `embedder`. A shared store puts
   * one in front that reuses the vectors another replica already computed.
   */
  indexEmbedder?: RouterEmbedder;
  onProgress?: (done: number, total: number) => void;
  /** Folder in the data store for this catalog's index, so catalogs sharing a data folder keep apart. */
  key?: string;
  hnsw?: Partial<HnswParams>;
}

export interface RouteOptions {
  topK: number;
  /** Overrides the calibrated threshold. */
  threshold?: number;
  /** Rank only tools of these categories. */
  categories?: string[];
}

export interface RoutedTool {
  name: string;
  /** Fused score minus the pull of the no-tool class, plus the query's closeness to any tool; compared with the threshold. */
  score: number;
  why: {
    dense: number;
    /** BM25's coverage of the query. */
    lexical: number;
    /** Character-trigram similarity to the tool's own words. */
    subword: number;
    fused: number;
    /** 2: ranked within the departments tier 1 chose (or the caller named); "global": among all tools. */
    tier: 1 | 2 | "global";
    category?: string;
  };
}

export interface RouteResult {
  query: string;
  matched: boolean;
  threshold: number;
  notices: string[];
  tools: RoutedTool[];
}

/** What `open` found in the data folder and did about it; for `switchboard index` and the logs. */
export interface OpenReport {
  action: "loaded" | "built" | "updated" | "rebuilt";
  reason?: string;
  embedded: number;
  entries: number;
}

export class Router {
  readonly report: OpenReport;
  private readonly tools = new Map<string, Tool>();
  private readonly lexical = new LexicalIndex();
  private readonly subword = new SubwordIndex();
  private readonly tiers = new Tiers();
  /** Category (given or clustered) per tool. */
  private readonly categoryOf = new Map<string, string>();
  private readonly vectors: VectorStore;
  private rejectLabels: number[] = [];
  /** Per tool with two or more examples (given or learned), built on demand; null: fewer examples. */
  private readonly exampleSets = new Map<string, ExampleSet | null>();
  private calibration: Calibration;
  private saving: Promise<void> = Promise.resolve();
  private saveTimer: NodeJS.Timeout | undefined;
  private readonly embedder: RouterEmbedder;
  private indexEmbedder: RouterEmbedder;
  private readonly files: IndexFiles;
  private readonly feedback: FeedbackLog;
  private dense: DenseIndex;

  private constructor(
    embedder: RouterEmbedder,
    files: IndexFiles,
    feedback: FeedbackLog,
    dense: DenseIndex,
    calibration: Calibration,
    report: OpenReport,
  ) {
    this.embedder = embedder;
    this.indexEmbedder = embedder;
    this.vectors = new VectorStore(embedder.dimension);
    this.files = files;
    this.feedback = feedback;
    this.dense = dense;
    this.calibration = calibration;
    this.report = report;
  }

  /** Loads the persisted index, brings it up to date with `tools` (embedding only what changed), or builds it. */
  static async open(options: RouterOptions): Promise<Router> {
    const { tools, store, embedder } = options;
    if (tools.length === 0) throw new RouterError("the catalog has no tools; there is nothing to route to");
    const names = new Set<string>();
    for (const tool of tools) {
      if (names.has(tool.name)) throw new RouterError(`the catalog has two tools named "${tool.name}"`);
      names.add(tool.name);
    }
    const params = { ...DEFAULT_HNSW, ...options.hnsw };
    const files = new IndexFiles(store, `router/${options.key ?? "default"}`);
    const feedback = new FeedbackLog(store, files.feedbackKey);
    await feedback.load();
    const calibration = (await files.readCalibration(embedder.id)) ?? defaultCalibration(embedder.id, tools);
    const loaded = await files.load(embedder.id, embedder.dimension, params);
    const dense = loaded.dense ?? DenseIndex.create(embedder.dimension, params, tools.length * 2);
    const report: OpenReport = {
      action: loaded.dense ? "loaded" : loaded.reason ? "rebuilt" : "built",
      ...(loaded.reason ? { reason: loaded.reason } : {}),
      embedded: 0,
      entries: 0,
    };
    const router = new Router(embedder, files, feedback, dense, calibration, report);
    if (options.indexEmbedder) router.indexEmbedder = options.indexEmbedder;
    for (const tool of tools) router.tools.set(tool.name, tool);
    const changed = await router.sync(undefined, options.onProgress);
    report.embedded = changed.added;
    report.entries = router.files.entries.size;
    if (loaded.dense && changed.added + changed.removed > 0) report.action = "updated";
    if (changed.added + changed.removed > 0 || !loaded.dense) await router.flush();
    router.buildLexicalAndTiers();
    return router;
  }

  get size(): number {
    return this.tools.size;
  }

  get currentCalibration(): Calibration {
    return this.calibration;
  }

  async route(query: string, options: RouteOptions): Promise<RouteResult> {
    const { text, notices } = checkQuery(query);
    const topK = Math.max(1, Math.floor(options.topK));
    // BM25 needs no vector, so it runs while the embedder works in its worker thread. It waits one turn of the
    // event loop: setImmediate callbacks run in order, so the micro-batcher has sent the query off first.
    const [[vector], lexical] = await Promise.all([
      this.embedder.embed([text]),
      nextTurn().then(() => this.searchLexical(text)),
    ]);
    if (!vector) throw new RouterError("the embedder returned no vector for the query");
    return this.rank(text, vector, topK, options, notices, lexical);
  }

  /** The lexical half of a route, which needs no embedding; public for the benchmark. */
  searchLexical(text: string): LexicalCandidates {
    return searchLexical(this.lexical, this.subword, text);
  }

  /**
   * Everything after the embedding (HNSW, fusion, tiers, threshold; BM25 too unless `lexical` was computed
   * during the embedding); public for the benchmark.
   */
  rank(
    text: string,
    vector: Float32Array,
    topK: number,
    options: Omit<RouteOptions, "topK">,
    notices: string[] = [],
    lexical: LexicalCandidates = this.searchLexical(text),
  ): RouteResult {
    const threshold = options.threshold ?? this.calibration.threshold;
    let tier: 2 | "global" = "global";
    let allowed: Set<string> | undefined;
    if (options.categories?.length) {
      allowed = new Set(options.categories);
      tier = 2;
    } else {
      const choice = this.tiers.choose(vector);
      const minimum = this.calibration.tierConfidence;
      if (choice && minimum !== null && choice.confidence >= minimum) {
        allowed = choice.categories;
        tier = 2;
      }
    }
    let candidates = this.candidates(
      text,
      vector,
      allowed,
      { inGraph: tier === 2 && !!options.categories?.length },
      lexical,
    );
    if (allowed && candidates.dense.size < topK && !options.categories?.length) {
      // Tier 1 chose departments too small to fill the answer: fall back to all tools.
      candidates = this.candidates(text, vector, undefined, {}, lexical);
      tier = "global";
    }
    this.scoreByExamples(candidates.dense, vector);
    const ranked = fuse(candidates, this.calibration).slice(0, topK);
    // The same confidence calibration fitted the threshold on; only the fused score differs per tool.
    const offset = confidence(0, candidates.dense, candidates.reject, this.calibration.rejectWeight);
    const tools = ranked.map((c): RoutedTool => {
      const name = this.files.nameOfNumber(c.name);
      const category = this.categoryOf.get(name);
      return {
        name,
        score: round(c.fused + offset),
        why: {
          dense: round(c.dense),
          lexical: round(c.lexical),
          subword: round(c.subword),
          fused: round(c.fused),
          tier,
          ...(category ? { category } : {}),
        },
      };
    });
    return { query: text, matched: (tools[0]?.score ?? -Infinity) >= threshold, threshold, notices, tools };
  }

  /** The texts a tool brings into the dense index (its text and examples), e.g. to embed them ahead. */
  static textsOf(tool: Tool): string[] {
    return [...new Set([mainText(tool), ...(tool.examples ?? [])])];
  }

  /** Adds or replaces one tool: embeds only its new texts and updates both indexes in place. */
  async upsert(tool: Tool): Promise<void> {
    if (!tool.name) throw new RouterError("a tool needs a name");
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

  /** Learning from use: `query` was rightly served by `toolName`; it becomes an example of that tool. */
  recordFeedback(query: string, toolName: string): Promise<void> {
    return this.recordFeedbackMany([{ query, tool: toolName }]);
  }

  /** Many confirmed pairs at once: one locked write, one batched embedding. */
  async recordFeedbackMany(pairs: readonly { query: string; tool: string }[]): Promise<void> {
    const checked = pairs.map((p) => {
      if (!this.tools.has(p.tool))
        throw new RouterError(`unknown tool "${p.tool}"; feedback must name a tool of the catalog`);
      return { query: checkQuery(p.query).text, tool: p.tool };
    });
    if (checked.length === 0) return;
    await this.feedback.record(checked);
    await this.sync(undefined);
    const learned = this.feedback.byTool();
    for (const name of new Set(checked.map((p) => p.tool)))
      this.lexical.upsert(this.tools.get(name) as Tool, learned.get(name) ?? [], this.files.toolNumber(name));
    this.scheduleSave();
  }

  /**
   * Fits the lexical weight, the no-tool weight and the threshold from labelled queries (tools empty = no
   * tool), keeps the no-tool ones as reject-class examples and persists the result. Queries that are also
   * learned examples are scored in two folds with their own fold's examples left out, so the fit is honest.
   */
  async calibrate(labelled: readonly { query: string; tools: readonly string[] }[]) {
    const items = labelled
      .map((l) => ({ query: normaliseQuery(l.query).slice(0, MAX_QUERY_CHARS), tools: l.tools }))
      .filter((l) => l.query.length > 0);
    if (items.length === 0) throw new RouterError("calibration needs at least one labelled query");
    for (const l of items)
      for (const name of l.tools)
        if (!this.tools.has(name))
          throw new RouterError(`labelled query names unknown tool "${name}": "${l.query}"`);
    // Queries that are already learned examples have their vector in the index.
    const labelOf = new Map<string, number>();
    for (const [label, entry] of this.files.entries)
      if (this.vectors.has(label)) labelOf.set(entry.text, label);
    const unknown = items.filter((l) => !labelOf.has(l.query)).map((l) => l.query);
    const fresh = new Map<string, Float32Array>();
    const embedded = await this.embedder.embed(unknown);
    unknown.forEach((text, i) => {
      fresh.set(text, embedded[i] as Float32Array);
    });
    const vectors = items.map(
      (l) => fresh.get(l.query) ?? (this.vectors.get(labelOf.get(l.query) as number) as Float32Array),
    );
    const scored: LabelledCandidates[] = [];
    for (const fold of [0, 1]) {
      const held = items.filter((_, i) => i % 2 === fold);
      const heldTexts = new Set(held.map((l) => l.query.toLowerCase()));
      const lexical = new LexicalIndex();
      const learned = this.feedback.byTool();
      for (const tool of this.tools.values())
        lexical.upsert(
          tool,
          (learned.get(tool.name) ?? []).filter((q) => !heldTexts.has(q.toLowerCase())),
          this.files.toolNumber(tool.name),
        );
      const excluded = new Set<number>();
      for (const [label, entry] of this.files.entries)
        if (heldTexts.has(entry.text.toLowerCase())) excluded.add(label);
      items.forEach((l, i) => {
        if (i % 2 !== fold) return;
        const vector = vectors[i] as Float32Array;
        const c = this.candidates(l.query, vector, undefined, { holdOut: { lexical, excluded } });
        this.scoreByExamples(c.dense, vector, excluded);
        const choice = this.tiers.choose(vector);
        const tier = choice && {
          confidence: choice.confidence,
          kept: l.tools.every((t) => choice.categories.has(this.categoryOf.get(t) ?? "")),
        };
        const gold = l.tools.map((name) => this.files.toolNumber(name));
        scored.push({ gold, ...c, ...(tier ? { tier } : {}) });
      });
    }
    const result = fit(scored, { rejectWeight: this.calibration.rejectWeight });
    const noTool = items.filter((l) => l.tools.length === 0).map((l) => l.query);
    const positives = items.length - noTool.length;
    this.calibration = {
      version: 1,
      embedderId: this.embedder.id,
      lexicalWeight: result.lexicalWeight,
      subwordShare: result.subwordShare,
      rejectWeight: result.rejectWeight,
      threshold: result.threshold,
      tierConfidence: result.tierConfidence,
      fittedAt: new Date().toISOString(),
      source: `fitted on ${items.length} labelled queries (${positives} with tools, ${noTool.length} without)`,
      noToolQueries: [...new Set([...this.calibration.noToolQueries, ...noTool])].slice(-MAX_NO_TOOL_QUERIES),
    };
    await this.files.writeCalibration(this.calibration);
    await this.sync(null);
    this.scheduleSave();
    return result;
  }

  /** Writes pending index changes now. */
  async flush(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.saving = this.saving.then(() => this.files.save(this.dense));
    await this.saving;
  }

  async close(): Promise<void> {
    await this.flush();
  }

  private scheduleSave(): void {
    // Writing a large index takes longer than the change itself; batch changes that come in bursts.
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.flush().catch(() => {});
    }, 250);
    this.saveTimer.unref();
  }

  private candidates(
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
   * example a little discounted, the mean of its two closest examples and the centroid of all of them. On
   * the MetaTool dev halves with the other half as examples, against the best entry: hit@1 0.688 -> 0.696 /
   * 0.712 -> 0.729, recall@5 0.885 -> 0.893 / 0.878 -> 0.894, AUROC 0.948 -> 0.955 / 0.936 -> 0.943.
   * Without the discounted closest example MetaTool gained a little more but the bundled catalog, whose
   * examples are few and different from each other, lost a query from its top 5.
   * `excluded`: calibration's held-out entries, left out.
   */
  private scoreByExamples(dense: Map<number, number>, vector: Float32Array, excluded?: Set<number>): void {
    for (const tool of dense.keys()) {
      // Most tools of a large catalog have no examples: skipped here, before the cache (which would otherwise
      // gain a null for every tool any route ever considered) and before building their main text for
      // nothing, which showed up in the routing profile at 100k tools.
      if (!this.files.hasSeveralEntries(tool)) continue;
      const name = this.files.nameOfNumber(tool);
      const set = excluded ? this.exampleSetOf(name, excluded) : this.cachedExampleSet(name);
      if (!set) continue;
      let first = -1;
      let second = -1;
      for (const example of set.examples) {
        const s = dot(vector, example);
        if (s > first) {
          second = first;
          first = s;
        } else if (s > second) second = s;
      }
      const main = set.main ? dot(vector, set.main) : -1;
      dense.set(
        tool,
        Math.max(main, first - SINGLE_EXAMPLE_DISCOUNT, (first + second) / 2, dot(vector, set.centroid)),
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
    let main: Float32Array | undefined;
    const examples: Float32Array[] = [];
    for (const label of this.files.labelsOf(name)) {
      const v = this.vectors.get(label);
      if (!v || excluded?.has(label)) continue;
      if (this.files.entries.get(label)?.text === mainOf) main = v;
      else examples.push(v);
    }
    if (examples.length < 2) return null;
    const centroid = new Float32Array((examples[0] as Float32Array).length);
    for (const v of examples) for (let i = 0; i < v.length; i++) (centroid[i] as number) += v[i] as number;
    const norm = Math.sqrt(dot(centroid, centroid)) || 1;
    for (let i = 0; i < centroid.length; i++) (centroid[i] as number) /= norm;
    return { main, examples, centroid };
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
  private async sync(scope: string | null | undefined, onProgress?: (done: number, total: number) => void) {
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
    // The size the embedder batches best (its raw throughput is measured with batches of 64).
    const batch = 64;
    for (let i = 0; i < missing.length; i += batch) {
      const slice = missing.slice(i, i + batch);
      const vectors = await this.indexEmbedder.embed(slice.map((m) => m.text));
      slice.forEach((m, j) => {
        const vector = vectors[j] as Float32Array;
        const label = this.files.nextLabel++;
        this.dense.add(label, vector);
        this.files.setEntry(label, m);
        this.vectors.set(label, vector);
      });
      onProgress?.(Math.min(i + batch, missing.length), missing.length);
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

  private buildLexicalAndTiers(): void {
    const learned = this.feedback.byTool();
    for (const tool of this.tools.values()) {
      const number = this.files.toolNumber(tool.name);
      this.lexical.upsert(tool, learned.get(tool.name) ?? [], number);
      this.subword.upsert(number, ownText(tool));
    }
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

/** How much less a tool's single closest example counts than the mean of its two closest (see scoreByExamples). */
const SINGLE_EXAMPLE_DISCOUNT = 0.05;

/** A tool's main vector, its examples' vectors and their normalised mean. */
interface ExampleSet {
  main: Float32Array | undefined;
  examples: Float32Array[];
  centroid: Float32Array;
}

function entryKey(tool: string | null, text: string): string {
  return `${tool ?? ""}\u0000${text}`;
}

function checkQuery(query: string): { text: string; notices: string[] } {
  if (typeof query !== "string") throw new RouterError("the query must be a string");
  const text = normaliseQuery(query);
  if (text.length === 0) throw new RouterError("the query is empty; say what you want to do");
  if (text.length <= MAX_QUERY_CHARS) return { text, notices: [] };
  return {
    text: text.slice(0, MAX_QUERY_CHARS),
    notices: [`the query was ${text.length} characters long; only its first ${MAX_QUERY_CHARS} were used`],
  };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
