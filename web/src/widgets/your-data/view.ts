/// The your-data panels: the reader's points with the smoothing curve and the query (1-D keys),
/// and the leave-one-out curve over bandwidths with the current h marked.
import { chartCanvas, createChart, recolorStars, scheduleFrame, starDataset, type Chart } from '../../charts';
import { palette, type Palette } from '../../theme/theme';
import { fixed } from '../../ui/format';

export interface SmoothingFrame {
  keys: ArrayLike<number>;
  values: ArrayLike<number>;
  grid: ArrayLike<number>;
  curve: ArrayLike<number>;
  query: number;
  prediction: number;
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

function points(xs: ArrayLike<number>, ys: ArrayLike<number>): XY[] {
  return Array.from(xs, (x, i) => ({ x, y: ys[i] ?? Number.NaN })).filter((p) => Number.isFinite(p.y));
}

export class YourDataView {
  readonly smoothingBox: HTMLDivElement;
  readonly looBox: HTMLDivElement;
  private readonly smoothing: Chart<'scatter'>;
  private readonly loo: Chart<'scatter'>;
  private colors = palette();

  constructor() {
    const left = chartCanvas('Your data: the observed points, the smoothing curve and the query with its prediction');
    const right = chartCanvas('Leave-one-out error against the bandwidth, with the current bandwidth marked');
    this.smoothingBox = left.box;
    this.looBox = right.box;
    const c = this.colors;
    this.smoothing = createChart(left.canvas, {
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
      },
    });
    this.loo = createChart(right.canvas, {
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
    });
  }

  /// Shows or hides the smoothing panel (it exists for one key column only).
  showSmoothing(visible: boolean): void {
    this.smoothingBox.hidden = !visible;
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

  recolor(colors: Palette): void {
    this.colors = colors;
    const [observed, curve, star, query] = this.smoothing.data.datasets;
    if (observed) observed.backgroundColor = observed.borderColor = colors.navy;
    if (curve) curve.borderColor = colors.series[1];
    recolorStars(star, colors.orange);
    if (query) query.borderColor = colors.orange;
    const [loo, current] = this.loo.data.datasets;
    if (loo) loo.borderColor = loo.backgroundColor = colors.series[1];
    recolorStars(current, colors.orange);
    for (const chart of [this.smoothing, this.loo] as Chart[]) scheduleFrame(chart, () => undefined);
  }

  destroy(): void {
    this.smoothing.destroy();
    this.loo.destroy();
  }
}
