// Route: type a query, see the ranked candidates against the threshold, confirm the right tool (feedback),
// or run route-and-execute and follow its steps.
import { useState } from "preact/hooks";
import { api, errorText } from "./api.ts";
import { CandidateList } from "./candidates.tsx";
import type { FeedbackAnswer, RouteAndExecuteResponse, RouteAnswer } from "./shapes.ts";
import { Steps } from "./steps.tsx";
import { Section, Status } from "./ui.tsx";

type Busy = "route" | "execute" | undefined;

export function RouteSection() {
  const [query, setQuery] = useState("");
  const [topK, setTopK] = useState(5);
  const [busy, setBusy] = useState<Busy>();
  const [routed, setRouted] = useState<RouteAnswer>();
  const [executed, setExecuted] = useState<{ query: string; answer: RouteAndExecuteResponse }>();
  const [status, setStatus] = useState<{ text?: string; problem?: string }>({});
  const [sending, setSending] = useState<string>();

  const run = async (kind: "route" | "execute") => {
    const text = query.trim();
    if (!text) return setStatus({ problem: "Type a query first." });
    setBusy(kind);
    setStatus({ text: kind === "route" ? "Routing…" : "Routing and executing…" });
    try {
      if (kind === "route") {
        const answer = await api<RouteAnswer>("POST", "/v1/route", { query: text, topK });
        setRouted(answer);
        setStatus({
          text: `${answer.tools.length} candidates; ${answer.matched ? "matched" : "nothing clears the threshold"}.`,
        });
      } else {
        const answer = await api<RouteAndExecuteResponse>("POST", "/v1/route-and-execute", { query: text });
        setExecuted({ query: text, answer });
        setStatus({ text: `Route and execute: ${answer.status}.` });
      }
    } catch (error) {
      setStatus({ problem: errorText(error) });
    } finally {
      setBusy(undefined);
    }
  };

  const feedback = async (tool: string) => {
    if (!routed) return;
    setSending(tool);
    try {
      const outcome = await api<FeedbackAnswer>("POST", "/v1/feedback", {
        pairs: [{ query: routed.query, tool }],
      });
      setStatus({
        text: `Feedback for ${tool}: ${outcome.learned} learned, ${outcome.pending} pending, ${outcome.ignored} ignored.`,
      });
    } catch (error) {
      setStatus({ problem: errorText(error) });
    } finally {
      setSending(undefined);
    }
  };

  return (
    <Section id="route" name="Route">
      <form
        class="route-form"
        onSubmit={(event) => {
          event.preventDefault();
          void run("route");
        }}
      >
        <div class="field grow">
          <label for="query">Query</label>
          <input
            id="query"
            name="query"
            type="text"
            autocomplete="off"
            value={query}
            onInput={(event) => setQuery(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="top-k">Candidates</label>
          <select
            id="top-k"
            value={String(topK)}
            onChange={(event) => setTopK(Number(event.currentTarget.value))}
          >
            {[3, 5, 10, 20].map((k) => (
              <option key={k} value={String(k)}>
                {k}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={busy !== undefined}>
          Route
        </button>
        <button type="button" disabled={busy !== undefined} onClick={() => void run("execute")}>
          Route and execute
        </button>
      </form>
      <Status text={status.text} problem={status.problem} />
      <div class="route-results" aria-busy={busy !== undefined}>
        <div class="panel">
          <h3>Candidates</h3>
          {routed ? (
            <>
              {routed.notices.length ? <p class="muted">{routed.notices.join(" ")}</p> : null}
              <CandidateList
                candidates={routed.tools}
                threshold={routed.threshold}
                onFeedback={(tool) => void feedback(tool)}
                pending={sending}
              />
            </>
          ) : (
            <p class="hint">Route a query to see its ranked candidates, their scores and the threshold.</p>
          )}
        </div>
        <div class="panel">
          <h3>Route and execute</h3>
          {executed ? (
            <Steps answer={executed.answer} query={executed.query} />
          ) : (
            <p class="hint">Run route-and-execute to see its steps: arguments, validation, execution.</p>
          )}
        </div>
      </div>
    </Section>
  );
}
