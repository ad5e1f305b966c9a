// Feedback on routing: every pair must name a tool the voter may use; a maintainer's pairs are learned at
// once, an agent key's are votes until a quorum agrees (feedback-gate.ts). One locked write and one
// embedding batch for the whole request.
import { didYouMean, type ToolRegistry } from "../catalog/index.ts";
import type { DataStore } from "../store/index.ts";
import { FeedbackGate, type FeedbackOutcome, type PendingVote, type Voter } from "./feedback-gate.ts";
import type { LiveIndex } from "./live-index.ts";
import type { FeedbackPair } from "./requests.ts";
import { storeProblem } from "./scale-out.ts";
import type { ToolDirectory } from "./tool-directory.ts";
import { AppError } from "./types.ts";

export interface FeedbackDeps {
  store: DataStore;
  /** Distinct agent keys that must agree before an agent key's pair is learned. */
  quorum: number;
  registry: ToolRegistry;
  directory: ToolDirectory;
  index: LiveIndex;
}

export class Feedback {
  readonly #deps: FeedbackDeps;
  readonly #gate: FeedbackGate;

  constructor(deps: FeedbackDeps) {
    this.#deps = deps;
    this.#gate = new FeedbackGate(deps.store, deps.quorum);
  }

  async give(pairs: FeedbackPair[], voter: Voter): Promise<FeedbackOutcome> {
    const { registry, directory, index } = this.#deps;
    const unknown = pairs.flatMap((p, i) =>
      directory.get(p.tool, voter)
        ? []
        : [`pairs.${i}.tool "${p.tool}"${didYouMean(p.tool, directory.names(voter))}`],
    );
    if (unknown.length > 0) throw new AppError("not_found", `unknown tool(s): ${unknown.join(", ")}`);
    try {
      const { learn, outcome } = await this.#gate.vote(pairs, voter, (name) => registry.get(name));
      if (learn.length > 0) await (await index.router()).recordFeedbackMany(learn);
      return outcome;
    } catch (error) {
      throw storeProblem(error);
    }
  }

  /** Agent keys' votes still short of the quorum, oldest first. */
  votes(): Promise<PendingVote[]> {
    return this.#gate.pending().catch((error) => Promise.reject(storeProblem(error)));
  }
}
