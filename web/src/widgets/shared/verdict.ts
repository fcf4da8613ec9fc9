/// Verdicts on a sign or a range ("every weight ≥ 0?", "OLS leaves the range") allow for round-off:
/// a number counts as negative, or outside a range, only beyond ROUND_OFF. The core's weights carry
/// errors of a few 1e-16 where the exact value sits on the boundary; a verdict must not turn on
/// that sign. Every printed verdict names the margin (ROUND_OFF_TEXT).
export const ROUND_OFF = 1e-12;
export const ROUND_OFF_TEXT = '10⁻¹²';

/// x < 0 by more than the margin.
export const negative = (x: number): boolean => x < -ROUND_OFF;

/// x below low or above high by more than the margin (relative to the range's magnitude).
export function outsideRange(x: number, low: number, high: number): 'below' | 'above' | null {
  const margin = ROUND_OFF * Math.max(1, Math.abs(low), Math.abs(high));
  if (x < low - margin) return 'below';
  if (x > high + margin) return 'above';
  return null;
}
