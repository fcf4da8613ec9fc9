/// The your-data panels: the reader's points with the smoothing curve and the query (1-D keys),
/// the attention map (more key columns), and the leave-one-out curve over bandwidths with the
/// current h marked.
import { canvasFont, chartCanvas, createChart, nameAxes, recolorStars, scheduleFrame, starDataset, type Chart } from '../../charts';
import { evenTickIndices, Heatmap } from '../../charts/heatmap';
import { palette, type Palette } from '../../theme/theme';
import { cutToFit, fixed, precise } from '../../ui/format';
import type { WidgetHost } from '../../ui/host/widget';
import { setText } from '../../ui/readout';
import { element } from '../../ui/dom';
import type { Frame } from './frame';

export interface SmoothingFrame {
  keys: ArrayLike<number>;
  values: ArrayLike<number>;
  grid: ArrayLike<number>;
  curve: ArrayLike<number>;
  query: number;
  prediction: number;
  /// The table's column names: the key column's and the value column's.
  keyName: string;
  valueName: string;
}

export interface LooFrame {
  bandwidths: ArrayLike<number>;
  errors: ArrayLike<number>;
  bandwidth: number;
  error: number;
}

type XY = { x: number; y: number };

/// Axis limits with a margin, so points never sit on the frame.
export function paddedRange(xs: ArrayLike<number>, margin = 0.08): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i] ?? 0;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  if (!Number.isFinite(min)) return { min: 0, max: 1 };
  const span = max - min || Math.abs(max) || 1;
  return { min: min - margin * span, max: max + margin * span };
}

/// An axis title naming the table's column and its role, `location (key)` (the role alone when
/// the column is named for it), the name cut with an ellipsis to `room` pixels as `measure`
/// measures text (the table, the summary and the chart's data table show it whole).
export function columnAxisTitle(name: string, role: 'key' | 'value', room = Infinity, measure: (text: string) => number = () => 0): string {
  const whole = name.trim();
  if (!whole || whole.toLowerCase() === role) return role;
  return cutToFit(whole, (shown) => (shown ? `${shown} (${role})` : role), room, measure);
}

function points(xs: ArrayLike<number>, ys: ArrayLike<number>): XY[] {
  return Array.from(xs, (x, i) => ({ x, y: ys[i] ?? Number.NaN })).filter((p) => Number.isFinite(p.y));
}

export class YourDataView {
  readonly smoothingBox: HTMLDivElement;
  readonly looBox: HTMLDivElement;
  readonly mapBox: HTMLDivElement;
  private readonly smoothing: Chart<'scatter'>;
  private readonly loo: Chart<'scatter'>;
  private readonly heatmap: Heatmap;
  private readonly mapTitle: HTMLParagraphElement;
  private colors = palette();
  /// The table's column names the smoothing chart's axes show.
  private names = { key: '', value: '' };

