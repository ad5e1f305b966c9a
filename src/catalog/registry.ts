// The live set of tools: the catalog given by path (read-only files) with an overlay in the data store on
// top (tools put through the API or registered by synthesis, and deletions). The overlay is one JSON file
// changed only by locked read-modify-write, so two processes never lose each other's updates, and a change
// is announced as an event so the router can re-index one tool instead of rebuilding.
import { EventEmitter } from "node:events";
import { z } from "zod";
import type { DataStore } from "../store/index.ts";
import { type AdmissionRules, admissionIssues } from "./admission.ts";
import { bindingIssues } from "./binding-check.ts";
import { checkJsonSchema, type SchemaIssue } from "./json-schema.ts";
import { loadCatalog } from "./load.ts";
import { type Tool, toolSchema } from "./schema.ts";

export const OVERLAY_KEY = "catalog/overlay.json";

export type ToolOrigin = "catalog" | "api" | "synthesized";

/**
 * Where a synthesized tool came from, and whether everyone may use it: a tool written for an agent key's
 * request is `pending`, routed and listed for that key only, until a maintainer promotes it.
 */
export const synthesisProvenanceSchema = z.strictObject({
  status: z.enum(["pending", "published"]),
  /** The id of the key it was written for (a fingerprint, never the key); absent for the local operator. */
  owner: z.string().optional(),
  /** ISO time it was synthesized. */
  at: z.string(),
  /** What was asked for: the route-and-execute query, or the synthesize request's description. */
  request: z.string(),
  /** ISO time a maintainer promoted it. */
  promotedAt: z.string().optional(),
});
export type SynthesisProvenance = z.infer<typeof synthesisProvenanceSchema>;

export interface RegistryEntry {
  tool: Tool;
  origin: ToolOrigin;
  version: number;
  /** ISO time of the last put; absent for tools that come from the catalog files. */
  updatedAt?: string;
  /** Synthesized tools only. */
  synthesis?: SynthesisProvenance;
}

/** A synthesized tool that only its owner's key may route to (and only it and maintainers see). */
export const isPending = (entry: RegistryEntry): boolean => entry.synthesis?.status === "pending";

export type ToolChange = { type: "put" | "delete"; tool: Tool };

const overlayEntrySchema = z.union([
  z.strictObject({
    version: z.number().int().positive(),
    updatedAt: z.string(),
    origin: z.enum(["api", "synthesized"]),
    synthesis: synthesisProvenanceSchema.optional(),
    tool: toolSchema,
  }),
  // A tombstone: hides a catalog tool and keeps the version counting up if the name is put again.
  z.strictObject({
    name: z.string(),
    version: z.number().int().positive(),
    updatedAt: z.string(),
    deleted: z.literal(true),
  }),
]);
// A list rather than an object keyed by name, so that no tool name ("__proto__") is special.
const overlaySchema = z.strictObject({ tools: z.array(overlayEntrySchema) });
type Overlay = z.infer<typeof overlaySchema>;
type OverlayEntry = Overlay["tools"][number];

const entryName = (entry: OverlayEntry) => ("deleted" in entry ? entry.name : entry.tool.name);

/** A put that would store an unusable tool; `issues` carry the field paths. */
export class ToolValidationError extends Error {
  readonly issues: SchemaIssue[];
  constructor(name: string, issues: SchemaIssue[]) {
    super(`tool ${name} is invalid: ${issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ")}`);
    this.name = "ToolValidationError";
    this.issues = issues;
  }
}

/** Nothing beyond the schema: no command, no secret (what a registry allows unless told otherwise). */
const NO_GRANTS: AdmissionRules = { mcpCommands: [], toolSecrets: [] };

function validateTool(candidate: unknown, rules: AdmissionRules): Tool {
  const rawName = (candidate as { name?: unknown } | null)?.name;
  // JSON quoting shows a control character or a bidirectional override as an escape, not as itself.
  const label = typeof rawName === "string" && rawName ? JSON.stringify(rawName.slice(0, 80)) : "(unnamed)";
  const parsed = toolSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new ToolValidationError(
      label,
      parsed.error.issues.map((issue) => ({
        path: issue.path.map(String).join("."),
        message: issue.message,
      })),
    );
  }
  const issues: SchemaIssue[] = admissionIssues(parsed.data, rules);
  for (const field of ["inputSchema", "outputSchema"] as const) {
    const schema = parsed.data[field];
    if (!schema) continue;
    for (const issue of checkJsonSchema(schema)) {
      issues.push({
        path: issue.path ? `${field}.${issue.path}` : field,
        message: `invalid JSON Schema: ${issue.message}`,
      });
    }
  }
  issues.push(...bindingIssues(parsed.data));
  if (issues.length > 0) throw new ToolValidationError(label, issues);
  return parsed.data;
}

export interface RegistryOptions {
  store: DataStore;
  /** A catalog file or folder; its tools are the base that the overlay changes. */
  catalog?: string;
  /** What tools put through the API or synthesized may use (commands, secrets); nothing by default. */
  admission?: AdmissionRules;
}

export class ToolRegistry extends EventEmitter<{ change: [ToolChange] }> {
  readonly #store: DataStore;
  readonly #base: Map<string, Tool>;
  readonly #rules: AdmissionRules;
  #view = new Map<string, RegistryEntry>();
  /** The pending synthesized tools, kept apart so that routing filters only these. */
  #pending: RegistryEntry[] = [];
  // Writes from this process go one at a time; the file lock orders them against other processes.
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(store: DataStore, base: Tool[], rules: AdmissionRules) {
    super();
    this.#store = store;
    this.#rules = rules;
    this.#base = new Map(base.map((tool) => [tool.name, tool]));
  }

