/// Beyond the chapter: Nadaraya–Watson against local linear regression on the chapter's sample.
/// Both curves at one bandwidth, both weight profiles at a draggable query (one-sided at the edge
/// for NW, signed for the line), the exact bias of both across the query range from the
/// laboratory's design, and optionally each curve's ±2 standard-deviation band.
import { chartCanvas, createChart, curveDataset, curveLayer, lineLegend, pointsDataset, scheduleFrame, setDatasets, type Chart } from '../../charts';
import { onThemeChange, palette, withAlpha, type Palette } from '../../theme/theme';
import { bandwidthSlider, button, controlRow, dataTable, querySlider } from '../../ui/controls';
import { fixed } from '../../ui/format';
import { call, keeping } from '../../engine';
import { liveReadout, setText, testNode } from '../../ui/readout';
import type { StateOf } from '../../ui/state';
import { defineWidget } from '../../ui/host/widget';
import './local-linear.css';
import prose from './prose.html?raw';
import meta from './meta';

const NEEDED = ['chapterDataset', 'chapterConfig', 'truth', 'linspace', 'attention', 'localLinear', 'smootherAudit'] as const;
/// The query grid of the curves: the keys' whole range, so both edges show.
const DENSE = { start: -3, stop: 3, count: 301 } as const;
/// Queries the table lists: both edges, the middle and two interior points.
const TABLE_QUERIES = [-3, -2.5, 0, 2.5, 3] as const;

const params = {
  h: { kind: 'number', label: 'bandwidth h', default: 0.5, min: 0.05, max: 3, scale: 'log' },
  q: { kind: 'number', label: 'query q', default: -2.9, min: -3, max: 3, scale: 'linear', step: 0.01 },
  band: { kind: 'boolean', label: '±2 sd band shown', default: false },
} as const;

type LocalLinearState = StateOf<typeof params>;

interface Sample {
  keys: Float64Array;
  observed: Float64Array;
  truthAtKeys: Float64Array;
  dense: Float64Array;
  truth: Float64Array;
  noise: number;
}

interface Curves {
  nw: Float64Array;
  line: Float64Array;
  nwBias: Float64Array;
  lineBias: Float64Array;
  nwSd: Float64Array;
  lineSd: Float64Array;
  fallbackRows: number[];
}

interface Profile {
  nwWeights: Float64Array;
  lineWeights: Float64Array;
  nw: number;
  line: number;
  fallback: boolean;
}