  /// The charts and the map are the host's: disposed and recoloured with the figure.
  constructor(host: Pick<WidgetHost, 'own' | 'onTheme'>) {
    const left = chartCanvas('Your data: the observed points, the smoothing curve and the query with its prediction');
    const right = chartCanvas('Leave-one-out error against the bandwidth, with the current bandwidth marked');
    this.smoothingBox = left.box;
    this.looBox = right.box;
    const c = this.colors;
    this.smoothing = host.own(createChart(left.canvas, {
      type: 'scatter',
      data: {
        datasets: [
          { label: 'observations', data: [], backgroundColor: c.navy, borderColor: c.navy, pointRadius: 4, order: 1 },
          { label: 'smoothing curve', data: [], showLine: true, borderColor: c.series[1], borderWidth: 2, pointRadius: 0, order: 2 },
          starDataset({ label: 'prediction', data: [], order: 0 }, c.orange, 9),
          { label: 'query', data: [], showLine: true, borderColor: c.orange, borderDash: [6, 4], borderWidth: 1.4, pointRadius: 0, order: 3 },
        ],
      },
      options: {
        scales: {
          // The range is the data's, padded: ticks at round values only, not at its two ends.
          x: { type: 'linear', title: { display: true, text: 'key' }, ticks: { includeBounds: false } },
          y: { type: 'linear', title: { display: true, text: 'value' }, ticks: { includeBounds: false } },
        },
        // A new size gives the titles another length (Chart.js lays the chart out after this).
        onResize: (chart) => this.fitTitles(chart as Chart<'scatter'>),
      },
    }));
    this.loo = host.own(createChart(right.canvas, {
      type: 'scatter',
      data: {
        datasets: [
          // Blue, as the leave-one-out curve of the bandwidth-selection figure; the orange star stands out on it.
          { label: 'leave-one-out MSE', data: [], showLine: true, borderColor: c.series[1], backgroundColor: c.series[1], borderWidth: 2, pointRadius: 2.5 },
          starDataset({ label: 'current bandwidth', data: [], order: -1 }, c.orange, 8),
        ],
      },
      options: {
        scales: {
          x: { type: 'logarithmic', title: { display: true, text: 'bandwidth h' }, ticks: { maxTicksLimit: 6, callback: (v) => fixed(Number(v), Number(v) < 1 ? 2 : 1) } },
          y: { type: 'linear', title: { display: true, text: 'leave-one-out MSE' }, ticks: { includeBounds: false } },
        },
      },
    }));
    this.heatmap = host.own(
      new Heatmap({
        label: 'Attention map of your data: one row per data point as the query (row 1 at the bottom), one column per key in file order, brighter cells carry more weight; a white trace marks each point’s own key',
        xTitle: 'key (data row)',
        yTitle: 'query (data row)',
        colorbarTitle: 'weight',
      }),
    );
    this.heatmap.canvas.dataset.exportName = 'attention map';
    this.mapTitle = element('p', 'kl-your-data__map-title');
    this.mapTitle.dataset.testid = 'map-title';
    this.mapBox = element('div', 'kl-your-data__map');
    this.mapBox.dataset.testid = 'attention-map';
    this.mapBox.append(this.mapTitle, this.heatmap.element);
    host.onTheme((colors) => this.recolor(colors));
  }

  /// Shows the smoothing panel for one key column, the attention map for more.
  showSmoothing(visible: boolean): void {
    this.smoothingBox.hidden = !visible;
    this.mapBox.hidden = visible;
  }

  /// The (rows, n) top of the (n, n) weight matrix: data points as queries against every key.
  drawMap(frame: Frame): void {
    const current = frame.table;
    const n = current.n;
    const rows = frame.mapRows;
    this.heatmap.draw({
      values: frame.mapWeights.subarray(0, rows * n),
      rows,
      cols: n,
      scale: 'linear',
      xTicks: evenTickIndices(n).map((c) => ({ at: c, label: String(c + 1) })),
      yTicks: evenTickIndices(rows).map((r) => ({ at: r, label: String(r + 1) })),
      trace: Array.from({ length: rows }, (_, r) => r),
    });
    const shown = rows < n ? `the first ${rows} of ${n} points as queries` : `all ${n} points as queries`;
    setText(
      this.mapTitle,
      `Attention weights αⱼ(kᵢ), ${frame.kernel} kernel, h = ${precise(frame.h, 3)}: ${shown}, ${n} keys (${current.d} columns each). The fitted values below are each row’s weights times the values.`,
    );
  }

