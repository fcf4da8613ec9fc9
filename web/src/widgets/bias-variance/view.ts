/// Figure 12.3 (left), live: bias², variance and MSE of the Monte-Carlo audit against h on a log
/// axis (points on the grid), the exact population curves over a continuous range of h (dashed),
/// the grid minimum (grey dashed line) and the draggable bandwidth marker (orange line).
import { chartCanvas, createChart, lineLegend, scheduleFrame, type Chart } from '../../charts';
import { palette, type Palette } from '../../theme/theme';
import type { LegendItem } from '../../charts';
import type { RiskRow } from '../../engine';
import { logTick, vertical, type XY } from '../shared/plot';

export interface AuditFrame {
  /// Finished Monte-Carlo rows, in grid order (fewer than the grid while running or cancelled).
  rows: readonly RiskRow[];
  /// Exact risk over a dense log-spaced range of h.
  exact: readonly RiskRow[];
  /// The grid minimum's bandwidth once the whole grid is done.
  minimum: number | null;
  /// The bandwidth marker.
  marker: number;
  xRange: { min: number; max: number };
  yMax: number;
}

const COMPONENTS = ['bias2', 'variance', 'mse'] as const;
const NAMES = { bias2: 'bias²', variance: 'variance', mse: 'MSE' } as const;


/// The chapter's plot calls take matplotlib's default colour cycle in order (blue, orange,
/// green); here the theme's series colours in that order, each at least 3:1 on the surface in
/// both themes, and a marker shape per component so that hue is never the only difference.
const curveColors = (c: Palette): Record<(typeof COMPONENTS)[number], string> => ({
  bias2: c.series[1] ?? c.navy,
  variance: c.series[0] ?? c.orange,
  mse: c.series[2] ?? c.text,
});
const MARKERS = { bias2: 'circle', variance: 'triangle', mse: 'rect' } as const;

export class AuditView {
  readonly box: HTMLDivElement;
  readonly chart: Chart<'scatter'>;
  private colors = palette();

  constructor() {
    const { box, canvas } = chartCanvas(
      'The trade-off is measurable: squared bias, variance and MSE against bandwidth h on a log axis, the exact population curves dashed, the grid minimum and the draggable bandwidth marker as vertical lines',
      'kl-chart kl-chart--tall kl-chart--interactive',
    );
    this.box = box;
    // Every dataset exists from the start: the first results then update a laid-out chart, not
    // build eight dataset controllers in the same task.
    this.chart = createChart<'scatter'>(canvas, {
      type: 'scatter',
      data: { datasets: this.emptyDatasets() },
      options: {
        plugins: {
          legend: lineLegend({ font: { size: 11 }, sort: (a: LegendItem, b: LegendItem) => (a.datasetIndex ?? 0) - (b.datasetIndex ?? 0) }),
        },
        scales: {
          x: {
            type: 'logarithmic',
            min: 0.04,
            max: 1.25,
            title: { display: true, text: 'bandwidth h (log scale)' },
            ticks: { callback: logTick, autoSkip: true, maxRotation: 0 },
          },
          y: { type: 'linear', min: 0, max: 0.35, title: { display: true, text: 'error against true f' } },
        },
      },
    });
  }

  draw(frame: AuditFrame): void {
    scheduleFrame(this.chart, () => this.fill(frame));
  }

  recolor(colors: Palette, frame: AuditFrame | null): void {
    this.colors = colors;
    if (frame) this.draw(frame);
  }

  private fill(frame: AuditFrame): void {
    const c = this.colors;
    const color = curveColors(c);
    const x = this.chart.options.scales?.x;
    const y = this.chart.options.scales?.y;
    if (x && y) {
      x.min = frame.xRange.min;
      x.max = frame.xRange.max;
      y.max = frame.yMax;
    }
    const datasets = this.chart.data.datasets;
    COMPONENTS.forEach((key, i) => {
      const measured = datasets[i];
      const exact = datasets[i + COMPONENTS.length];
      if (measured) {
        measured.data = frame.rows.map((row) => ({ x: row.bandwidth, y: row[key] }));
        measured.borderColor = measured.backgroundColor = color[key];
      }
      if (exact) {
        exact.data = frame.exact.map((row) => ({ x: row.bandwidth, y: row[key] }));
        exact.borderColor = exact.backgroundColor = color[key];
      }
    });
    const [minimum, marker] = datasets.slice(2 * COMPONENTS.length);
    if (minimum) {
      minimum.data = frame.minimum === null ? [] : vertical(frame.minimum, frame.yMax);
      minimum.borderColor = minimum.backgroundColor = c.grey;
    }
    if (marker) {
      marker.data = vertical(frame.marker, frame.yMax);
      marker.borderColor = marker.backgroundColor = c.orange;
    }
  }

  /// The eight datasets, created once: measured bias², variance, MSE; their exact curves; the
  /// grid-minimum line; the marker line.
  private emptyDatasets(): Chart<'scatter'>['data']['datasets'] {
    const color = curveColors(this.colors);
    const measured = COMPONENTS.map((key) => ({
      label: NAMES[key],
      pointStyle: MARKERS[key],
      borderColor: color[key],
      backgroundColor: color[key],
      data: [] as XY[],
      showLine: true,
      borderWidth: key === 'mse' ? 2.6 : 1.6,
      pointRadius: 3.5,
      order: 1,
    }));
    const exact = COMPONENTS.map((key) => ({
      label: `${NAMES[key]} exact`,
      borderColor: color[key],
      backgroundColor: color[key],
      data: [] as XY[],
      showLine: true,
      borderDash: [5, 4],
      borderWidth: 1.2,
      pointRadius: 0,
      order: 2,
    }));
    const lines = [
      // Drawn last (lowest order), as the chapter's axvline after the curves: at h = 0.18 the
      // marker and the curves would otherwise hide it.
      { label: 'grid minimum', data: [] as XY[], showLine: true, borderDash: [6, 4], borderWidth: 1.2, pointRadius: 0, order: -1 },
      { label: 'marker h', data: [] as XY[], showLine: true, borderWidth: 2, pointRadius: 0, order: 0 },
    ];
    return [...measured, ...exact, ...lines];
  }
}
