/** The build's stopwatch. */
/** A clock for the whole build and the time of each phase (in the --json summary: where a slow build goes). */
export function stopwatch() {
  const started = performance.now();
  const timings: Record<string, number> = {};
  let lapStart = started;
  return {
    timings,
    lap(phase: string): void {
      const now = performance.now();
      timings[phase] = Math.round(now - lapStart);
      lapStart = now;
    },
    seconds: () => Math.round((performance.now() - started) / 10) / 100,
  };
}