/// The smallest symmetric axis limit, on a 1-2-5 ladder, that holds every finite value.
function axisLimit(arrays: readonly ArrayLike<number>[], floor: number): number {
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

/// y = f ± 2 sd of one curve, for drawing its band's two edges.
function bandEdge(curve: Float64Array, sd: Float64Array, sign: 1 | -1): Float64Array {
  return curve.map((y, i) => y + sign * 2 * (sd[i] ?? Number.NaN));
}

/// Index of the dense query nearest to x.
const denseIndex = (x: number): number => Math.round(((x - DENSE.start) / (DENSE.stop - DENSE.start)) * (DENSE.count - 1));

export default defineWidget({
  name: 'local-linear',
  ...meta,
  params,
  prose,

  mount(host, initial) {
    let state: LocalLinearState = { ...initial };
    let colors = palette();
    let sample: Sample | null = null;
    let curves: Curves | null = null;
    let profile: Profile | null = null;

    const curveBox = chartCanvas(
      'The chapter sample with the truth, the Nadaraya–Watson curve and the local linear curve at one bandwidth, and the query',
      'kl-chart kl-chart--tall',
    );
    const weightBox = chartCanvas('Both rules’ weights on each key at the query: Nadaraya–Watson’s are nonnegative, local linear’s may be negative');
    const biasBox = chartCanvas('Exact bias of both rules across the query range on the laboratory’s design');
    // The weight and bias axes' tick steps follow their data (set with their limits when drawn).
    let weightStep = 0.2;
    let biasStep = 0.1;
    const axes = (x: string, y: string, min: number, max: number, step?: () => number) => ({
      x: { type: 'linear' as const, min: DENSE.start, max: DENSE.stop, title: { display: true, text: x } },
      y: {
        type: 'linear' as const,
        min,
        max,
        title: { display: true, text: y },
        ...(step ? { ticks: { stepSize: step(), callback: (value: number | string) => tick(step())(value) } } : {}),
      },
    });
    const curveChart = createChart<'scatter'>(curveBox.canvas, {
      type: 'scatter',
      data: { datasets: [] },
      options: { plugins: { legend: lineLegend() }, scales: axes('query q', 'prediction', -2, 2) },
      plugins: [curveLayer],
    });
    const weightChart = createChart<'scatter'>(weightBox.canvas, {
      type: 'scatter',
      data: { datasets: [] },
      options: { plugins: { legend: lineLegend() }, scales: axes('key x', 'weight', -0.4, 1, () => weightStep) },
      plugins: [curveLayer],
    });
    const biasChart = createChart<'scatter'>(biasBox.canvas, {
      type: 'scatter',
      data: { datasets: [] },
      options: { plugins: { legend: lineLegend() }, scales: axes('query q', 'bias E f̂(q) − f(q)', -0.5, 0.5, () => biasStep) },
      plugins: [curveLayer],
    });
    const charts = [curveChart, weightChart, biasChart] as unknown as Chart[];

    const hSlider = bandwidthSlider({ min: params.h.min, max: params.h.max, scale: 'log' }, state.h, (h) => {
      update({ h });
      void computeCurves();
      void computeProfile();
    });
    const qSlider = querySlider({ min: params.q.min, max: params.q.max, scale: 'linear', step: params.q.step }, state.q, (q) => {
      update({ q });
      void computeProfile();
      paintCurves();
    });
    const bandButton = button('', () => {
      update({ band: !state.band });
      paintCurves();
    });
    const nwText = testNode('strong', 'nw-prediction');
    const lineText = testNode('strong', 'local-linear-prediction');
    const fallbackText = document.createElement('span');
    const readout = liveReadout('kl-readout', 'At the query: Nadaraya–Watson predicts ', nwText, ', local linear predicts ', lineText, '. ', fallbackText);
    const table = dataTable('Exact bias and standard deviation of both rules at selected queries', [
      'query q',
      'NW bias',
      'local linear bias',
      'NW sd',
      'local linear sd',
    ]);
    table.table.classList.add('kl-table--wrapped-head');
    const waiting = host.waitingNote('Waiting for the laboratory data from the core…');
    host.root.append(curveBox.box, controlRow(hSlider.element, qSlider.element, bandButton), readout, weightBox.box, biasBox.box, table.element);

    host.provideExport({
      name: 'curves',
      csv: () => {
        const s = sample;
        const c = curves;
        if (!s || !c) return [];
        return [
          ['query', 'truth', 'NW prediction', 'local linear prediction', 'NW bias', 'local linear bias', 'NW sd', 'local linear sd'],
          ...Array.from(s.dense, (q, i) => [q, s.truth[i] ?? null, c.nw[i] ?? null, c.line[i] ?? null, c.nwBias[i] ?? null, c.lineBias[i] ?? null, c.nwSd[i] ?? null, c.lineSd[i] ?? null]),
        ];
      },
    });
    host.provideExport({
      name: 'weights at the query',
      csv: () => {
        const s = sample;
        const p = profile;
        if (!s || !p) return [];
        return [['key', 'target', 'NW weight', 'local linear weight'], ...Array.from(s.keys, (k, i) => [k, s.observed[i] ?? null, p.nwWeights[i] ?? null, p.lineWeights[i] ?? null])];
      },
    });

    function update(partial: Partial<LocalLinearState>): void {
      state = { ...state, ...partial };
      host.setState(partial);
      renderBandButton();
    }

    function renderBandButton(): void {
      setText(bandButton, state.band ? 'Hide the ±2 sd band' : 'Show the ±2 sd band');
      bandButton.setAttribute('aria-pressed', String(state.band));
    }

    /// The vertical dashed line at the query, over the plot's whole height.
    function queryLine(yMin: number, yMax: number) {
      return curveDataset(
        { label: 'query', borderColor: colors.grey, backgroundColor: colors.grey, borderWidth: 1, borderDash: [4, 4], pointRadius: 0 },
        { xs: [state.q, state.q], ys: [yMin, yMax] },
      );
    }

    function paintCurves(): void {
      const s = sample;
      const c = curves;
      if (!s || !c) return;
      const nwColor = colors.series[0] ?? colors.orange;
      const lineColor = colors.series[1] ?? colors.navy;
      scheduleFrame(curveChart, () => {
        const band = state.band
          ? [
              [c.nw, c.nwSd, nwColor, 'NW ±2 sd'],
              [c.line, c.lineSd, lineColor, 'local linear ±2 sd'],
            ].flatMap(([curve, sd, color, label]) =>
              ([1, -1] as const).map((sign) =>
                curveDataset(
                  { label: sign === 1 ? (label as string) : '', borderColor: withAlpha(color as string, 0.7), backgroundColor: withAlpha(color as string, 0.7), borderWidth: 1, borderDash: [3, 3], pointRadius: 0 },
                  { xs: s.dense, ys: bandEdge(curve as Float64Array, sd as Float64Array, sign) },
                ),
              ),
            )
          : [];
        setDatasets(curveChart, [
          curveDataset({ label: 'truth', borderColor: colors.truth, backgroundColor: colors.truth, borderWidth: 2, pointRadius: 0 }, { xs: s.dense, ys: s.truth }),
          pointsDataset(
            { label: 'the chapter’s sample', backgroundColor: withAlpha(colors.sample, 0.72), borderColor: withAlpha(colors.sample, 0.72), pointRadius: 3 },
            { xs: s.keys, ys: s.observed },
          ),
          curveDataset({ label: 'Nadaraya–Watson', borderColor: nwColor, backgroundColor: nwColor, borderWidth: 2, pointRadius: 0 }, { xs: s.dense, ys: c.nw }),
          curveDataset({ label: 'local linear', borderColor: lineColor, backgroundColor: lineColor, borderWidth: 2, pointRadius: 0 }, { xs: s.dense, ys: c.line }),
          ...band,
          queryLine(-2, 2),
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
          curveDataset({ label: '', borderColor: colors.grid, backgroundColor: colors.grid, borderWidth: 1, pointRadius: 0 }, { xs: [DENSE.start, DENSE.stop], ys: [0, 0] }),
          curveDataset({ label: 'NW bias', borderColor: nwColor, backgroundColor: nwColor, borderWidth: 2, pointRadius: 0 }, { xs: s.dense, ys: c.nwBias }),
          curveDataset({ label: 'local linear bias', borderColor: lineColor, backgroundColor: lineColor, borderWidth: 2, pointRadius: 0 }, { xs: s.dense, ys: c.lineBias }),
          queryLine(-limit, limit),
        ]);
      });
    }

    function paintProfile(): void {
      const s = sample;
      const p = profile;
      if (!s || !p) return;
      const nwColor = colors.series[0] ?? colors.orange;
      const lineColor = colors.series[1] ?? colors.navy;
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
          curveDataset({ label: '', borderColor: colors.grid, backgroundColor: colors.grid, borderWidth: 1, pointRadius: 0 }, { xs: [DENSE.start, DENSE.stop], ys: [0, 0] }),
          curveDataset({ label: 'NW weights', borderColor: nwColor, backgroundColor: nwColor, borderWidth: 1.5, pointRadius: 0 }, { xs: s.keys, ys: p.nwWeights }),
          pointsDataset({ label: '', backgroundColor: nwColor, borderColor: nwColor, pointRadius: 2.5 }, { xs: s.keys, ys: p.nwWeights }),
          curveDataset({ label: 'local linear weights', borderColor: lineColor, backgroundColor: lineColor, borderWidth: 1.5, pointRadius: 0 }, { xs: s.keys, ys: p.lineWeights }),
          pointsDataset({ label: '', backgroundColor: lineColor, borderColor: lineColor, pointRadius: 2.5 }, { xs: s.keys, ys: p.lineWeights }),
          queryLine(-(2 * top) / 5, top),
        ]);
      });
      setText(nwText, fixed(p.nw, 4));
      setText(lineText, fixed(p.line, 4));
      setText(
        fallbackText,
        p.fallback
          ? 'Here the weighted design is numerically singular (one key carries almost all the weight), so the line falls back to the NW weights.'
          : '',
      );
    }

    function renderTable(): void {
      const s = sample;
      const c = curves;
      if (!s || !c) return;
      table.setRows(
        TABLE_QUERIES.map((q) => {
          const i = denseIndex(q);
          return [
            fixed(s.dense[i] ?? Number.NaN, 2),
            fixed(c.nwBias[i] ?? Number.NaN, 4),
            fixed(c.lineBias[i] ?? Number.NaN, 4),
            fixed(c.nwSd[i] ?? Number.NaN, 4),
            fixed(c.lineSd[i] ?? Number.NaN, 4),
          ];
        }),
      );
    }

    async function computeCurves(): Promise<void> {
      const s = sample;
      if (!s) return;
      const h = state.h;
      try {
        const results = await host.channel('curves').request([
          keeping(call('attention', s.dense, s.keys, s.observed, 1, 1, h), 'outputs'),
          keeping(call('localLinear', s.dense, s.keys, s.observed, 1, h), 'outputs'),
          call('smootherAudit', s.dense, s.keys, 1, s.truthAtKeys, s.truth, s.noise, h),
        ] as const);
        if (!results) return;
        const [nw, line, audit] = results;
        curves = {
          nw: nw.outputs,
          line: line.outputs,
          nwBias: audit.nadarayaWatson.bias,
          lineBias: audit.localLinear.bias,
          nwSd: audit.nadarayaWatson.sd,
          lineSd: audit.localLinear.sd,
          fallbackRows: audit.fallbackRows,
        };
        host.clearError('curves');
        paintCurves();
        renderTable();
      } catch (error) {
        host.showError(error, 'curves');
      }
    }

    async function computeProfile(): Promise<void> {
      const s = sample;
      if (!s) return;
      const query = [state.q];
      try {
        const results = await host.channel('profile').request([
          call('attention', query, s.keys, s.observed, 1, 1, state.h),
          call('localLinear', query, s.keys, s.observed, 1, state.h),
        ] as const);
        if (!results) return;
        const [nw, line] = results;
        profile = {
          nwWeights: nw.weights,
          lineWeights: line.weights,
          nw: nw.outputs[0] ?? Number.NaN,
          line: line.outputs[0] ?? Number.NaN,
          fallback: line.fallbackRows.length > 0,
        };
        host.clearError('profile');
        paintProfile();
      } catch (error) {
        host.showError(error, 'profile');
      }
    }

    async function loadSample(): Promise<void> {
      const available = await host.bridge.available();
      const missing = NEEDED.filter((name) => !available.has(name));
      if (missing.length > 0) {
        waiting();
        host.note(`Waiting for data: this build of the core has no ${missing.join(', ')} yet, so nothing is drawn.`);
        return;
      }
      try {
        const [dataset, config, dense] = await host.bridge.run([
          call('chapterDataset'),
          call('chapterConfig'),
          call('linspace', DENSE.start, DENSE.stop, DENSE.count),
        ] as const);
        const [truth] = await host.bridge.run([call('truth', dense)] as const);
        sample = {
          keys: dataset.keys,
          observed: dataset.observedValues,
          truthAtKeys: dataset.truthAtKeys,
          dense,
          truth,
          noise: config.noise,
        };
        waiting();
        await Promise.all([computeCurves(), computeProfile()]);
      } catch (error) {
        host.showError(error);
      }
    }

    const stopTheme = onThemeChange((next: Palette) => {
      colors = next;
      paintCurves();
      paintProfile();
    });
    renderBandButton();
    void loadSample();
    return {
      destroy() {
        stopTheme();
        for (const chart of charts) chart.destroy();
      },
    };
  },
});

/// For tests: the symmetric axis limit rule.
export const testing = { axisLimit, denseIndex };
