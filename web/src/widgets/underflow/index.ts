/// Section 12.5's numerical trap, live: a distant query and a small bandwidth make every directly
/// exponentiated Gaussian kernel underflow to 0, so naive normalisation computes 0 ÷ 0; the
/// log-space softmax of eq. 12.4 stays finite. The log-kernel identity is measured beside it.
import type { Plugin } from '../../charts';
import { barPoints, canvasFont, chartCanvas, scheduleFrame, weightBarChart, type Chart } from '../../charts';
import { palette } from '../../theme/theme';
import { bandwidthSlider, controlRow, dataTable, slider } from '../../ui/controls';
import { fixed, pending, precise, scientific } from '../../ui/format';
import { subheading } from '../../ui/headings';
import { call } from '../../engine';
import { liveReadout, setText, testNode } from '../../ui/readout';
import type { StateOf } from '../../ui/state';
import { refusalOf, typedNumber } from '../../ui/typed-input';
import { defineWidget } from '../../ui/host/widget';
import type { UnderflowReport } from '../../engine';
import './underflow.css';
import prose from './prose.html?raw';
import meta from './meta';

const params = {
  q: { kind: 'number', label: 'far query q', default: 1000, min: 1, max: 100000, scale: 'log' },
  h: { kind: 'number', label: 'bandwidth h', default: 0.1, min: 0.01, max: 10, scale: 'log' },
  iq: { kind: 'number', label: 'identity query q', default: 0.37, min: -3, max: 3, scale: 'linear', step: 0.01 },
  ih: { kind: 'number', label: 'identity bandwidth h', default: 0.28, min: 0.01, max: 10, scale: 'log' },
} as const;

type UnderflowState = StateOf<typeof params>;

/// Keys listed in the table: the largest log-scores of the far query.
const LISTED_KEYS = 5;

/// Python's bool as the chapter prints it.
const pythonBool = (x: boolean): string => (x ? 'True' : 'False');

/// Writes `message()` across the plot area when it returns text (for a chart with nothing to draw).
function emptyNote(message: () => string | null): Plugin<'bar'> {
  return {
    id: 'klEmptyNote',
    afterDatasetsDraw(chart) {
      const text = message();
      if (!text) return;
      const { ctx, chartArea } = chart;
      ctx.save();
      ctx.fillStyle = palette(chart).orange;
      ctx.font = canvasFont(15, 600, chart);
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(text, (chartArea.left + chartArea.right) / 2, (chartArea.top + chartArea.bottom) / 2);
      ctx.restore();
    },
  };
}

function heading(text: string): HTMLHeadingElement {
  return subheading(text, 'kl-underflow__heading');
}

/// One side of the comparison: a heading over its read-outs and chart.
function panel(title: string, ...parts: HTMLElement[]): HTMLElement {
  const section = document.createElement('section');
  section.className = 'kl-underflow__panel';
  section.append(heading(title), ...parts);
  return section;
}

function weightChart(canvas: HTMLCanvasElement, color: string, plugins: Plugin<'bar'>[] = []): Chart<'bar'> {
  const chart = weightBarChart(canvas, {
    datasets: [{ label: 'weight', data: [], backgroundColor: color, barPercentage: 1, categoryPercentage: 1 }],
    xTitle: 'key location (sorted)',
    xTicks: 6,
    printed: [],
    plugins,
  });
  // The nearest key is the last one: room beyond the axis's end keeps its bar whole in view.
  chart.options.layout = { padding: { right: 12 } };
  return chart;
}

