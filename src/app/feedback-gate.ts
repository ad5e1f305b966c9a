// Who may teach the router. Learned queries change what every caller gets, so one agent key alone must not
// decide them: an agent key's pair is a vote, kept in the data folder, and it becomes a learned query only
// once `quorum` distinct agent keys sent it. A maintainer key (or the keyless local operator) may edit the
// catalog anyway, so its pairs are learned at once. Agent keys never teach a tool that may be destructive:
// a wrong route there cannot be undone. See SECURITY.md, "Learning from use".
import { z } from "zod";
import type { Tool } from "../catalog/index.ts";
import type { DataStore } from "../store/index.ts";

export const VOTES_KEY = "feedback/votes.json";
/** Pending (query, tool) votes kept at most; the oldest go first, as learned pairs do. */
export const MAX_PENDING_VOTES = 20_000;

const votesSchema = z.object({
  version: z.literal(1),
  /** Oldest first; `voters` are key ids (a key's role and position), never keys. */
  votes: z.array(z.object({ query: z.string(), tool: z.string(), voters: z.array(z.string()) })),
});
type Votes = z.infer<typeof votesSchema>;

export interface Voter {
  role: "agent" | "maintainer";
  id: string;
}

export interface FeedbackPair {
  query: string;
  tool: string;
}

/** A (query, tool) pair some agent keys voted for, and how many distinct keys it needs. */
export interface PendingVote {
  query: string;
  tool: string;
  voters: string[];
  needed: number;
}

export interface FeedbackOutcome {
  /** Pairs taken in: learned now or counted as a vote. */
  recorded: number;
  /** Pairs that teach the router from now on. */
  learned: number;
  /** Pairs waiting for more distinct agent keys. */
  pending: number;
  /** Pairs an agent key sent for a possibly destructive tool: never learned from agent keys. */
  ignored: number;
}

/** MCP's defaults: a tool not marked read-only is presumed destructive unless it says otherwise. */
export function mayBeDestructive(tool: Tool): boolean {
  const hints = tool.annotations ?? {};
  return hints.readOnlyHint !== true && hints.destructiveHint !== false;
}

const voteKey = (pair: FeedbackPair) =>
  `${pair.tool}\n${pair.query.trim().replace(/\s+/g, " ").toLowerCase()}`;

export class FeedbackGate {
  readonly #store: DataStore;
  readonly #quorum: number;

  constructor(store: DataStore, quorum: number) {
    this.#store = store;
    this.#quorum = quorum;
  }

  /**
   * Sorts one request's pairs: those to learn now (returned in `learn`) and those that stay votes (saved in
   * one locked write). A key that votes twice for a pair still counts once.
   */
  async vote(
    pairs: readonly FeedbackPair[],
    voter: Voter,
    getTool: (name: string) => Tool | undefined,
  ): Promise<{ learn: FeedbackPair[]; outcome: FeedbackOutcome }> {
    const outcome: FeedbackOutcome = { recorded: 0, learned: 0, pending: 0, ignored: 0 };
    if (voter.role === "maintainer" || this.#quorum <= 1) {
      const learn = voter.role === "maintainer" ? [...pairs] : this.#teachable(pairs, getTool, outcome);
      return { learn, outcome: { ...outcome, recorded: learn.length, learned: learn.length } };
    }
    // One vote per pair and key, even when a request repeats a pair.
    const ballots = [
      ...new Map(this.#teachable(pairs, getTool, outcome).map((p) => [voteKey(p), p])).values(),
    ];
    if (ballots.length === 0) return { learn: [], outcome };
    let learn: FeedbackPair[] = [];
    await this.#store.updateJson(VOTES_KEY, votesSchema, (current): Votes => {
      const byKey = new Map((current?.votes ?? []).map((v) => [voteKey(v), v]));
      learn = [];
      for (const pair of ballots) {
        const key = voteKey(pair);
        const vote = byKey.get(key) ?? { query: pair.query, tool: pair.tool, voters: [] };
        if (!vote.voters.includes(voter.id)) vote.voters.push(voter.id);
        // Re-inserted so that the map's order stays oldest-first by last vote.
        byKey.delete(key);
        if (vote.voters.length >= this.#quorum) learn.push({ query: vote.query, tool: vote.tool });
        else byKey.set(key, vote);
      }
      const votes = [...byKey.values()];
      return { version: 1, votes: votes.slice(Math.max(0, votes.length - MAX_PENDING_VOTES)) };
    });
    const learnedKeys = new Set(learn.map(voteKey));
    const pending = ballots.filter((p) => !learnedKeys.has(voteKey(p))).length;
    return {
      learn,
      outcome: { ...outcome, recorded: ballots.length, learned: ballots.length - pending, pending },
    };
  }

  /** The votes still waiting for a quorum, oldest first. */
  async pending(): Promise<PendingVote[]> {
    const current = await this.#store.readJson(VOTES_KEY, votesSchema);
    return (current?.votes ?? []).map((vote) => ({ ...vote, needed: this.#quorum }));
  }

  #teachable(
    pairs: readonly FeedbackPair[],
    getTool: (name: string) => Tool | undefined,
    outcome: FeedbackOutcome,
  ): FeedbackPair[] {
    return pairs.filter((pair) => {
      const tool = getTool(pair.tool);
      if (tool && !mayBeDestructive(tool)) return true;
      outcome.ignored++;
      return false;
    });
  }
}
