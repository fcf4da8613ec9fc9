/// The worlds behind the audit's table, at the marker's h (beyond the chapter): a few dozen of the
/// noisy worlds' prediction curves with their mean and the truth, and at one query the
/// distribution of f̂(q) over every world, with the truth and the exact mean ± 2 sd on the fixed
/// design. Every curve, count and moment is the core's (auditWorlds, histogram); this file only
/// lays them out.
import { chartCanvas, createChart, curveDataset, curveLayer, lineLegend, scheduleFrame, setDatasets, type Chart } from '../../charts';
import { withAlpha, type Palette } from '../../theme/theme';
import type { AuditWorlds } from '../../engine';
import { fixed } from '../../ui/format';
import { setText } from '../../ui/readout';

/// What the two charts show: the worlds at one h and query, binned (null while they are computed).
export interface WorldsFrame {
  h: number;
  queries: Float64Array;
  truth: Float64Array;
  worlds: AuditWorlds;
  histogram: { edges: Float64Array; counts: Float64Array } | null;
}

/// A histogram's outline as a polyline over its edges: up and across each bin, down at the end.
function outline(edges: Float64Array, counts: Float64Array): { xs: number[]; ys: number[] } {
  const xs: number[] = [];
  const ys: number[] = [];
  counts.forEach((count, b) => {
    xs.push(edges[b] ?? 0, edges[b + 1] ?? 0);
    ys.push(count, count);
  });
  return { xs: [edges[0] ?? 0, ...xs, edges.at(-1) ?? 0], ys: [0, ...ys, 0] };
}

const upright = (x: number, top: number) => ({ xs: [x, x], ys: [0, top] });

/// Sets an axis' range in place (the chart's options are Chart.js' proxies: never copied).
function setRange(chart: Chart<'scatter'>, axis: 'x' | 'y', min: number, max: number): void {
  const scale = chart.options.scales?.[axis];
  if (!scale) return;
  scale.min = min;
  scale.max = max;
}

/// An empty chart of array-drawn curves on linear axes with these titles.
function curveChart(canvas: HTMLCanvasElement, x: string, y: string, yRange: { min: number; max?: number }): Chart<'scatter'> {
  return createChart<'scatter'>(canvas, {
    type: 'scatter',
    data: { datasets: [] },
    options: {
      plugins: { legend: lineLegend({ font: { size: 11 } }) },
      scales: {
        x: { type: 'linear', title: { display: true, text: x } },
        y: { type: 'linear', ...yRange, title: { display: true, text: y } },
      },
    },
    plugins: [curveLayer],
  });
}

