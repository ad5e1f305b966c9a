// A route-and-execute answer step by step: the candidates it weighed, the arguments it read (each value
// marked where it stands in the request), the validation, the execution with its provenance, and any
// question it asked.
import type { ComponentChildren } from "preact";
import type { RouteAndExecuteResponse, Step } from "./shapes.ts";
import { duration, Json, score } from "./ui.tsx";

type Filled = Extract<Step, { step: "arguments" }>["filled"][number];

/** The request with each value read from it marked, so a wrong reading shows where it came from. */
function MarkedQuery({ query, filled }: { query: string; filled: Filled[] }) {
  const spans = filled
    .flatMap((f) => (f.span ? [{ ...f.span, field: f.field }] : []))
    .sort((a, b) => a.start - b.start);
  const parts: ComponentChildren[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.start < at) continue;
    parts.push(query.slice(at, span.start));
    parts.push(
      <mark key={`${span.field}-${span.start}`} title={span.field}>
        {query.slice(span.start, span.end)}
        <span class="mark-field">{span.field}</span>
      </mark>,
    );
    at = span.end;
  }
  parts.push(query.slice(at));
  return <p class="marked-query">{parts}</p>;
}

function StepBody({ step, query }: { step: Step; query: string }) {
  switch (step.step) {
    case "route":
      return (
        <>
          <p>
            {step.matched ? "Matched" : "Nothing matched"} at threshold {score(step.threshold)}
            {step.routedText ? ` (routed as “${step.routedText}”)` : ""}.
          </p>
          <ol class="plain">
            {step.candidates.map((c) => (
              <li key={c.name}>
                <strong>{c.name}</strong> {score(c.score)}
                {c.adjusted !== undefined ? ` → ${score(c.adjusted)}` : ""}
                {c.why?.length ? <span class="muted"> ({c.why.join("; ")})</span> : null}
              </li>
            ))}
          </ol>
        </>
      );
    case "arguments":
      return (
        <>
          <p>
            Arguments for <strong>{step.tool}</strong>
            {step.llmProblem ? ` (LLM: ${step.llmProblem})` : ""}:
          </p>
          <MarkedQuery query={query} filled={step.filled} />
          <table class="grid">
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Value</th>
                <th scope="col">Source</th>
                <th scope="col">Span</th>
              </tr>
            </thead>
            <tbody>
              {step.filled.map((f) => (
                <tr key={f.field}>
                  <td>{f.field}</td>
                  <td>
                    <code>{JSON.stringify(f.value)}</code>
                  </td>
                  <td>
                    {f.source}
                    {f.how ? ` (${f.how})` : ""}
                  </td>
                  <td>{f.span ? `${f.span.start}–${f.span.end} “${f.span.text}”` : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      );
    case "split":
      return <p>Split into {step.intents.map((i) => `“${i}”`).join(", ")}.</p>;
    case "validate":
      return (
        <>
          <p>
            Arguments for <strong>{step.tool}</strong> {step.ok ? "are valid" : "are invalid"}.
          </p>
          {step.issues?.length ? <Json value={step.issues} label="Validation issues" /> : null}
        </>
      );
    case "execute": {
      const r = step.result;
      return (
        <>
          <p>
            <strong>{r.name}</strong> <span class={`state state-${r.status}`}>{r.status}</span> in{" "}
            {duration(r.timing.totalMs)} (queued {duration(r.timing.queuedMs)}), {r.provenance.attempts}{" "}
            attempt(s)
            {r.provenance.provider ? ` via ${r.provenance.provider}` : ""}
            {r.provenance.stale ? ", stale cache" : ""}.
          </p>
          {r.error ? (
            <p class="problem">
              {r.error.class}: {r.error.message}
            </p>
          ) : null}
          <Json value={r.output} label={`Output of ${r.name}`} />
          <details>
            <summary>Provenance</summary>
            <Json value={r.provenance} label="Provenance" />
          </details>
        </>
      );
    }
    case "synthesize": {
      if (step.ok)
        return (
          <p>
            Synthesized <strong>{step.tool}</strong> in {step.rounds} round(s).
          </p>
        );
      // A failure names its stage and problems; a synthesis not attempted says why (skipped, detail).
      const failed = step as { stage?: string; errors?: unknown; skipped?: string; detail?: string };
      return failed.skipped ? (
        <p>
          Synthesis not attempted ({failed.skipped}){failed.detail ? `: ${failed.detail}` : ""}.
        </p>
      ) : "skipped" in step ? (
        <p class="problem">
          Synthesis did not run ({step.skipped}): {step.detail}
        </p>
      ) : (
        <>
          <p class="problem">Synthesis failed at {failed.stage}.</p>
          <Json value={failed.errors} label="Synthesis errors" />
        </>
      );
    }
    case "register":
      return (
        <p>
          Registered <strong>{step.tool}</strong> version {step.version}.
        </p>
      );
    case "elicit":
      return (
        <p>
          Asked for {step.fields.join(", ")} of {step.tool}: {step.action}
          {step.detail ? ` (${step.detail})` : ""}
          {step.problems?.length ? `; refused: ${step.problems.join("; ")}` : ""}.
        </p>
      );
  }
}

export function Steps({ answer, query }: { answer: RouteAndExecuteResponse; query: string }) {
  return (
    <div class="steps-wrap">
      <p>
        Status{" "}
        <strong class={`state state-${answer.status}`} data-status={answer.status}>
          {answer.status}
        </strong>
        {answer.tool ? (
          <>
            {" "}
            with <strong>{answer.tool}</strong>
          </>
        ) : null}
        {answer.question ? <> — asks: “{answer.question}”</> : null}
      </p>
      {answer.missing?.length ? (
        <p>Missing: {answer.missing.map((m) => `${m.field} (${m.reason})`).join(", ")}</p>
      ) : null}
      <ol class="steps" aria-label="Steps">
        {answer.steps.map((step, i) => (
          <li key={i} class="step" data-step={step.step}>
            <h4>{step.step}</h4>
            <StepBody step={step} query={answer.intent ?? query} />
          </li>
        ))}
      </ol>
      {answer.intents?.map((intent, i) => (
        <div key={i} class="intent">
          <h4>
            Intent {i + 1}: “{intent.intent}”
          </h4>
          <Steps answer={intent} query={intent.intent ?? query} />
        </div>
      ))}
    </div>
  );
}
