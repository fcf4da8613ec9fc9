/// The local-linear figure's three charts: both curves on the chapter's sample (with the bands),
/// both weight profiles at the query, and both exact biases across the query range.
import { chartCanvas, createChart, curveDataset, curveLayer, lineLegend, pointsDataset, scheduleFrame, setDatasets } from '../../charts';
import type { Palette } from '../../theme/theme';
import { fixed } from '../../ui/format';
import type { WidgetHost } from '../../ui/host/widget';
import type { ChapterSample, DenseGrid } from '../shared/chapter-sample';
import { bandEdges, predictionCurve, sampleChart, sampleDatasets } from '../shared/sample-chart';

export interface Curves {
  nw: Float64Array;
  line: Float64Array;
  nwBias: Float64Array;
  lineBias: Float64Array;
  nwSd: Float64Array;
  lineSd: Float64Array;
  fallbackRows: number[];
}

export interface Profile {
  nwWeights: Float64Array;
  lineWeights: Float64Array;
  nw: number;
  line: number;
  fallback: boolean;
}

/// The smallest symmetric axis limit, on a 1-2-5 ladder, that holds every finite value.
export function axisLimit(arrays: readonly ArrayLike<number>[], floor: number): number {
  let largest = 0;
  for (const values of arrays) for (let i = 0; i < values.length; i += 1) largest = Math.max(largest, Math.abs(values[i] ?? 0) || 0);
  for (const step of [0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10]) if (largest * 1.08 <= step && step >= floor) return step;
  return Math.max(floor, largest * 1.08);
}

/// Tick labels of an axis stepping by `step`: as many decimals as the step needs, and 0 for the
/// rounding residue of a tick at zero (never "−0.0").
const tick = (step: number) => (value: number | string): string => {
  const v = Number(value);
  return fixed(Math.abs(v) < step * 1e-6 ? 0 : v, step < 0.1 - 1e-12 ? 2 : 1);
};

export interface LocalLinearView {
  /// The chart boxes: the curves, the weights, the biases.
  readonly boxes: readonly [HTMLElement, HTMLElement, HTMLElement];
  paintCurves(sample: ChapterSample, curves: Curves, q: number, band: boolean, colors: Palette): void;
  paintProfile(sample: ChapterSample, profile: Profile, q: number, colors: Palette): void;
}

/// The three charts over `grid`, owned by `host`.
export function localLinearView(host: Pick<WidgetHost, 'own'>, grid: DenseGrid): LocalLinearView {
  const curveBox = chartCanvas(
    'The chapter sample with the truth, the Nadaraya–Watson curve and the local linear curve at one bandwidth, and the query',
    'kl-chart kl-chart--tall',
  );
  const weightBox = chartCanvas('Both rules’ weights on each key at the query: Nadaraya–Watson’s are nonnegative, local linear’s may be negative');
  const biasBox = chartCanvas('Exact bias of both rules across the query range on the laboratory’s design');
  // The weight and bias axes' tick steps follow their data (set with their limits when drawn).
  let weightStep = 0.2;
  let biasStep = 0.1;
  /// A chart of curves over the query range whose y axis ticks every `step()`.
  const stepChart = (canvas: HTMLCanvasElement, x: string, y: string, min: number, max: number, step: () => number) =>
    host.own(
      createChart<'scatter'>(canvas, {
        type: 'scatter',
        data: { datasets: [] },
        options: {
          plugins: { legend: lineLegend() },
          scales: {
            x: { type: 'linear', min: grid.start, max: grid.stop, title: { display: true, text: x } },
            y: { type: 'linear', min, max, title: { display: true, text: y }, ticks: { stepSize: step(), callback: (value) => tick(step())(value) } },
          },
        },
        plugins: [curveLayer],
      }),
    );
  const curveChart = host.own(sampleChart(curveBox.canvas, grid));
  const weightChart = stepChart(weightBox.canvas, 'key x', 'weight', -0.4, 1, () => weightStep);
  const biasChart = stepChart(biasBox.canvas, 'query q', 'bias E f̂(q) − f(q)', -0.5, 0.5, () => biasStep);

  /// The vertical dashed line at the query, over the plot's whole height.
  const queryLine = (colors: Palette, q: number, yMin: number, yMax: number) =>
    curveDataset(
      { label: 'query', borderColor: colors.grey, backgroundColor: colors.grey, borderWidth: 1, borderDash: [4, 4], pointRadius: 0 },
      { xs: [q, q], ys: [yMin, yMax] },
    );
  /// The zero line of the weight and bias charts.
  const zero = (colors: Palette) =>
    curveDataset({ label: '', borderColor: colors.grid, backgroundColor: colors.grid, borderWidth: 1, pointRadius: 0 }, { xs: [grid.start, grid.stop], ys: [0, 0] });
  const ruleColors = (colors: Palette) => [colors.series[0] ?? colors.orange, colors.series[1] ?? colors.navy] as const;

  return {
    boxes: [curveBox.box, weightBox.box, biasBox.box],

    paintCurves(s, c, q, band, colors) {
      const [nwColor, lineColor] = ruleColors(colors);
      scheduleFrame(curveChart, () => {
        setDatasets(curveChart, [
          ...sampleDatasets(colors, s, 'the chapter’s sample'),
          predictionCurve('Nadaraya–Watson', nwColor, s.dense, c.nw),
          predictionCurve('local linear', lineColor, s.dense, c.line),
          ...(band
            ? [...bandEdges(s.dense, c.nw, c.nwSd, nwColor, 'NW ±2 sd', 0.7), ...bandEdges(s.dense, c.line, c.lineSd, lineColor, 'local linear ±2 sd', 0.7)]
            : []),
          queryLine(colors, q, -2, 2),
        ]);
      });
      const limit = axisLimit([c.nwBias, c.lineBias], 0.05);
      scheduleFrame(biasChart, () => {
        const y = biasChart.options.scales?.y;
        if (y) {
          y.min = -limit;
          y.max = limit;
          // Five ticks, zero among them (finer steps are thinned by Chart.js on a short panel).
          biasStep = limit / 2;
          if (y.ticks) (y.ticks as { stepSize?: number }).stepSize = biasStep;
        }
        setDatasets(biasChart, [
          zero(colors),
          predictionCurve('NW bias', nwColor, s.dense, c.nwBias),
          predictionCurve('local linear bias', lineColor, s.dense, c.lineBias),
          queryLine(colors, q, -limit, limit),
        ]);
      });
    },

    paintProfile(s, p, q, colors) {
      const [nwColor, lineColor] = ruleColors(colors);
      const top = axisLimit([p.nwWeights, p.lineWeights], 0.1);
      scheduleFrame(weightChart, () => {
        const y = weightChart.options.scales?.y;
        if (y) {
          y.min = -(2 * top) / 5;
          y.max = top;
          weightStep = top / 5;
          if (y.ticks) (y.ticks as { stepSize?: number }).stepSize = weightStep;
        }
        setDatasets(weightChart, [
          zero(colors),
          predictionCurve('NW weights', nwColor, s.keys, p.nwWeights, 1.5),
          pointsDataset({ label: '', backgroundColor: nwColor, borderColor: nwColor, pointRadius: 2.5 }, { xs: s.keys, ys: p.nwWeights }),
          predictionCurve('local linear weights', lineColor, s.keys, p.lineWeights, 1.5),
          pointsDataset({ label: '', backgroundColor: lineColor, borderColor: lineColor, pointRadius: 2.5 }, { xs: s.keys, ys: p.lineWeights }),
          queryLine(colors, q, -(2 * top) / 5, top),
        ]);
      });
    },
  };
}
