// Small pieces every section uses: the section landmark, a JSON view, number and time formats, and a hook
// that loads data and keeps the last answer on screen while the next one loads (no layout jump).
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { errorText } from "./api.ts";

export function Section({ id, name, children }: { id: string; name: string; children: ComponentChildren }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} class="section">
      <h2 id={`${id}-heading`}>{name}</h2>
      {children}
    </section>
  );
}

/** A box that scrolls, reachable with the keyboard so its overflow can be scrolled without a mouse. */
export function ScrollRegion({
  label,
  class: className,
  children,
}: {
  label: string;
  class: string;
  children: ComponentChildren;
}) {
  return (
    // The known accessible pattern for a scrolling box: a named region that takes focus, so the keyboard can
    // scroll it. A <section> would add a landmark per box.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
    // biome-ignore lint/a11y/useSemanticElements: see above
    <div class={className} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

export function Json({ value, label }: { value: unknown; label: string }) {
  return (
    <ScrollRegion class="json" label={label}>
      <pre>{value === undefined ? "—" : JSON.stringify(value, null, 2)}</pre>
    </ScrollRegion>
  );
}

export const score = (value: number | undefined): string => (value === undefined ? "—" : value.toFixed(3));

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = s / 60;
  if (m < 60) return `${Math.floor(m)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${Math.round(m % 60)} min`;
}

export const clock = (ms: number): string => new Date(ms).toLocaleTimeString();

/** A region that announces its text to screen readers, with room kept for one line so nothing moves. */
export function Status({ text, problem }: { text?: string | undefined; problem?: string | undefined }) {
  return (
    <p class={problem ? "status problem" : "status"} role="status" aria-live="polite">
      {problem ?? text ?? "\u00a0"}
    </p>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  loading: boolean;
  problem: string | undefined;
  reload(): void;
}

/** Loads on mount, on `reload`, and every `everyMs` while the tab is visible; keeps the last data meanwhile. */
export function useLoad<T>(load: () => Promise<T>, everyMs?: number): Loaded<T> {
  const [data, setData] = useState<T>();
  const [loading, setLoading] = useState(true);
  const [problem, setProblem] = useState<string>();
  const loadRef = useRef(load);
  loadRef.current = load;
  const reload = useCallback(() => {
    setLoading(true);
    loadRef
      .current()
      .then((value) => {
        setData(value);
        setProblem(undefined);
      })
      .catch((error: unknown) => setProblem(errorText(error)))
      .finally(() => setLoading(false));
  }, []);
  useEffect(() => {
    reload();
    if (!everyMs) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") reload();
    }, everyMs);
    return () => clearInterval(timer);
  }, [reload, everyMs]);
  return { data, loading, problem, reload };
}
