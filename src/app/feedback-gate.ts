// Who may teach the router. Learned queries change what every caller gets, so one agent key alone must not
// decide them: an agent key's pair is a vote, kept in the data store, and it becomes a learned query only
// once `quorum` distinct agent keys sent it. A maintainer key (or the keyless local operator) may edit the
// catalog anyway, so its pairs are learned at once. Agent keys never teach a tool that may be destructive:
// a wrong route there cannot be undone. See SECURITY.md, "Learning from use".
//
// Votes are stored one small document per pending pair (its voters) and one per key (its pending pairs,
// newest last, at most MAX_PENDING_VOTES_PER_KEY): a request reads and writes only the documents of its own
// pairs and its own key, never all pending votes, and a key that floods pushes out only its own votes.
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Tool } from "../catalog/index.ts";
import type { DataStore } from "../store/index.ts";

/** Where every pending vote lived in one document before: read once, moved, then removed. */
export const LEGACY_VOTES_KEY = "feedback/votes.json";
/** Pending (query, tool) votes kept per agent key; its oldest go first. */
export const MAX_PENDING_VOTES_PER_KEY = 2_000;

const legacySchema = z.object({
  version: z.literal(1),
  votes: z.array(z.object({ query: z.string(), tool: z.string(), voters: z.array(z.string()) })),
});
/** One pending pair; `voters` are key ids (a key's role and position), never keys. */
const pairVotesSchema = z.object({
  query: z.string(),
  tool: z.string(),
  voters: z.array(z.string()),
  /** When its first vote came (ms since the epoch), to list pending votes oldest first. */
  since: z.number().optional(),
});
type PairVotes = z.infer<typeof pairVotesSchema>;
/** One key's pending pairs, as pair ids, oldest first. */
const keyVotesSchema = z.object({ pairs: z.array(z.string()) });

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
const pairId = (pair: FeedbackPair) => createHash("sha256").update(voteKey(pair)).digest("hex").slice(0, 32);
const PAIRS_FOLDER = "feedback/pairs";
export const pairVotesKey = (id: string) => `${PAIRS_FOLDER}/${id}.json`;
export const keyVotesKey = (voter: string) => `feedback/keys/${encodeURIComponent(voter)}.json`;

export class FeedbackGate {
  readonly #store: DataStore;
  readonly #quorum: number;
  /** The move of a legacy votes document, begun once per gate; votes wait for it. */
  #migrated: Promise<void> | undefined;

  constructor(store: DataStore, quorum: number) {
    this.#store = store;
    this.#quorum = quorum;
  }

  /**
   * Sorts one request's pairs: those to learn now (returned in `learn`) and those that stay votes. A key
   * that votes twice for a pair still counts once.
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
    this.#migrated ??= this.#migrateLegacy();
    await this.#migrated;
    // The key's list first: a crash after it leaves an entry that points nowhere, which is harmless.
    const evicted = await this.#remember(voter.id, ballots.map(pairId));
    const learn: FeedbackPair[] = [];
    await Promise.all(
      ballots.map(async (pair) => {
        if (await this.#addVoter(pair, voter.id)) learn.push({ query: pair.query, tool: pair.tool });
      }),
    );
    await Promise.all(evicted.map((id) => this.#removeVoter(id, voter.id)));
    const pending = ballots.length - learn.length;
    return {
      learn,
      outcome: { ...outcome, recorded: ballots.length, learned: learn.length, pending },
    };
  }

  /**
   * The votes still waiting for a quorum, oldest first. A maintainer's view: it reads every pending pair's
   * document, which no agent request does.
   */
  async pending(): Promise<PendingVote[]> {
    this.#migrated ??= this.#migrateLegacy();
    await this.#migrated;
    const keys = await this.#store.list(PAIRS_FOLDER);
    const votes = await Promise.all(keys.map((key) => this.#store.readJson(key, pairVotesSchema)));
    return votes
      .filter((vote): vote is PairVotes => vote !== undefined && vote.voters.length > 0)
      .sort((a, b) => (a.since ?? 0) - (b.since ?? 0))
      .map(({ query, tool, voters }) => ({ query, tool, voters, needed: this.#quorum }));
  }

  /** Adds pair ids to the key's list (moved to the end when there), and returns those pushed out. */
  async #remember(voter: string, ids: string[]): Promise<string[]> {
    let evicted: string[] = [];
    await this.#store.updateJson(keyVotesKey(voter), keyVotesSchema, (current) => {
      const fresh = new Set(ids);
      const kept = [...(current?.pairs ?? []).filter((id) => !fresh.has(id)), ...fresh];
      const over = Math.max(0, kept.length - MAX_PENDING_VOTES_PER_KEY);
      evicted = kept.slice(0, over);
      return { pairs: kept.slice(over) };
    });
    return evicted;
  }

  /** Counts the key's vote for the pair; true when that completes the quorum (the pair is then learned). */
  async #addVoter(pair: FeedbackPair, voter: string): Promise<boolean> {
    const key = pairVotesKey(pairId(pair));
    const votes = await this.#store.updateJson(key, pairVotesSchema, (current): PairVotes => {
      const voters = current?.voters ?? [];
      return {
        query: current?.query ?? pair.query,
        tool: current?.tool ?? pair.tool,
        voters: voters.includes(voter) ? voters : [...voters, voter],
        since: current?.since ?? Date.now(),
      };
    });
    if (votes.voters.length < this.#quorum) return false;
    await this.#store.delete(key);
    return true;
  }

  async #removeVoter(id: string, voter: string): Promise<void> {
    const key = pairVotesKey(id);
    if ((await this.#store.readBytes(key)) === undefined) return;
    const votes = await this.#store.updateJson(key, pairVotesSchema, (current) => ({
      ...(current ?? { query: "", tool: "" }),
      voters: (current?.voters ?? []).filter((v) => v !== voter),
    }));
    if (votes.voters.length === 0) await this.#store.delete(key);
  }

  /**
   * Moves the votes of the single document earlier versions kept into the per-pair and per-key documents,
   * then removes it. Merging is idempotent, so two processes moving it at once lose nothing.
   */
  async #migrateLegacy(): Promise<void> {
    const legacy = await this.#store.readJson(LEGACY_VOTES_KEY, legacySchema);
    if (!legacy) return;
    const byVoter = new Map<string, string[]>();
    for (const vote of legacy.votes) {
      const id = pairId(vote);
      for (const voter of vote.voters) byVoter.set(voter, [...(byVoter.get(voter) ?? []), id]);
      await this.#store.updateJson(pairVotesKey(id), pairVotesSchema, (current) => ({
        query: current?.query ?? vote.query,
        tool: current?.tool ?? vote.tool,
        voters: [...new Set([...(current?.voters ?? []), ...vote.voters])],
        // The old document kept them oldest first.
        since: current?.since ?? Date.now(),
      }));
    }
    for (const [voter, ids] of byVoter) {
      const evicted = await this.#remember(voter, ids);
      for (const id of evicted) await this.#removeVoter(id, voter);
    }
    await this.#store.delete(LEGACY_VOTES_KEY);
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
