// The query-time router: a query's candidates from the index (router-index.ts), the departments of tier 1,
// a calibrated fusion of dense, lexical and subword scores, the pull of the no-tool class and the
// threshold. Index maintenance lives in router-index.ts and calibration in calibrate.ts; see
// docs/architecture.md for the contract.
import { setImmediate as nextTurn } from "node:timers/promises";
import { canonicalJson, type Tool } from "../catalog/index.ts";
import type { DataStore } from "../store/index.ts";
import { calibrate, type LabelledQuery, MAX_QUERY_CHARS } from "./calibrate.ts";
import { type Calibration, confidence, type Fit } from "./calibration.ts";
import { type Candidates, type LexicalCandidates, searchLexical } from "./candidates.ts";
import { defaultCalibration } from "./defaults.ts";
import { DEFAULT_HNSW, DenseIndex, type HnswParams } from "./dense.ts";
import { RouterError } from "./errors.ts";
import { FeedbackLog, normaliseQuery } from "./feedback.ts";
import { fuse } from "./fusion.ts";
import { IndexFiles } from "./persist.ts";
import { type RouterEmbedder, RouterIndex } from "./router-index.ts";
import { mainText } from "./text.ts";

export type { RouterEmbedder };
export { MAX_QUERY_CHARS };

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
  /**
   * When at least this many texts must be embedded, `open` returns as soon as BM25 and trigrams are built
   * and the dense index fills in the background (see `dense`); unset: `open` waits for the dense index.
   */
  fillInBackgroundFrom?: number;
}

/** The dense index's state: complete, or filling in the background while routes use BM25 and trigrams. */
export type DenseState =
  | { state: "complete" }
  | { state: "filling"; embedded: number; total: number }
  | { state: "failed"; error: string };

export interface RouteOptions {
  topK: number;
  /** Overrides the calibrated threshold. */
  threshold?: number;
  /** Rank only tools of these categories. */
  categories?: string[];
  /** Tools this caller may not be offered (another key's private tools): left out before the top K. */
  hide?: (name: string) => boolean;
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
  private readonly index: RouterIndex;
  private changing: Promise<unknown> = Promise.resolve();
  private denseState: DenseState = { state: "complete" };
  /** Stops a background fill when the router closes. */
  private readonly closing = new AbortController();
  /** Resolves when the dense index is complete; rejects if filling it failed. */
  readonly denseComplete: Promise<void>;

  private constructor(index: RouterIndex, report: OpenReport, filling?: (router: Router) => Promise<void>) {
    this.index = index;
    this.report = report;
    this.denseComplete = filling ? filling(this) : Promise.resolve();
    // Index changes wait for the fill, as they wait for each other (see serial).
    this.changing = this.denseComplete.catch(() => undefined);
  }

  get dense(): DenseState {
    return this.denseState;
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
    const index = new RouterIndex(embedder, files, feedback, dense, calibration, options.indexEmbedder);
    for (const tool of tools) index.tools.set(tool.name, tool);
    const fill = async (onProgress = options.onProgress, signal?: AbortSignal) => {
      const changed = await index.sync(undefined, onProgress, signal);
      report.embedded = changed.added;
      report.entries = files.entries.size;
      if (loaded.dense && changed.added + changed.removed > 0) report.action = "updated";
      if (changed.added + changed.removed > 0 || !loaded.dense) await index.flush();
      index.buildTiers();
    };
    const background = options.fillInBackgroundFrom;
    if (background === undefined || index.missingTexts() < background) {
      await fill();
      index.buildLexical();
      return new Router(index, report);
    }
    index.buildLexical();
    return new Router(index, report, async (router) => {
      router.denseState = { state: "filling", embedded: 0, total: 0 };
      try {
        await fill((embedded, total) => {
          router.denseState = { state: "filling", embedded, total };
          options.onProgress?.(embedded, total);
        }, router.closing.signal);
        if (!router.closing.signal.aborted) router.denseState = { state: "complete" };
      } catch (error) {
        router.denseState = { state: "failed", error: (error as Error).message };
        throw error;
      }
    });
  }

  get size(): number {
    return this.index.tools.size;
  }