export class WorldsView {
  readonly element: HTMLDivElement;
  readonly curves: Chart<'scatter'>;
  readonly spread: Chart<'scatter'>;
  private readonly summary: HTMLParagraphElement;

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'kl-audit-worlds';
    const left = chartCanvas('Noisy worlds: a few dozen of the audit\'s worlds\' prediction curves at the marker h, their mean over every world and the truth, with the histogram\'s query as a vertical line', 'kl-chart');
    const right = chartCanvas('The distribution of the prediction at one query over every world: a histogram, with the truth and the exact mean ± 2 sd as vertical lines', 'kl-chart');
    const charts = document.createElement('div');
    charts.className = 'kl-charts kl-charts--pair';
    charts.append(left.box, right.box);
    this.summary = document.createElement('p');
    this.summary.className = 'kl-note';
    this.summary.dataset.testid = 'worlds-summary';
    this.element.append(charts, this.summary);
    this.curves = curveChart(left.canvas, 'query q', 'prediction', { min: -2, max: 2 });
    this.spread = curveChart(right.canvas, 'f̂(q) over the worlds', 'worlds', { min: 0 });
  }

  /// The read-out sentence under the charts (what a screen reader is told after a change).
  get sentence(): string {
    return this.summary.textContent ?? '';
  }

  draw(frame: WorldsFrame, colors: Palette): void {
    const { worlds, queries, truth, histogram } = frame;
    const m = queries.length;
    const count = m > 0 ? worlds.curves.length / m : 0;
    const thin = withAlpha(colors.sample, 0.35);
    const mean = colors.series[0] ?? colors.orange;
    scheduleFrame(this.curves, () => {
      setDatasets(this.curves, [
        ...Array.from({ length: count }, (_, w) =>
          curveDataset(
            { label: w === 0 ? `${count} noisy worlds` : '', borderColor: thin, backgroundColor: thin, borderWidth: 1, pointRadius: 0 },
            { xs: queries, ys: worlds.curves.subarray(w * m, (w + 1) * m) },
          ),
        ),
        curveDataset({ label: 'mean over every world', borderColor: mean, backgroundColor: mean, borderWidth: 2, borderDash: [6, 3], pointRadius: 0 }, { xs: queries, ys: worlds.meanCurve }),
        curveDataset({ label: 'truth', borderColor: colors.truth, backgroundColor: colors.truth, borderWidth: 2, pointRadius: 0 }, { xs: queries, ys: truth }),
        curveDataset({ label: `q = ${fixed(worlds.query, 2)}`, borderColor: colors.muted, backgroundColor: colors.muted, borderWidth: 1, borderDash: [2, 2], pointRadius: 0 }, { xs: [worlds.query, worlds.query], ys: [-2, 2] }),
      ]);
      setRange(this.curves, 'x', queries[0] ?? -1, queries.at(-1) ?? 1);
    });
    const top = histogram ? Math.max(1, ...histogram.counts) : 1;
    // The axis holds the bins, the truth and the mean ± 2 sd, with a little room either side.
    const ends = [worlds.truth, worlds.exactMean - 2 * worlds.exactSd, worlds.exactMean + 2 * worlds.exactSd];
    if (histogram) ends.push(histogram.edges[0] ?? worlds.truth, histogram.edges.at(-1) ?? worlds.truth);
    const [low, high] = [Math.min(...ends), Math.max(...ends)];
    const margin = (high - low) * 0.05 || 0.5;
    const bars = colors.series[1] ?? colors.navy;
    const band = withAlpha(mean, 0.9);
    scheduleFrame(this.spread, () => {
      setDatasets(this.spread, [
        ...(histogram ? [curveDataset({ label: `${worlds.atQuery.length.toLocaleString('en-US')} worlds`, borderColor: bars, backgroundColor: bars, borderWidth: 1.5, pointRadius: 0 }, outline(histogram.edges, histogram.counts))] : []),
        curveDataset({ label: 'truth f(q)', borderColor: colors.truth, backgroundColor: colors.truth, borderWidth: 2, pointRadius: 0 }, upright(worlds.truth, top)),
        curveDataset({ label: 'exact mean', borderColor: band, backgroundColor: band, borderWidth: 2, borderDash: [6, 3], pointRadius: 0 }, upright(worlds.exactMean, top)),
        ...[1, -1].map((sign) =>
          curveDataset(
            { label: sign === 1 ? 'exact mean ± 2 sd' : '', borderColor: band, backgroundColor: band, borderWidth: 1, borderDash: [2, 2], pointRadius: 0 },
            upright(worlds.exactMean + sign * 2 * worlds.exactSd, top),
          ),
        ),
      ]);
      setRange(this.spread, 'x', low - margin, high + margin);
      setRange(this.spread, 'y', 0, Math.ceil(top * 1.1));
    });
    setText(
      this.summary,
      `At h = ${fixed(frame.h, 2)} and q = ${fixed(worlds.query, 2)}: the truth f(q) = ${fixed(worlds.truth, 4)}; over the ${worlds.atQuery.length.toLocaleString('en-US')} worlds the predictions average ${fixed(worlds.meanCurve[worlds.queryIndex] ?? Number.NaN, 4)}; on the fixed design their exact mean is ${fixed(worlds.exactMean, 4)} and their exact sd ${fixed(worlds.exactSd, 4)}.`,
    );
  }
}
