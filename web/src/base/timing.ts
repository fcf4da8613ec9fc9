/// Latency instrumentation, off unless the page URL carries `kl-timing` (used by
/// scripts/bench/frame-latency.mjs): performance marks would otherwise pile up while dragging.

export const timingEnabled = typeof location !== 'undefined' && new URLSearchParams(location.search).has('kl-timing');

/// `performance.mark(name)` with `detail.issuedAt`, when timing is enabled.
export function markTiming(name: 'kernel-lens:result' | 'kernel-lens:frame', issuedAt: number): void {
  if (timingEnabled) performance.mark(name, { detail: { issuedAt } });
}

/// `performance.now()` at which the newest delivered result was requested: the engine notes each
/// delivery, the charts' frame marks it as painted (so neither imports the other).
let lastDelivered = 0;

export function noteDelivered(issuedAt: number): void {
  lastDelivered = Math.max(lastDelivered, issuedAt);
}

export function lastDeliveredIssuedAt(): number {
  return lastDelivered;
}