  get currentCalibration(): Calibration {
    return this.index.calibration;
  }

  async route(query: string, options: RouteOptions): Promise<RouteResult> {
    const { text, notices } = checkQuery(query);
    const topK = Math.max(1, Math.floor(options.topK));
    if (this.denseState.state !== "complete") return this.rankLexically(text, topK, options, notices);
    // BM25 needs no vector, so it runs while the embedder works in its worker thread. It waits one turn of the
    // event loop: setImmediate callbacks run in order, so the micro-batcher has sent the query off first.
    const [[vector], lexical] = await Promise.all([
      this.index.embedder.embed([text]),
      nextTurn().then(() => this.searchLexical(text)),
    ]);
    if (!vector) throw new RouterError("the embedder returned no vector for the query");
    return this.rank(text, vector, topK, options, notices, lexical);
  }

  /** The lexical half of a route, which needs no embedding; public for the benchmark. */
  searchLexical(text: string): LexicalCandidates {
    return searchLexical(this.index.lexical, this.index.subword, text);
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
    const calibration = this.index.calibration;
    const threshold = options.threshold ?? calibration.threshold;
    const { candidates, tier } = this.scoped(text, vector, topK, options, lexical);
    this.index.scoreByExamples(candidates.dense, vector);
    const fused = fuse(candidates, calibration);
    const { hide } = options;
    const ranked = (hide ? fused.filter((c) => !hide(this.index.files.nameOfNumber(c.name))) : fused).slice(
      0,
      topK,
    );
    // The same confidence calibration fitted the threshold on; only the fused score differs per tool.
    const offset = confidence(0, candidates.dense, candidates.reject, calibration.rejectWeight);
    const tools = ranked.map((c): RoutedTool => {
      const name = this.index.files.nameOfNumber(c.name);
      const category = this.index.categoryOf.get(name);
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

  /**
   * A route while the dense index is not complete: the calibrated mix of BM25 and trigrams alone, matched
   * against the same threshold (both are shares of 0..1), with a notice that says so. A partial dense index
   * would favour whichever tools were embedded first, so it is not consulted at all.
   */
  private rankLexically(
    text: string,
    topK: number,
    options: Omit<RouteOptions, "topK">,
    notices: string[],
  ): RouteResult {
    const { calibration, files } = this.index;
    // Departments are clustered from vectors; while filling, only a tool's given category scopes it.
    const categoryOf = (name: string) => this.index.tools.get(name)?.category;
    const threshold = options.threshold ?? calibration.threshold;
    const lexical = this.searchLexical(text);
    const allowed = options.categories?.length ? new Set(options.categories) : undefined;
    const bm25 = new Map<number, number>();
    for (const [tool, score] of lexical.top) bm25.set(tool, score);
    const inScope = (tool: number) => {
      const name = files.nameOfNumber(tool);
      return (!allowed || allowed.has(categoryOf(name) ?? "")) && !options.hide?.(name);
    };
    const fused = fuse(
      { dense: new Map(), lexical: bm25, subword: lexical.subword },
      { lexicalWeight: 1, subwordShare: calibration.subwordShare },
    ).filter((c) => inScope(c.name));
    const tools = fused.slice(0, topK).map((c): RoutedTool => {
      const name = files.nameOfNumber(c.name);
      const category = categoryOf(name);
      return {
        name,
        score: round(c.fused),
        why: {
          dense: 0,
          lexical: round(c.lexical),
          subword: round(c.subword),
          fused: round(c.fused),
          tier: "global",
          ...(category ? { category } : {}),
        },
      };
    });
    const state = this.denseState;
    const progress = state.state === "filling" ? ` (${state.embedded} of ${state.total} texts embedded)` : "";
    notices.push(
      state.state === "failed"
        ? `the dense index failed to fill (${state.error}); ranked by BM25 and trigrams alone`
        : `the dense index is still filling${progress}; ranked by BM25 and trigrams alone, so matches are less sure`,
    );
    return { query: text, matched: (tools[0]?.score ?? -Infinity) >= threshold, threshold, notices, tools };
  }

  /**
   * The candidates within the departments the caller named, or tier 1 chose with enough confidence; all
   * tools when tier 1 chose departments too small to fill the answer.
   */
  private scoped(
    text: string,
    vector: Float32Array,
    topK: number,
    options: Omit<RouteOptions, "topK">,
    lexical: LexicalCandidates,
  ): { candidates: Candidates; tier: 2 | "global" } {
    if (options.categories?.length) {
      const allowed = new Set(options.categories);
      return {
        candidates: this.index.candidates(text, vector, allowed, { inGraph: true }, lexical),
        tier: 2,
      };
    }
    const choice = this.index.tiers.choose(vector);
    const minimum = this.index.calibration.tierConfidence;
    if (choice && minimum !== null && choice.confidence >= minimum) {
      const candidates = this.index.candidates(text, vector, choice.categories, { inGraph: false }, lexical);
      if (candidates.dense.size >= topK) return { candidates, tier: 2 };
    }
    return { candidates: this.index.candidates(text, vector, undefined, {}, lexical), tier: "global" };
  }

  /** The texts a tool brings into the dense index (its text and examples), e.g. to embed them ahead. */
  static textsOf(tool: Tool): string[] {
    return [...new Set([mainText(tool), ...(tool.examples ?? [])])];
  }

  /**
   * Changes to the index run one at a time: two at once could both find a text missing and add it twice
   * (a tool put while learned queries arrive from another replica, say).
   */
  private serial<T>(change: () => Promise<T>): Promise<T> {
    const result = this.changing.then(change, change);
    this.changing = result.catch(() => undefined);
    return result;
  }

  /** Adds or replaces one tool: embeds only its new texts and updates the indexes in place. */
  async upsert(tool: Tool): Promise<void> {
    if (!tool.name) throw new RouterError("a tool needs a name");
    await this.serial(() => this.index.upsert(tool));
  }

  remove(name: string): Promise<void> {
    return this.serial(() => this.index.remove(name));
  }

  /** The stored documents besides the tools that this router reads: to follow when others change them. */
  get storedKeys(): { learned: string; calibration: string } {
    return { learned: this.index.files.feedbackKey, calibration: this.index.files.calibrationKey };
  }

  /**
   * Takes in learned queries another process recorded (a replica's feedback, `switchboard feedback`), as
   * the recording process did: only the tools concerned change. The number of tools that changed.
   */
  reloadLearned(): Promise<number> {
    return this.serial(() => this.index.relearn());
  }

  /**
   * Takes in a calibration another process wrote (`switchboard calibrate`, another replica): routes use
   * it from the next one on. False when there is none for this embedder or it is the one in use.
   */
  reloadCalibration(): Promise<boolean> {
    return this.serial(async () => {
      const stored = await this.index.files.readCalibration(this.index.embedder.id);
      if (!stored || canonicalJson(stored) === canonicalJson(this.index.calibration)) return false;
      await this.index.useCalibration(stored);
      return true;
    });
  }

  /** Learning from use: `query` was rightly served by `toolName`; it becomes an example of that tool. */
  recordFeedback(query: string, toolName: string): Promise<void> {
    return this.recordFeedbackMany([{ query, tool: toolName }]);
  }

  /** Many confirmed pairs at once: one locked write, one batched embedding. */
  async recordFeedbackMany(pairs: readonly { query: string; tool: string }[]): Promise<void> {
    const checked = pairs.map((p) => {
      if (!this.index.tools.has(p.tool))
        throw new RouterError(`unknown tool "${p.tool}"; feedback must name a tool of the catalog`);
      return { query: checkQuery(p.query).text, tool: p.tool };
    });
    if (checked.length === 0) return;
    await this.serial(() => this.index.learn(checked));
  }

  /** Fits the fusion weights, the threshold and the tier confidence from labelled queries (see calibrate.ts). */
  calibrate(labelled: readonly LabelledQuery[]): Promise<Fit> {
    return this.serial(() => calibrate(this.index, labelled));
  }

  /** Writes pending index changes now. */
  flush(): Promise<void> {
    return this.index.flush();
  }

  async close(): Promise<void> {
    this.closing.abort();
    await this.changing;
    await this.flush();
  }
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
