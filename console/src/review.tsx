// Review: synthesized tools waiting for a maintainer (status "pending" in GET /v1/tools): their code
// highlighted, their tests, the request that made them and the key that asked. Promote publishes one to
// every key; delete removes it. Each action is logged by the service and listed here for this tab.
import { useState } from "preact/hooks";
import { api, errorText } from "./api.ts";
import { Code } from "./code.tsx";
import type { StoredTool, ToolList, ToolSummary } from "./shapes.ts";
import { clock, Json, Section, Status, useLoad } from "./ui.tsx";

/** A listing with its synthesis provenance (GET /v1/tools gives it for synthesized tools). */
type Pending = ToolSummary & {
  origin?: string;
  synthesis?: { status?: string; owner?: string; at?: string; request?: string };
};

function isPending(tool: ToolSummary): boolean {
  return (tool as Pending).synthesis?.status === "pending";
}

function PendingTool({
  summary,
  onDone,
}: {
  summary: Pending;
  onDone: (action: "promoted" | "deleted", name: string) => void;
}) {
  const name = summary.name;
  const tool = useLoad(() =>
    api<StoredTool & Record<string, unknown>>("GET", `/v1/tools/${encodeURIComponent(name)}`),
  );
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const binding = tool.data?.binding as { code?: string } | undefined;
  const made: { request?: string; owner?: string; at?: string } = summary.synthesis ?? {};
  const act = async (action: "promote" | "delete") => {
    setBusy(true);
    setProblem(undefined);
    try {
      if (action === "promote") await api("POST", `/v1/tools/${encodeURIComponent(name)}/promote`, {});
      else await api("DELETE", `/v1/tools/${encodeURIComponent(name)}`);
      onDone(action === "promote" ? "promoted" : "deleted", name);
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li class="pending-tool" data-tool={name}>
      <article aria-labelledby={`pending-${name}`}>
        <h3 id={`pending-${name}`}>{name}</h3>
        <p>{summary.description}</p>
        <dl class="facts">
          <dt>Requested</dt>
          <dd class="request">{made.request ?? "—"}</dd>
          <dt>By key</dt>
          <dd class="owner">{made.owner ?? "—"}</dd>
          <dt>Synthesized</dt>
          <dd>{made.at ? new Date(made.at).toLocaleString() : "—"}</dd>
        </dl>
        <h4>Code</h4>
        {binding?.code ? (
          <Code code={binding.code} label={`Code of ${name}`} />
        ) : (
          <Status text="Loading the code…" />
        )}
        <h4>Input schema and tests</h4>
        <Json
          value={{ inputSchema: tool.data?.inputSchema, examples: tool.data?.examples }}
          label={`Tests of ${name}`}
        />
        <div class="actions">
          <button type="button" disabled={busy} onClick={() => void act("promote")}>
            Promote {name}
          </button>
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() => {
              if (window.confirm(`Delete ${name}? This cannot be undone.`)) void act("delete");
            }}
          >
            Delete {name}
          </button>
        </div>
        <Status problem={problem} />
      </article>
    </li>
  );
}

export function ReviewSection() {
  const tools = useLoad(() => api<ToolList>("GET", "/v1/tools"), 10_000);
  const [log, setLog] = useState<{ at: number; text: string }[]>([]);
  const pending = (tools.data?.tools ?? []).filter(isPending) as Pending[];
  return (
    <Section id="review" name="Review">
      <Status
        problem={tools.problem}
        text={tools.data ? `${pending.length} synthesized tools wait for review` : "Loading…"}
      />
      {pending.length === 0 ? (
        <p class="hint">
          No synthesized tool is waiting: agents' tools appear here until a maintainer promotes them.
        </p>
      ) : (
        <ul class="pending-list" aria-label="Pending synthesized tools">
          {pending.map((summary) => (
            <PendingTool
              key={summary.name}
              summary={summary}
              onDone={(action, name) => {
                setLog((entries) => [...entries, { at: Date.now(), text: `${action} ${name}` }]);
                tools.reload();
              }}
            />
          ))}
        </ul>
      )}
      <h3>Done in this tab</h3>
      <ul class="review-log" aria-label="Review actions">
        {log.length === 0 ? <li class="muted">Nothing yet.</li> : null}
        {log.map((entry) => (
          <li key={entry.at}>
            {clock(entry.at)} {entry.text}
          </li>
        ))}
      </ul>
    </Section>
  );
}