  /** Loads the catalog (throws CatalogError listing every problem) and the persisted overlay. */
  static async open(options: RegistryOptions): Promise<ToolRegistry> {
    const base = options.catalog === undefined ? [] : await loadCatalog(options.catalog);
    const registry = new ToolRegistry(options.store, base, options.admission ?? NO_GRANTS);
    registry.#apply(await options.store.readJson(OVERLAY_KEY, overlaySchema));
    return registry;
  }

  list(): Tool[] {
    return [...this.#view.values()].map((entry) => entry.tool);
  }

  get(name: string): Tool | undefined {
    return this.#view.get(name)?.tool;
  }

  /** Where a tool comes from and its version, for listings and provenance. */
  entry(name: string): RegistryEntry | undefined {
    return this.#view.get(name);
  }

  entries(): RegistryEntry[] {
    return [...this.#view.values()];
  }

  /** Synthesized tools awaiting a maintainer's review (private to the key they were written for). */
  pending(): readonly RegistryEntry[] {
    return this.#pending;
  }

  /** Why a tool could not be stored through the API or by synthesis (beyond its schema); empty if it can. */
  admit(tool: Tool): SchemaIssue[] {
    return admissionIssues(tool, this.#rules);
  }

  /**
   * Validates and stores a tool (replacing one of the same name) with the next version. Throws
   * ToolValidationError before touching the store, so a bad put never costs what is already stored.
   */
  async put(
    candidate: unknown,
    origin: "api" | "synthesized",
    synthesis?: SynthesisProvenance,
  ): Promise<RegistryEntry> {
    const tool = validateTool(candidate, this.#rules);
    return this.#change(tool.name, (current) => ({
      version: current + 1,
      updatedAt: new Date().toISOString(),
      origin,
      ...(origin === "synthesized" && synthesis ? { synthesis } : {}),
      tool: { ...tool, version: current + 1 },
    }));
  }

  /**
   * Publishes a pending synthesized tool: from now on it is routed for every key. Its version stays, since
   * the tool itself does not change. "unknown" or "published" when there was nothing to promote.
   */
  async promote(name: string): Promise<RegistryEntry | "unknown" | "published"> {
    let refusal: "unknown" | "published" | undefined;
    const entry = await this.#change(name, (_current, present, own) => {
      if (!present) refusal = "unknown";
      if (!present || !own || "deleted" in own || own.synthesis?.status !== "pending") {
        refusal ??= "published";
        return undefined;
      }
      const promotedAt = new Date().toISOString();
      return {
        ...own,
        updatedAt: promotedAt,
        synthesis: { ...own.synthesis, status: "published", promotedAt },
      };
    });
    return refusal ?? entry;
  }

  /** Removes a tool (a catalog tool is hidden by a tombstone); false when there is no such tool. */
  async delete(name: string): Promise<boolean> {
    let existed = false;
    await this.#change(name, (current, present) => {
      existed = present;
      return present
        ? { name, version: current + 1, updatedAt: new Date().toISOString(), deleted: true as const }
        : undefined;
    });
    return existed;
  }

  /** Re-reads the overlay, picking up changes made by other processes; emits an event per change. */
  reload(): Promise<void> {
    // In the write queue, so a slow read cannot apply an overlay older than one a write here just applied.
    const run = async () => this.#apply(await this.#store.readJson(OVERLAY_KEY, overlaySchema));
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  #change(
    name: string,
    next: (
      currentVersion: number,
      present: boolean,
      own: OverlayEntry | undefined,
    ) => OverlayEntry | undefined,
  ): Promise<RegistryEntry> {
    const run = async () => {
      const overlay = await this.#store.updateJson(OVERLAY_KEY, overlaySchema, (stored) => {
        const tools = [...(stored?.tools ?? [])];
        const index = tools.findIndex((entry) => entryName(entry) === name);
        const own = tools[index];
        const base = this.#base.get(name);
        const current = own?.version ?? (base ? (base.version ?? 1) : 0);
        const present = own ? !("deleted" in own) : base !== undefined;
        const entry = next(current, present, own);
        if (entry && own) tools[index] = entry;
        else if (entry) tools.push(entry);
        return { tools };
      });
      this.#apply(overlay);
      return this.#view.get(name) as RegistryEntry;
    };
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  #apply(overlay: Overlay | undefined): void {
    const view = new Map<string, RegistryEntry>();
    for (const [name, tool] of this.#base) {
      view.set(name, { tool, origin: "catalog", version: tool.version ?? 1 });
    }
    for (const entry of overlay?.tools ?? []) {
      const name = entryName(entry);
      if ("deleted" in entry) view.delete(name);
      else
        view.set(name, {
          tool: entry.tool,
          origin: entry.origin,
          version: entry.version,
          updatedAt: entry.updatedAt,
          ...(entry.synthesis ? { synthesis: entry.synthesis } : {}),
        });
    }
    const previous = this.#view;
    this.#view = view;
    this.#pending = [...view.values()].filter(isPending);
    for (const [name, entry] of view) {
      const before = previous.get(name);
      if (!before || before.version !== entry.version || before.origin !== entry.origin) {
        this.emit("change", { type: "put", tool: entry.tool });
      }
    }
    for (const [name, entry] of previous) {
      if (!view.has(name)) this.emit("change", { type: "delete", tool: entry.tool });
    }
  }
}