export default defineWidget({ name: 'underflow', ...meta, params, prose }, (host) => {
  let keys: Float64Array | null = null;
  let far: UnderflowReport | null = null;
  let farQueryUsed = host.state.q;
  let farBandwidthUsed = host.state.h;
  host.provideExport('naive and stable weights', () => far && keys && { report: far, at: keys }, ({ report, at }) => [
    ['q', 'h', 'key', 'log-score', 'kernel exp(log-score)', 'naive weight', 'stable weight'],
    ...Array.from(at, (k, i) => [
      farQueryUsed,
      farBandwidthUsed,
      k,
      report.logScores[i] ?? null,
      report.kernelValues[i] ?? null,
      report.naiveWeights[i] ?? null,
      report.stableWeights[i] ?? null,
    ]),
  ]);

  const identityDifference = testNode('strong', 'identity-difference');
  const identityReadout = liveReadout('kl-readout', 'max |normalize(K)−softmax(log K)|: ', identityDifference);
  const identityQuery = slider({
    label: 'identity query q',
    spec: params.iq,
    value: host.state.iq,
    format: (q) => fixed(q, 2),
    onInput: (iq) => host.update({ iq }),
  });
  const identityBandwidth = bandwidthSlider(params.ih, host.state.ih, (ih) => host.update({ ih }), 'h (identity)');

  const naiveDenominator = testNode('strong', 'naive-denominator');
  const naiveFinite = testNode('strong', 'naive-finite');
  const naiveWeights = testNode('strong', 'naive-weights');
  // A phrase, not a number: it may wrap between its words in a narrow figure.
  naiveWeights.className = 'kl-words';
  const stableSum = testNode('strong', 'stable-sum');
  const nearestKey = testNode('strong', 'nearest-key');

  const naiveBox = chartCanvas('Naive weights: the directly exponentiated kernels divided by their sum, one bar per key (none when the weights are NaN)');
  const stableBox = chartCanvas('Stable weights: softmax of the log-kernel scores, one bar per key');
  const naiveChart = host.own(
    weightChart(naiveBox.canvas, host.colors.grey, [emptyNote(() => (far && !far.naiveAllFinite ? '0 ÷ 0 = NaN' : null))]),
  );
  const stableChart = host.own(weightChart(stableBox.canvas, host.colors.orange));

  const naivePanel = panel(
    'Naive: exponentiate, then normalise',
    liveReadout('kl-readout', 'denominator Σ κ = ', naiveDenominator),
    liveReadout('kl-readout', 'weights = ', naiveWeights, ', all finite = ', naiveFinite),
    naiveBox.box,
  );
  const stablePanel = panel(
    'Stable: softmax of log-scores',
    liveReadout('kl-readout', 'sum = ', stableSum),
    liveReadout('kl-readout', 'nearest key = ', nearestKey),
    stableBox.box,
  );
  const panels = document.createElement('div');
  panels.className = 'kl-charts kl-charts--pair';
  panels.append(naivePanel, stablePanel);

  const farQuery = slider({
    label: 'far query q',
    spec: params.q,
    value: host.state.q,
    format: (q) => precise(q, 4),
    onInput: (q) => update({ q }),
  });
  const farBandwidth = bandwidthSlider(params.h, host.state.h, (h) => update({ h }));
  const typedQuery = typedNumber({ label: 'far query q, typed value', caption: 'type q', value: host.state.q, onChange: (q) => update({ q }) });
  const typedBandwidth = typedNumber({ label: 'bandwidth h, typed value', caption: 'type h', value: host.state.h, onChange: (h) => update({ h }) });
  const table = dataTable('The far query’s largest log-scores: a = −‖q − k‖²/2h², κ = exp(a) computed directly', [
    'key k',
    'log-score a',
    'κ = exp(a)',
    'naive weight',
    'stable weight',
  ]);

  host.root.append(
    heading('Near the keys both routes agree'),
    identityReadout,
    controlRow(identityQuery.element, identityBandwidth.element),
    heading('A far query'),
    controlRow(farQuery.element, typedQuery.element),
    controlRow(farBandwidth.element, typedBandwidth.element),
    panels,
    table.element,
  );
  // Until the core answers: blanks of about the answers' widths, so their arrival moves
  // nothing below them (no layout shift).
  setText(identityDifference, pending('2.78e-17'));
  setText(naiveDenominator, pending('0.0 (exactly zero)'));
  setText(naiveWeights, pending('0 ÷ 0 = NaN for 60 of 60 keys'));
  setText(naiveFinite, pending('False'));
  setText(stableSum, pending('1.0'));
  setText(nearestKey, pending('0.0000'));
  table.setRows(
    Array.from({ length: LISTED_KEYS }, () => [pending('0.0000'), pending('−0.0000e+00'), pending('0.0000e+00'), pending('0.0000'), pending('0.0000')]),
  );

  function paintBars(chart: Chart<'bar'>, labels: string[], weights: Float64Array, color: string): void {
    scheduleFrame(chart, () => {
      const dataset = chart.data.datasets[0];
      if (!dataset) return;
      chart.data.labels = labels;
      dataset.data = barPoints(weights);
      dataset.backgroundColor = color;
    });
  }

  function drawFar(report: UnderflowReport, at: Float64Array): void {
    far = report;
    setText(
      naiveDenominator,
      report.naiveDenominator === 0 ? '0.0 (exactly zero)' : `${fixed(report.naiveDenominator, 1)} (${scientific(report.naiveDenominator)})`,
    );
    const nans = Array.from(report.naiveWeights).filter(Number.isNaN).length;
    setText(naiveWeights, nans > 0 ? `0 ÷ 0 = NaN for ${nans} of ${at.length} keys` : 'finite');
    setText(naiveFinite, pythonBool(report.naiveAllFinite));
    setText(stableSum, fixed(report.stableSum, 1));
    setText(nearestKey, fixed(at[report.nearestIndex] ?? Number.NaN, 4));
    const labels = Array.from(at, (k) => fixed(k, 2));
    paintBars(naiveChart, labels, report.naiveWeights, host.colors.grey);
    paintBars(stableChart, labels, report.stableWeights, host.colors.orange);
    const order = Array.from(report.logScores.keys())
      .sort((a, b) => (report.logScores[b] ?? 0) - (report.logScores[a] ?? 0))
      .slice(0, LISTED_KEYS);
    table.setRows(
      order.map((i) => [
        fixed(at[i] ?? Number.NaN, 4),
        scientific(report.logScores[i] ?? Number.NaN, 4),
        scientific(report.kernelValues[i] ?? Number.NaN, 4),
        fixed(report.naiveWeights[i] ?? Number.NaN, 4),
        fixed(report.stableWeights[i] ?? Number.NaN, 4),
      ]),
    );
  }

  /// The laboratory's keys, loaded once; both reports wait for them.
  host.compute({
    key: 'dataset',
    reads: [],
    ask: () => [call('chapterDataset')] as const,
    draw([dataset]) {
      keys = dataset.keys;
      farReport.refresh();
      identityReport.refresh();
    },
  });

  const farReport = host.compute({
    key: 'far',
    reads: ['q', 'h'],
    ask: (state) => (keys ? [call('underflowReport', [state.q], keys, 1, state.h)] as const : null),
    draw([report], state) {
      if (!keys) return;
      farQueryUsed = state.q;
      farBandwidthUsed = state.h;
      drawFar(report, keys);
    },
    refused(error, state) {
      host.showError(refusalOf([{ name: 'q', value: state.q, typed: typedQuery }, { name: 'h', value: state.h, typed: typedBandwidth }], error.message, 'a number'), 'far');
    },
  });

  const identityReport = host.compute({
    key: 'identity',
    reads: ['iq', 'ih'],
    ask: (state) => (keys ? [call('underflowReport', [state.iq], keys, 1, state.ih)] as const : null),
    draw([{ maxAbsDifference: difference }]) {
      setText(identityDifference, difference === null ? 'undefined: the naive weights are NaN here' : scientific(difference));
    },
    refused(error, state) {
      host.showError(refusalOf([{ name: 'q', value: state.iq }, { name: 'h', value: state.ih }], error.message, 'a number'), 'identity');
    },
  });

  /// Sets the far query's parameters from a control and shows them on the others.
  function update(partial: Partial<Pick<UnderflowState, 'q' | 'h'>>): void {
    host.update(partial);
    if (partial.q !== undefined && Number.isFinite(partial.q)) {
      farQuery.set(partial.q);
      typedQuery.set(partial.q);
    }
    if (partial.h !== undefined && Number.isFinite(partial.h)) {
      if (partial.h > 0) farBandwidth.set(partial.h);
      typedBandwidth.set(partial.h);
    }
  }

  host.onTheme(() => {
    if (far && keys) drawFar(far, keys);
  });
});
