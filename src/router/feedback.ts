// Confirmed (query → tool) pairs: learning from use. Bounded per tool and in total (oldest dropped first),
// deduplicated by normalised text, persisted in the data folder with a locked read-modify-write.
import { z } from "zod";
import type { DataStore } from "../store/index.ts";

export const MAX_FEEDBACK_PER_TOOL = 64;
export const MAX_FEEDBACK_TOTAL = 20_000;

const feedbackSchema = z.object({
  version: z.literal(1),
  /** Oldest first. */
  pairs: z.array(z.object({ query: z.string(), tool: z.string() })),
});
type FeedbackFile = z.infer<typeof feedbackSchema>;

export type FeedbackPair = { query: string; tool: string };

export function normaliseQuery(query: string): string {
  return query.trim().replace(/\s+/g, " ");
}

/** Adds `pair` to `pairs` (a copy), keeping the bounds; an existing equal pair moves to the newest place. */
export function addPair(pairs: FeedbackPair[], pair: FeedbackPair): FeedbackPair[] {
  const key = normaliseQuery(pair.query).toLowerCase();
  const next = pairs.filter((p) => !(p.tool === pair.tool && normaliseQuery(p.query).toLowerCase() === key));
  next.push({ query: normaliseQuery(pair.query), tool: pair.tool });
  const forTool = next.filter((p) => p.tool === pair.tool);
  if (forTool.length > MAX_FEEDBACK_PER_TOOL) next.splice(next.indexOf(forTool[0] as FeedbackPair), 1);
  if (next.length > MAX_FEEDBACK_TOTAL) next.splice(0, next.length - MAX_FEEDBACK_TOTAL);
  return next;
}

export class FeedbackLog {
  private readonly store: DataStore;
  private readonly key: string;
  private pairs: FeedbackPair[] = [];

  constructor(store: DataStore, key: string) {
    this.store = store;
    this.key = key;
  }

  async load(): Promise<void> {
    this.pairs = (await this.store.readJson(this.key, feedbackSchema))?.pairs ?? [];
  }

  /** Records pairs in one locked write (and takes in what other processes recorded meanwhile). */
  async record(pairs: readonly FeedbackPair[]): Promise<void> {
    const saved = await this.store.updateJson(
      this.key,
      feedbackSchema,
      (current): FeedbackFile => ({
        version: 1,
        pairs: pairs.reduce(addPair, current?.pairs ?? []),
      }),
    );
    this.pairs = saved.pairs;
  }

  /** Learned queries per tool, oldest first. */
  byTool(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const { query, tool } of this.pairs) {
      const list = out.get(tool) ?? [];
      list.push(query);
      out.set(tool, list);
    }
    return out;
  }
}
