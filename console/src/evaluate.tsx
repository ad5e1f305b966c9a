// Evaluate: route a labelled set (the catalog's own, or a JSON lines file chosen here) through POST /v1/eval
// and show hit@1, recall@K and no-tool AUROC, the score distributions against the threshold, and the pairs
// of tools the router confuses most.
import { useState } from "preact/hooks";
import { api, errorText } from "./api.ts";
import { Histogram } from "./histogram.tsx";
import type { Evaluation } from "./shapes.ts";
import { Section, Status, score } from "./ui.tsx";

interface Labelled {
  query: string;
  tools: string[];
}

/** Reads a JSON lines file as `switchboard eval` does; a bad line is named by its number. */
function parseLabelled(text: string): Labelled[] {
  const out: Labelled[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]?.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1} is not valid JSON`);
    }
    const { query, tools } = value as { query?: unknown; tools?: unknown };
    if (typeof query !== "string") throw new Error(`line ${i + 1} has no "query" text`);
    if (!Array.isArray(tools) || !tools.every((t) => typeof t === "string"))
      throw new Error(`line ${i + 1} needs a "tools" list of names (empty when no tool fits)`);
    out.push({ query, tools });
  }
  if (out.length === 0) throw new Error("the file holds no labelled queries");
  return out;
}

const FIGURES: [string, (k: number) => string][] = [
  ["hit@1", () => "hit@1"],
  ["recall@K", (k) => `recall@${k}`],
  ["no-tool AUROC", () => "noToolAUROC"],
  ["complete@K", (k) => `complete@${k}`],
  ["MRR", () => "mrr"],
  ["no-tool accuracy", () => "noToolAccuracy"],
];

export function EvaluateSection() {
  const [set, setSet] = useState<"catalog" | "uploaded">("catalog");
  const [file, setFile] = useState<{ name: string; queries: Labelled[] }>();
  const [topK, setTopK] = useState(5);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Evaluation>();
  const [status, setStatus] = useState<{ text?: string; problem?: string }>({});

  const choose = async (input: HTMLInputElement) => {
    const chosen = input.files?.[0];
    if (!chosen) return;
    try {
      const queries = parseLabelled(await chosen.text());
      setFile({ name: chosen.name, queries });
      setSet("uploaded");
      setStatus({ text: `${chosen.name}: ${queries.length} labelled queries.` });
    } catch (error) {
      setFile(undefined);
      setStatus({ problem: `${chosen.name}: ${errorText(error)}` });
    }
  };

  const run = async () => {
    if (set === "uploaded" && !file) return setStatus({ problem: "Choose a labelled file first." });
    setBusy(true);
    setStatus({ text: "Routing every labelled query…" });
    try {
      const body = set === "catalog" ? { set, topK } : { set, topK, queries: file?.queries };
      const answer = await api<Evaluation>("POST", "/v1/eval", body);
      setReport(answer);
      setStatus({ text: `Evaluated ${answer.queries} queries.` });
    } catch (error) {
      setStatus({ problem: errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section id="evaluate" name="Evaluate">
      <form
        class="eval-form"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <fieldset>
          <legend>Labelled queries</legend>
          <label class="inline">
            <input type="radio" name="set" checked={set === "catalog"} onChange={() => setSet("catalog")} />{" "}
            The catalog's own set
          </label>
          <label class="inline">
            <input type="radio" name="set" checked={set === "uploaded"} onChange={() => setSet("uploaded")} />{" "}
            A file of my own
          </label>
          <label for="eval-file">Labelled file (JSON lines: {'{"query": "…", "tools": ["name"]}'})</label>
          <input
            id="eval-file"
            type="file"
            accept=".jsonl,.json,.txt,application/json"
            onChange={(event) => void choose(event.currentTarget)}
          />
        </fieldset>
        <div class="field">
          <label for="eval-k">K</label>
          <select
            id="eval-k"
            value={String(topK)}
            onChange={(event) => setTopK(Number(event.currentTarget.value))}
          >
            {[1, 3, 5, 10].map((k) => (
              <option key={k} value={String(k)}>
                {k}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={busy}>
          {busy ? "Evaluating…" : "Run evaluation"}
        </button>
      </form>
      <Status text={status.text} problem={status.problem} />
      <div class="eval-results" aria-busy={busy}>
        <dl class="figures" aria-label="Evaluation figures">
          {FIGURES.map(([name, key]) => {
            const value = report?.metrics[key(report.topK)];
            return (
              <div key={name}>
                <dt>{name.replace("K", String(report?.topK ?? topK))}</dt>
                <dd>{value === undefined || value === null ? "—" : value.toFixed(3)}</dd>
              </div>
            );
          })}
        </dl>
        {report ? (
          <>
            <Histogram
              label="Score distributions: the right tool, the best wrong tool, and the top tool of no-tool queries"
              threshold={report.threshold}
              series={[
                { label: "right tool", values: report.scores.right, color: "#1b7f3b" },
                { label: "best wrong tool", values: report.scores.bestWrong, color: "#c25e00" },
                { label: "no-tool queries", values: report.scores.noTool, color: "#3f51b5" },
              ]}
            />
            {report.rightUnranked ? (
              <p class="muted">{report.rightUnranked} queries ranked their right tool below the first 20.</p>
            ) : null}
            <table class="grid confused">
              <caption>Most confused pairs (right tool → chosen instead)</caption>
              <thead>
                <tr>
                  <th scope="col">Right tool</th>
                  <th scope="col">Chosen</th>
                  <th scope="col">Times</th>
                  <th scope="col">Queries</th>
                </tr>
              </thead>
              <tbody>
                {report.confused.length === 0 ? (
                  <tr>
                    <td colSpan={4}>No query chose a wrong tool first.</td>
                  </tr>
                ) : (
                  report.confused.map((pair) => (
                    <tr key={`${pair.expected}-${pair.chosen}`}>
                      <td>{pair.expected}</td>
                      <td>{pair.chosen}</td>
                      <td>{pair.count}</td>
                      <td>{pair.queries.map((q) => `“${q}”`).join(" ")}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
            <p class="muted">
              Threshold τ = {score(report.threshold)}, K = {report.topK}.
            </p>
          </>
        ) : (
          <p class="hint plot-placeholder">Run an evaluation to plot its score distributions.</p>
        )}
      </div>
    </Section>
  );
}
