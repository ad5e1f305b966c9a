// How much slower than its own CPU time this process runs this moment: a busy loop's wall time over the
// CPU time it got. 1 on an idle machine, about 5 at load 10 on two cores. Tests scale the bounds they put on
// how late an answer may come by it, so a bound holds on a busy machine and still catches a wait for the
// wrong thing; what a quiet machine achieves is measured by the benchmarks, not here.

/** The CPU time the probe spends; long enough to span several scheduler slices. */
const PROBE_CPU_MS = 30;

export function loadFactor(): number {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  let cpuMs = 0;
  let spin = 0;
  while (cpuMs < PROBE_CPU_MS) {
    for (let i = 0; i < 10_000; i++) spin = (spin * 31 + i) | 0;
    const used = process.cpuUsage(cpuStart);
    cpuMs = (used.user + used.system) / 1000;
  }
  // Other threads of this process count in cpuUsage too, which can only make the factor smaller.
  return Math.max(1, (performance.now() - wallStart) / cpuMs + (spin === 0.5 ? 1 : 0));
}

/** `quietMs` (a bound that holds on an idle machine) scaled to this moment's load. */
export function scaled(quietMs: number): number {
  return quietMs * loadFactor();
}
