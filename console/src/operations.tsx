// Operations: breakers with their state and time in it, recent executions filtered by tool, status and key,
// latency percentiles from the service's metrics, and agent keys' feedback votes waiting for a quorum.
import { useMemo, useState } from "preact/hooks";
import { api, metricsText } from "./api.ts";
import { type Latency, latencies } from "./percentiles.ts";
import type { Breakers, Execution, Executions, Votes } from "./shapes.ts";
import { clock, duration, ScrollRegion, Section, Status, useLoad } from "./ui.tsx";

const REFRESH_MS = 5_000;
const SHOWN_EXECUTIONS = 50;

/** The key an execution ran for: maintainer keys see ids as `<key id>/<call id>`. */
const keyOf = (execution: Execution): string =>
  execution.id.includes("/") ? (execution.id.split("/")[0] ?? "") : "local";

function BreakerTable() {
  const breakers = useLoad(() => api<Breakers>("GET", "/v1/breakers"), REFRESH_MS);
  const now = Date.now();
  const list = breakers.data?.breakers ?? [];
  return (
    <div class="panel">
      <h3>Breakers</h3>
      <Status
        problem={breakers.problem}
        text={breakers.data ? `${list.length} breakers met so far` : "Loading…"}
      />
      <table class="grid" aria-label="Breakers">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Provider</th>
            <th scope="col">State</th>
            <th scope="col">Time in state</th>
          </tr>
        </thead>
        <tbody>
          {list.length === 0 ? (
            <tr>
              <td colSpan={4}>No breaker yet: one appears with a provider's first call.</td>
            </tr>
          ) : (
            list.map((b) => (
              <tr key={`${b.tool} ${b.provider}`} data-tool={b.tool} data-state={b.state}>
                <td>{b.tool}</td>
                <td class="wrap">
                  <code>{b.provider}</code>
                </td>
                <td>
                  <span class={`state state-${b.state}`}>{b.state}</span>
                </td>
                <td>{b.since > 0 ? duration(Math.max(0, now - b.since)) : "—"}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

function RecentExecutions() {
  const executions = useLoad(() => api<Executions>("GET", "/v1/executions"), REFRESH_MS);
  const [tool, setTool] = useState("");
  const [status, setStatus] = useState("");
  const [key, setKey] = useState("");
  const all = executions.data?.executions ?? [];
  const keys = useMemo(() => [...new Set(all.map(keyOf))].sort(), [all]);
  const tools = useMemo(() => [...new Set(all.map((e) => e.name))].sort(), [all]);
  const shown = all
    .filter(
      (e) => (!tool || e.name === tool) && (!status || e.status === status) && (!key || keyOf(e) === key),
    )
    .slice(-SHOWN_EXECUTIONS)
    .reverse();
  return (
    <div class="panel wide">
      <h3>Recent executions</h3>
      <div class="filters">
        <div class="field">
          <label for="filter-tool">Tool</label>
          <select id="filter-tool" value={tool} onChange={(event) => setTool(event.currentTarget.value)}>
            <option value="">any</option>
            {tools.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-status">Status</label>
          <select
            id="filter-status"
            value={status}
            onChange={(event) => setStatus(event.currentTarget.value)}
          >
            <option value="">any</option>
            {["completed", "failed", "timeout", "cancelled", "in_progress"].map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-key">Key</label>
          <select id="filter-key" value={key} onChange={(event) => setKey(event.currentTarget.value)}>
            <option value="">any</option>
            {keys.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Status
        problem={executions.problem}
        text={executions.data ? `${shown.length} of ${all.length} executions shown` : "Loading…"}
      />
      <ScrollRegion class="scroll short" label="Recent executions, scrollable">
        <table class="grid" aria-label="Recent executions">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Tool</th>
              <th scope="col">Status</th>
              <th scope="col">Key</th>
              <th scope="col">Total</th>
              <th scope="col">Attempts</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((e) => (
              <tr key={e.id} data-tool={e.name} data-status={e.status}>
                <td>{clock(e.startedAt)}</td>
                <td>{e.name}</td>
                <td>
                  <span class={`state state-${e.status}`}>{e.status}</span>
                </td>
                <td>{keyOf(e)}</td>
                <td>{e.timing ? duration(e.timing.totalMs) : "—"}</td>
                <td>{e.attempts ?? "—"}</td>
                <td>{e.errorClass ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}

const ms = (seconds: number): string => (Number.isNaN(seconds) ? "—" : duration(seconds * 1000));

function LatencyTable({ caption, rows }: { caption: string; rows: Latency[] }) {
  return (
    <table class="grid">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">What</th>
          <th scope="col">Count</th>
          <th scope="col">p50</th>
          <th scope="col">p95</th>
          <th scope="col">p99</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={5}>Nothing measured yet.</td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr key={row.group}>
              <td>{row.group}</td>
              <td>{row.count}</td>
              <td>{ms(row.p50)}</td>
              <td>{ms(row.p95)}</td>
              <td>{ms(row.p99)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

function Latencies() {
  const metrics = useLoad(metricsText, REFRESH_MS);
  const text = metrics.data ?? "";
  return (
    <div class="panel">
      <h3>Latency</h3>
      <Status
        problem={metrics.problem}
        text={metrics.data ? "From /metrics (bucket interpolation)" : "Loading…"}
      />
      <LatencyTable caption="Routing" rows={latencies(text, "switchboard_route_duration_seconds")} />
      <LatencyTable
        caption="Tool calls by tool"
        rows={latencies(text, "switchboard_tool_duration_seconds", "tool").slice(0, 10)}
      />
    </div>
  );
}

function PendingVotes() {
  const votes = useLoad(() => api<Votes>("GET", "/v1/feedback/votes"), REFRESH_MS);
  const list = votes.data?.votes ?? [];
  return (
    <div class="panel">
      <h3>Pending feedback votes</h3>
      <Status
        problem={votes.problem}
        text={votes.data ? `${list.length} pairs waiting for a quorum` : "Loading…"}
      />
      <table class="grid" aria-label="Pending feedback votes">
        <thead>
          <tr>
            <th scope="col">Query</th>
            <th scope="col">Tool</th>
            <th scope="col">Votes</th>
          </tr>
        </thead>
        <tbody>
          {list.length === 0 ? (
            <tr>
              <td colSpan={3}>No vote is waiting.</td>
            </tr>
          ) : (
            list
              .slice(-50)
              .reverse()
              .map((v) => (
                <tr key={`${v.tool} ${v.query}`}>
                  <td>{v.query}</td>
                  <td>{v.tool}</td>
                  <td title={v.voters.join(", ")}>
                    {v.voters.length} of {v.needed}
                  </td>
                </tr>
              ))
          )}
        </tbody>
      </table>
    </div>
  );
}

export function OperationsSection() {
  return (
    <Section id="operations" name="Operations">
      <div class="operations">
        <BreakerTable />
        <Latencies />
        <RecentExecutions />
        <PendingVotes />
      </div>
    </Section>
  );
}
