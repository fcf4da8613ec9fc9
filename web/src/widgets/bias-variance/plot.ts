/// Plot pieces shared by the audit and selection figures: vertical marker lines, log-axis ticks
/// and re-theming a chart's axes and legend.
import type { Chart, Palette } from '../../core/charts';

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

/// Points into the scale, grid, title and legend colours of `colors`.
export function recolorChart(chart: Chart, colors: Palette): void {
  for (const axis of Object.values(chart.options.scales ?? {})) {
    if (!axis) continue;
    axis.ticks = { ...axis.ticks, color: colors.text };
    axis.grid = { ...axis.grid, color: colors.grid };
    if ('title' in axis && axis.title) axis.title.color = colors.text;
  }
  const legend = chart.options.plugins?.legend;
  if (legend?.labels) legend.labels.color = colors.text;
}
