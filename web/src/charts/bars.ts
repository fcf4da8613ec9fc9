/// Weight bar charts (the lookup, temperature, ties and underflow figures' shared look) and the
/// values printed above bars.
import type { Chart, ChartConfiguration, Plugin } from 'chart.js';
import { fixed } from '../ui/format';
import { parsedBars } from './adapter';
import { canvasFont, createChart } from './create';
import { boxLegend } from './legend';
import { palette } from '../theme/theme';

/// Bar values in Chart.js' pre-parsed form ({ x: category index, y: value }).
export function barPoints(values: ArrayLike<number>): number[] {
  return parsedBars(Array.from(values, (y, x) => ({ x, y })));
}

/// Bars for `values` when there are more of them than a chart can show apart: at most `limit`
/// bars, each over `group` consecutive entries and as tall as the largest of them (the envelope,
/// so no peak is lost), labelled with the first entry's index. With `values.length <= limit`,
/// one bar per entry (`group` 1).
export function envelopeBars(values: ArrayLike<number>, limit: number): { labels: string[]; points: number[]; group: number } {
  const group = Math.max(1, Math.ceil(values.length / Math.max(1, limit)));
  const count = Math.ceil(values.length / group);
  const labels: string[] = new Array(count);
  const heights = new Float64Array(count);
  for (let bar = 0; bar < count; bar++) {
    let top = -Infinity;
    for (let i = bar * group; i < Math.min(values.length, (bar + 1) * group); i++) top = Math.max(top, values[i] ?? -Infinity);
    heights[bar] = top;
    labels[bar] = String(bar * group);
  }
  return { labels, points: barPoints(heights), group };
}

/// Options of a weight bar chart: y from 0 to `max` with ticks every `step` up to 1.
export interface WeightBarOptions {
  labels?: string[];
  datasets?: ChartConfiguration<'bar'>['data']['datasets'];
  /// A legend below the chart (several datasets side by side).
  legend?: boolean;
  max?: number;
  step?: number;
  title?: string;
  /// A title above the chart (matplotlib's axes title).
  heading?: string;
  /// The x axis: its title and how many key ticks it may show.
  xTitle?: string;
  xTicks?: number;
  /// The datasets whose bar values are printed (4 decimals) above the bars: all by default.
  printed?: readonly number[];
  plugins?: Plugin<'bar'>[];
}

/// Weight-axis tick labels with `digits` decimals, none above 1 (the axis runs a little past 1 so
/// that a bar of weight 1 has room for its printed value).
export const weightTick = (digits: number) => (value: number | string): string =>
  Number(value) <= 1 ? fixed(Number(value), digits) : '';

/// A bar chart of weights in [0, 1] (the shared look of the lookup, temperature, ties and
/// underflow figures): fixed y range, ticks hidden above 1, the values printed above the bars.
export function weightBarChart(canvas: HTMLCanvasElement, options: WeightBarOptions = {}): Chart<'bar'> {
  const { labels = [], datasets = [], legend = false, max = 1.05, step = 0.2, title = 'weight', heading, xTitle, xTicks, printed, plugins = [] } = options;
  const digits = step < 0.1 || Math.round(step * 10) !== step * 10 ? 2 : 1;
  return createChart<'bar'>(canvas, {
    type: 'bar',
    data: { labels, datasets },
    options: {
      plugins: {
        ...(legend ? { legend: boxLegend() } : {}),
        ...(heading ? { title: { display: true, text: heading } } : {}),
      },
      scales: {
        x: {
          type: 'category',
          ...(xTitle ? { title: { display: true, text: xTitle } } : {}),
          ...(xTicks ? { ticks: { maxTicksLimit: xTicks, maxRotation: 0 } } : {}),
        },
        y: {
          type: 'linear',
          min: 0,
          max,
          title: { display: true, text: title },
          ticks: { stepSize: step, callback: weightTick(digits) },
        },
      },
    },
    plugins: printed?.length === 0 ? plugins : [barValueLabels((w) => fixed(w, 4), printed), ...plugins],
  });
}

/// Prints each bar's value (formatted by `format`) above it, for the datasets in `datasets`; a
/// label wider than its bar (a phone) takes a smaller face so it stays clear of the bars beside it.
export function barValueLabels(format: (value: number) => string, datasets?: readonly number[]): Plugin<'bar'> {
  return {
    id: 'klBarValueLabels',
    afterDatasetsDraw(chart) {
      const { ctx } = chart;
      ctx.save();
      ctx.fillStyle = palette(chart).text;
      ctx.font = canvasFont(12, undefined, chart);
      ctx.textAlign = 'center';
      chart.data.datasets.forEach((dataset, index) => {
        if (datasets && !datasets.includes(index)) return;
        const meta = chart.getDatasetMeta(index);
        if (meta.hidden) return;
        meta.data.forEach((bar, i) => {
          const point = dataset.data[i] as number | { y: number } | null | undefined;
          const value = typeof point === 'number' ? point : point?.y;
          if (typeof value !== 'number' || !Number.isFinite(value)) return;
          const { x, y, width } = bar.getProps(['x', 'y', 'width'], true) as { x: number; y: number; width: number };
          // By the sign of the value: a bar of (nearly) zero height has y and base a rounding apart.
          const above = value >= 0;
          const text = format(value);
          ctx.font = canvasFont(12, undefined, chart);
          const measured = ctx.measureText(text).width;
          if (measured > width + 4) ctx.font = canvasFont(Math.max(9, Math.floor((12 * (width + 4)) / measured)), undefined, chart);
          ctx.textBaseline = above ? 'bottom' : 'top';
          ctx.fillText(text, x, above ? y - 3 : y + 3);
        });
      });
      ctx.restore();
    },
  };
}
