// Catalog: every tool by department, searchable; a tool's definition in full (schemas, examples,
// annotations, binding, policy), where it came from, its breakers and its recent outcomes.
import { useMemo, useState } from "preact/hooks";
import { api } from "./api.ts";
import type { Breakers, Executions, StoredTool, ToolList, ToolSummary } from "./shapes.ts";
import { clock, duration, Json, Section, Status, useLoad } from "./ui.tsx";

function matches(tool: ToolSummary, words: string[]): boolean {
  const text = `${tool.name} ${tool.title ?? ""} ${tool.description} ${tool.category ?? ""}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

interface Provenance {
  origin?: string;
  updatedAt?: string;
  synthesis?: { status?: string; owner?: string; at?: string; request?: string; promotedAt?: string };
}

const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : "—");

/** Where a tool came from: a catalog file, the API, or synthesis (for whom, when, asked what). */
function Origin({ provenance }: { provenance: Provenance }) {
  const { origin, updatedAt, synthesis } = provenance;
  if (!origin || origin === "catalog") return <>a catalog file</>;
  if (origin === "api") return <>put through the API, {when(updatedAt)}</>;
  return (
    <>
      synthesized {when(synthesis?.at)}
      {synthesis?.owner ? ` for ${synthesis.owner}` : ""}
      {synthesis?.status
        ? ` (${synthesis.status}${synthesis.promotedAt ? `, promoted ${when(synthesis.promotedAt)}` : ""})`
        : ""}
      {synthesis?.request ? <>: “{synthesis.request}”</> : null}
    </>
  );
}

function ToolDetail({ summary }: { summary: ToolSummary }) {
  const name = summary.name;
  const tool = useLoad(() => api<StoredTool>("GET", `/v1/tools/${encodeURIComponent(name)}`));
  const breakers = useLoad(() => api<Breakers>("GET", "/v1/breakers"));
  const executions = useLoad(() => api<Executions>("GET", "/v1/executions"));
  const provenance = summary as Provenance;
  const mine = (breakers.data?.breakers ?? []).filter((b) => b.tool === name);
  const recent = (executions.data?.executions ?? [])
    .filter((e) => e.name === name)
    .slice(-10)
    .reverse();
  const t = tool.data;
  return (
    <article class="tool-detail" aria-labelledby="tool-detail-name">
      <h3 id="tool-detail-name">{name}</h3>
      <Status problem={tool.problem} text={tool.loading && !t ? "Loading the definition…" : undefined} />
      <p>{summary.description}</p>
      <dl class="facts">
        <dt>Department</dt>
        <dd>{summary.category ?? "none"}</dd>
        <dt>Version</dt>
        <dd>{summary.version ?? 1}</dd>
        <dt>Origin</dt>
        <dd>
          <Origin provenance={provenance} />
        </dd>
        <dt>Breakers</dt>
        <dd>
          {mine.length === 0
            ? "none met yet (closed)"
            : mine.map((b) => (
                <span key={b.provider} class={`state state-${b.state}`}>
                  {b.state} since {clock(b.since)}
                </span>
              ))}
        </dd>
        <dt>Recent outcomes</dt>
        <dd>
          {recent.length === 0 ? (
            "no calls yet"
          ) : (
            <ul class="outcomes">
              {recent.map((e) => (
                <li key={e.id}>
                  <span class={`state state-${e.status}`}>{e.status}</span> {clock(e.startedAt)}
                  {e.timing ? ` · ${duration(e.timing.totalMs)}` : ""}
                  {e.errorClass ? ` · ${e.errorClass}` : ""}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <h4>Input schema</h4>
      <Json value={t?.inputSchema} label={`Input schema of ${name}`} />
      {t?.outputSchema ? (
        <>
          <h4>Output schema</h4>
          <Json value={t.outputSchema} label={`Output schema of ${name}`} />
        </>
      ) : null}
      <h4>Examples</h4>
      <Json value={t?.examples ?? []} label={`Examples of ${name}`} />
      <h4>Annotations</h4>
      <Json value={t?.annotations ?? {}} label={`Annotations of ${name}`} />
      <h4>Binding</h4>
      <Json value={t?.binding} label={`Binding of ${name}`} />
      <h4>Policy</h4>
      <Json value={t?.policy ?? {}} label={`Policy of ${name}`} />
    </article>
  );
}

export function CatalogSection() {
  const tools = useLoad(() => api<ToolList>("GET", "/v1/tools"));
  const [search, setSearch] = useState("");
  const [selected, setSelected] = useState<string>();
  const groups = useMemo(() => {
    const words = search.toLowerCase().split(/\s+/).filter(Boolean);
    const byCategory = new Map<string, ToolSummary[]>();
    for (const tool of tools.data?.tools ?? []) {
      if (!matches(tool, words)) continue;
      const category = tool.category ?? "other";
      byCategory.set(category, [...(byCategory.get(category) ?? []), tool]);
    }
    return [...byCategory.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [tools.data, search]);
  const shown = groups.reduce((n, [, list]) => n + list.length, 0);
  const summary = tools.data?.tools.find((t) => t.name === selected);
  return (
    <Section id="catalog" name="Catalog">
      <div class="catalog">
        <div class="catalog-list">
          <label for="tool-search">Search tools</label>
          <input
            id="tool-search"
            type="search"
            value={search}
            onInput={(event) => setSearch(event.currentTarget.value)}
            aria-describedby="tool-count"
          />
          <Status
            problem={tools.problem}
            text={tools.data ? `${shown} of ${tools.data.tools.length} tools` : "Loading the catalog…"}
          />
          <span id="tool-count" hidden>
            {shown} tools shown
          </span>
          <div class="scroll">
            {groups.map(([category, list]) => (
              <div key={category} class="department">
                <h3>{category}</h3>
                <ul>
                  {list.map((tool) => (
                    <li key={tool.name}>
                      <button
                        type="button"
                        class="tool-button"
                        aria-pressed={tool.name === selected}
                        onClick={() => setSelected(tool.name)}
                      >
                        {tool.name}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        </div>
        <div class="catalog-detail">
          {summary ? (
            <ToolDetail key={summary.name} summary={summary} />
          ) : (
            <p class="hint">Choose a tool to see its definition, origin, breakers and recent outcomes.</p>
          )}
        </div>
      </div>
    </Section>
  );
}
