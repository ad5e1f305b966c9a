// The router's files in the data folder: the HNSW graph (written atomically through DataStore.writeVia) and
// a manifest that says what the graph holds: embedder id and dimension, HNSW parameters, the checksum of
// the graph file and, per label, which tool and text it stands for. Whatever does not check out (another
// embedder, a truncated or corrupt file, a missing manifest) is reported and rebuilt, never read: hnswlib
// would crash on a damaged file rather than throw.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { z } from "zod";
import { type DataStore, StoreError } from "../store/index.ts";
import { type Calibration, calibrationSchema } from "./calibration.ts";
import { DenseIndex, type HnswParams } from "./dense.ts";

export interface Entry {
  /** null: an example of the no-tool class. */
  tool: string | null;
  text: string;
}

const manifestSchema = z.object({
  version: z.literal(1),
  embedderId: z.string(),
  dimension: z.number().int().positive(),
  hnsw: z.object({ m: z.number(), efConstruction: z.number() }),
  checksum: z.string(),
  nextLabel: z.number().int().min(0),
  /** [label, tool or null, text] */
  entries: z.array(z.tuple([z.number().int().min(0), z.string().nullable(), z.string()])),
});

export interface Loaded {
  dense?: DenseIndex;
  /** Why the persisted index could not be used, when there was one. */
  reason?: string;
}

export class IndexFiles {
  readonly entries = new Map<number, Entry>();
  nextLabel = 0;
  private readonly store: DataStore;
  private readonly folder: string;
  /**
   * A small whole number per tool name, kept while the process runs: BM25 numbers its documents with it and
   * a route's candidates are keyed by it. Per number and per label what the hot path asks, in arrays: Maps
   * keyed by names or labels, and the names themselves, miss the CPU cache on a large catalog.
   */
  private readonly numberOf = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly labelsByNumber: number[][] = [];
  private readonly numberByLabel: number[] = [];
  /**
   * Tools with two or more entries (a text and examples). Few in most catalogs, so asking this small set
   * stays in the cache where looking up the labels of any of 100k tools did not.
   */
  private readonly multiple = new Set<number>();
  private embedderId = "";
  private dimension = 0;
  private params: HnswParams | undefined;

  constructor(store: DataStore, folder: string) {
    this.store = store;
    this.folder = folder;
  }

  get feedbackKey(): string {
    return `${this.folder}/feedback.json`;
  }

  private get indexKey(): string {
    return `${this.folder}/dense.hnsw`;
  }

  private get manifestKey(): string {
    return `${this.folder}/manifest.json`;
  }

  get calibrationKey(): string {
    return `${this.folder}/calibration.json`;
  }

  setEntry(label: number, entry: Entry): void {
    this.entries.set(label, entry);
    if (entry.tool !== null) {
      const number = this.toolNumber(entry.tool);
      const list = this.labelsByNumber[number] as number[];
      list.push(label);
      this.numberByLabel[label] = number;
      if (list.length >= 2) this.multiple.add(number);
    }
  }

  deleteEntry(label: number): void {
    const entry = this.entries.get(label);
    if (!entry) return;
    this.entries.delete(label);
    if (entry.tool === null) return;
    const number = this.toolNumber(entry.tool);
    const list = this.labelsByNumber[number] as number[];
    const at = list.indexOf(label);
    if (at >= 0) list.splice(at, 1);
    this.numberByLabel[label] = -1;
    if (list.length < 2) this.multiple.delete(number);
  }

  hasSeveralEntries(number: number): boolean {
    return this.multiple.has(number);
  }

  labelsOf(tool: string): readonly number[] {
    const number = this.numberOf.get(tool);
    return number === undefined ? [] : (this.labelsByNumber[number] as number[]);
  }

  /** The tool's number, given on first use. */
  toolNumber(tool: string): number {
    let number = this.numberOf.get(tool);
    if (number === undefined) {
      number = this.labelsByNumber.length;
      this.numberOf.set(tool, number);
      this.labelsByNumber.push([]);
      this.names.push(tool);
    }
    return number;
  }

  nameOfNumber(number: number): string {
    return this.names[number] as string;
  }

  /** The number of the tool a label stands for; -1 for a no-tool example or no entry. */
  numberOfLabel(label: number): number {
    return this.numberByLabel[label] ?? -1;
  }

  labelsOfNumber(number: number): readonly number[] {
    return this.labelsByNumber[number] ?? [];
  }

  async load(embedderId: string, dimension: number, params: HnswParams): Promise<Loaded> {
    this.embedderId = embedderId;
    this.dimension = dimension;
    this.params = params;
    const none = (reason?: string): Loaded => ({ ...(reason ? { reason } : {}) });
    let manifest: z.infer<typeof manifestSchema> | undefined;
    try {
      manifest = await this.store.readJson(this.manifestKey, manifestSchema);
    } catch (error) {
      if (error instanceof StoreError) return none(`the index manifest is unreadable (${error.message})`);
      throw error;
    }
    if (!manifest) return none();
    if (manifest.embedderId !== embedderId || manifest.dimension !== dimension)
      return none(
        `the index was built with embedder ${manifest.embedderId} (${manifest.dimension} dimensions), not ${embedderId} (${dimension})`,
      );
    if (manifest.hnsw.m !== params.m || manifest.hnsw.efConstruction !== params.efConstruction)
      return none(
        `the index was built with other HNSW parameters (M ${manifest.hnsw.m}, efConstruction ${manifest.hnsw.efConstruction})`,
      );
    const path = this.store.pathOf(this.indexKey);
    const checksum = await fileChecksum(path);
    if (checksum === undefined) return none("the index file is missing");
    if (checksum !== manifest.checksum)
      return none("the index file is truncated or corrupt (checksum mismatch)");
    const dense = await DenseIndex.read(path, dimension, params, manifest.entries.length);
    for (const [label, tool, text] of manifest.entries) this.setEntry(label, { tool, text });
    this.nextLabel = manifest.nextLabel;
    return { dense };
  }

  /** Graph first, then the manifest naming its checksum: a crash in between reads as a mismatch → rebuild. */
  async save(dense: DenseIndex): Promise<void> {
    let checksum = "";
    await this.store.writeVia(this.indexKey, async (temporary) => {
      await dense.write(temporary);
      checksum = (await fileChecksum(temporary)) ?? "";
    });
    await this.store.writeJson(this.manifestKey, {
      version: 1,
      embedderId: this.embedderId,
      dimension: this.dimension,
      hnsw: { m: this.params?.m, efConstruction: this.params?.efConstruction },
      checksum,
      nextLabel: this.nextLabel,
      entries: [...this.entries].map(([label, e]) => [label, e.tool, e.text]),
    });
  }

  async readCalibration(embedderId: string): Promise<Calibration | undefined> {
    try {
      const calibration = await this.store.readJson(this.calibrationKey, calibrationSchema);
      return calibration?.embedderId === embedderId ? calibration : undefined;
    } catch (error) {
      // A damaged calibration falls back to the defaults; `switchboard calibrate` writes a new one.
      if (error instanceof StoreError) return undefined;
      throw error;
    }
  }

  writeCalibration(calibration: Calibration): Promise<void> {
    return this.store.writeJson(this.calibrationKey, calibration);
  }
}

async function fileChecksum(path: string): Promise<string | undefined> {
  const hash = createHash("sha256");
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return hash.digest("hex");
}
