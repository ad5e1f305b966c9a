// Score distributions drawn with uPlot: one stepped line per distribution over shared bins, and the
// threshold as a vertical line. The canvas carries a text summary for those who cannot see it.
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export interface Distribution {
  label: string;
  values: number[];
  color: string;
}

const BINS = 30;

function bins(series: Distribution[], threshold: number): { x: number[]; counts: number[][] } {
  const all = series.flatMap((s) => s.values);
  const low = Math.min(threshold, ...all);
  const high = Math.max(threshold, ...all);
  const width = (high - low || 1) / BINS;
  const x = Array.from({ length: BINS }, (_, i) => low + (i + 0.5) * width);
  const counts = series.map((s) => {
    const row = new Array<number>(BINS).fill(0);
    for (const v of s.values) {
      const bin = Math.min(BINS - 1, Math.floor((v - low) / width));
      row[bin] = (row[bin] ?? 0) + 1;
    }
    return row;
  });
  return { x, counts };
}

export function Histogram({
  series,
  threshold,
  label,
}: {
  series: Distribution[];
  threshold: number;
  label: string;
}) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const { x, counts } = bins(series, threshold);
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 260,
        scales: { x: { time: false } },
        axes: [{ label: "score" }, { label: "queries" }],
        series: [
          { label: "score" },
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            paths: uPlot.paths.stepped?.({ align: 1 }),
          })),
        ],
        hooks: {
          draw: [
            (u: uPlot) => {
              const left = u.valToPos(threshold, "x", true);
              const { ctx } = u;
              ctx.save();
              ctx.strokeStyle = "#b00020";
              ctx.setLineDash([6, 4]);
              ctx.lineWidth = 2;
              ctx.beginPath();
              ctx.moveTo(left, u.bbox.top);
              ctx.lineTo(left, u.bbox.top + u.bbox.height);
              ctx.stroke();
              ctx.restore();
            },
          ],
        },
      },
      [x, ...counts],
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(280, element.clientWidth), height: 260 }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, threshold]);
  const summary = series
    .map((s) => {
      const mean = s.values.length ? s.values.reduce((a, b) => a + b, 0) / s.values.length : 0;
      return `${s.label}: ${s.values.length} queries, mean ${mean.toFixed(3)}`;
    })
    .join("; ");
  return (
    <figure class="plot">
      <div
        ref={holder}
        class="plot-canvas"
        role="img"
        aria-label={`${label}. ${summary}. Threshold ${threshold.toFixed(3)}.`}
      />
      <figcaption>
        {label}; the dashed red line is the threshold τ = {threshold.toFixed(3)}.
      </figcaption>
    </figure>
  );
}
