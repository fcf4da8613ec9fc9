// The timing rule the wasm columns of the benchmark tables share with their native and NumPy
// drivers: one warm-up call, then the median of repeated calls filling `budgetMs` (at least 5).

/** Median milliseconds per call of `run`. */
export function medianMs(run, budgetMs) {
  run();
  const times = [];
  let total = 0;
  while (times.length < 5 || (total < budgetMs && times.length < 2000)) {
    const start = performance.now();
    run();
    const elapsed = performance.now() - start;
    times.push(elapsed);
    total += elapsed;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
