// The ranked candidates of a route: each tool's score as a bar on one scale with the threshold drawn as a
// line across all of them, and the parts of its fused score (dense, lexical, subword, tier).
import type { Candidate } from "./shapes.ts";
import { score } from "./ui.tsx";

/** The scale every bar shares: 0..1, widened to whatever scores and threshold fall outside it. */
function scale(values: number[]): (value: number) => number {
  const low = Math.min(0, ...values);
  const high = Math.max(1, ...values);
  return (value) => ((value - low) / (high - low)) * 100;
}

export function CandidateList({
  candidates,
  threshold,
  onFeedback,
  pending,
}: {
  candidates: Candidate[];
  threshold: number;
  onFeedback?: (tool: string) => void;
  pending?: string | undefined;
}) {
  const at = scale([threshold, ...candidates.map((c) => c.score)]);
  return (
    <div class="candidates-wrap">
      <p class="threshold-legend">
        <span class="threshold-swatch" aria-hidden="true" /> Threshold τ ={" "}
        <strong data-threshold={threshold}>{score(threshold)}</strong>: a tool is matched when its score
        reaches it.
      </p>
      <div class="candidate-head" aria-hidden="true">
        <span>Tool</span>
        <span>Score</span>
        <span>Fused = dense · lexical · subword</span>
        <span>Tier</span>
        <span />
      </div>
      <ol class="candidates" aria-label="Candidates">
        {candidates.map((c, i) => {
          const why = c.why;
          const clears = c.score >= threshold;
          return (
            <li
              key={c.name}
              class={clears ? "candidate clears" : "candidate"}
              data-tool={c.name}
              data-score={c.score}
            >
              <span class="candidate-name">
                <span class="rank">{i + 1}.</span> <strong>{c.name}</strong>
                {why.category ? <span class="muted"> · {why.category}</span> : null}
              </span>
              <span class="candidate-score">
                <span
                  class="bar-track"
                  role="img"
                  aria-label={`score ${score(c.score)}, threshold ${score(threshold)}`}
                >
                  <span class="bar" style={{ width: `${at(c.score)}%` }} />
                  <span class="threshold-line" style={{ left: `${at(threshold)}%` }} />
                </span>
                <span class="number">{score(c.score)}</span>
                <span class="visually-hidden">
                  {clears ? " clears the threshold" : " below the threshold"}
                </span>
              </span>
              <span class="candidate-parts">
                fused <b>{score(why.fused)}</b> = dense {score(why.dense)} · lexical {score(why.lexical)} ·
                subword {score(why.subword)}
              </span>
              <span class="candidate-tier">tier {String(why.tier)}</span>
              <span>
                {onFeedback ? (
                  <button
                    type="button"
                    class="small"
                    disabled={pending !== undefined}
                    onClick={() => onFeedback(c.name)}
                    aria-label={`Confirm ${c.name} as the right tool`}
                  >
                    {pending === c.name ? "Sending…" : "Right tool"}
                  </button>
                ) : null}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