  drawSmoothing(frame: SmoothingFrame): void {
    scheduleFrame(this.smoothing, () => {
      const [observed, curve, star, query] = this.smoothing.data.datasets;
      if (!observed || !curve || !star || !query) return;
      const x = paddedRange(frame.grid, 0);
      // Every kernel weight is >= 0 and the weights sum to 1, so the curve stays within the
      // values' range: the axes depend on the table alone and stay still while h is dragged (the
      // chart keeps its layout and takes the fast path).
      const y = paddedRange(frame.values);
      observed.data = points(frame.keys, frame.values);
      curve.data = points(frame.grid, frame.curve);
      star.data = [{ x: frame.query, y: frame.prediction }];
      query.data = [
        { x: frame.query, y: y.min },
        { x: frame.query, y: y.max },
      ];
      const scales = this.smoothing.options.scales ?? {};
      Object.assign(scales.x ?? {}, x);
      Object.assign(scales.y ?? {}, y);
      this.names = { key: frame.keyName, value: frame.valueName };
      this.fitTitles();
    });
  }

  drawLoo(frame: LooFrame): void {
    scheduleFrame(this.loo, () => {
      const [curve, current] = this.loo.data.datasets;
      if (!curve || !current) return;
      curve.data = points(frame.bandwidths, frame.errors);
      const marked = Number.isFinite(frame.error);
      current.data = marked ? [{ x: frame.bandwidth, y: frame.error }] : [];
      // Fixed ranges from the grid (and the marker, where it leaves the grid): an axis that
      // followed the data would lay the chart out again in every frame of a drag.
      const finite = Array.from(frame.errors).filter(Number.isFinite);
      const y = paddedRange(marked ? [...finite, frame.error] : finite);
      const xs = Array.from(frame.bandwidths).filter((b) => b > 0);
      if (frame.bandwidth > 0) xs.push(frame.bandwidth);
      const scales = this.loo.options.scales ?? {};
      if (xs.length) Object.assign(scales.x ?? {}, { min: Math.min(...xs) / 1.2, max: Math.max(...xs) * 1.2 });
      Object.assign(scales.y ?? {}, y);
    });
  }

  /// Names the axes as the table names its columns, each title cut to the length of its axis (a
  /// title is centred on its axis and drawn on the canvas: a longer one would be clipped at the
  /// canvas's edge). A new title lays the chart out again; an unchanged one does not.
  private fitTitles(chart: Chart<'scatter'> = this.smoothing): void {
    const scales = chart.options.scales ?? {};
    const context = chart.ctx;
    if (!scales.x?.title || !scales.y?.title || !context) return;
    const font = scales.x.title.font;
    // Chart.js's default size (12 px), which the charts keep, unless the title sets its own.
    const size = font && typeof font === 'object' && typeof font.size === 'number' ? font.size : 12;
    const measure = (text: string): number => context.measureText(text).width;
    // From the last layout (before the first, the whole canvas less the other axis): the room
    // either side of the axis's centre, twice the nearer side.
    const area = chart.chartArea ?? { left: 0, right: chart.width, top: 0, bottom: chart.height };
    const across = 2 * Math.min((area.left + area.right) / 2, chart.width - (area.left + area.right) / 2) - 8;
    const along = 2 * Math.min((area.top + area.bottom) / 2, chart.height - (area.top + area.bottom) / 2) - 8;
    nameAxes(chart, { x: columnAxisTitle(this.names.key, 'key'), y: columnAxisTitle(this.names.value, 'value') });
    context.save();
    context.font = canvasFont(size, undefined, chart);
    scales.x.title.text = columnAxisTitle(this.names.key, 'key', across, measure);
    scales.y.title.text = columnAxisTitle(this.names.value, 'value', along, measure);
    context.restore();
  }

  private recolor(colors: Palette): void {
    this.colors = colors;
    const [observed, curve, star, query] = this.smoothing.data.datasets;
    if (observed) observed.backgroundColor = observed.borderColor = colors.navy;
    if (curve) curve.borderColor = colors.series[1];
    recolorStars(star, colors.orange);
    if (query) query.borderColor = colors.orange;
    const [loo, current] = this.loo.data.datasets;
    if (loo) loo.borderColor = loo.backgroundColor = colors.series[1];
    recolorStars(current, colors.orange);
    for (const chart of [this.smoothing, this.loo]) scheduleFrame(chart, () => undefined);
  }
}
