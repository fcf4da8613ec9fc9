/// Plot pieces shared by the audit and selection figures: vertical marker lines and log-axis
/// ticks. (A colour-scheme flip re-themes every chart's axes and legend in web/src/charts/.)

export type XY = { x: number; y: number };

/// A vertical line at x from 0 to `top`, as two points.
export function vertical(x: number, top: number): XY[] {
  return [
    { x, y: 0 },
    { x, y: top },
  ];
}

/// Tick labels of a log axis at 1, 2 and 5 times a power of ten (0.05, 0.1, 0.2, 0.5, 1); the
/// other ticks keep their grid line without a label, so narrow charts stay legible.
export const logTick = (value: number | string): string => {
  const x = Number(Number(value).toPrecision(2));
  const leading = Number(x.toExponential(1).slice(0, 3));
  return leading === 1 || leading === 2 || leading === 5 ? String(x) : '';
};
