/// Section 12.1 against 12.2: signed OLS hat weights next to convex Nadaraya–Watson weights on
/// the keys −2…2, and the witness targets whose OLS prediction leaves the observed range.
import { barPoints, barValueLabels, chartCanvas, createChart, scheduleFrame, weightTick, type Chart } from '../../charts';
import { bandwidthSlider, controlRow, dataTable, querySlider } from '../../ui/controls';
import { fixed, pending, pythonFloat, tuple } from '../../ui/format';
import { call } from '../../engine';
import { defineWidget } from '../../ui/host/widget';
import { ROUND_OFF_TEXT, negative, outsideRange } from '../shared/verdict';
import { RangeStrip } from '../shared/range-strip';
import { liveReadout, setText, testNode } from '../../ui/readout';
import prose from './prose.html?raw';
import meta from './meta';

const KEYS = [-2, -1, 0, 1, 2] as const;

const params = {
  h: { kind: 'number', label: 'bandwidth h', default: 1, min: 0.05, max: 5, scale: 'log' },
  q: { kind: 'number', label: 'query q', default: 1.5, min: -3, max: 3, scale: 'linear', step: 0.05 },
  targets: { kind: 'numbers', label: 'targets', default: [1, 0, 0, 0, 0], min: -5, max: 5, minLength: 5, maxLength: 5 },
} as const;

/// Weight axis shared by both panels so their bars compare directly.
const WEIGHT_AXIS = { min: -0.5, max: 1.05 } as const;

function weightChart(canvas: HTMLCanvasElement, title: string): Chart<'bar'> {
  return createChart<'bar'>(canvas, {
    type: 'bar',
    data: { labels: KEYS.map((k) => `k=${fixed(k, 0)}`), datasets: [{ label: title, data: [], backgroundColor: [] }] },
    options: {
      plugins: { title: { display: true, text: title } },
      scales: {
        x: { type: 'category', title: { display: true, text: 'key' } },
        y: {
          type: 'linear',
          ...WEIGHT_AXIS,
          title: { display: true, text: 'weight on each target' },
          ticks: { stepSize: 0.25, callback: weightTick(2) },
        },
      },
    },
    plugins: [barValueLabels((w) => fixed(w, 4))],
  });
}

export default defineWidget({ name: 'ols-vs-nw', ...meta, params, prose }, (host) => {
  const olsBox = chartCanvas('OLS weights λ(q) on the keys −2 to 2, signed');
  const nwBox = chartCanvas('Nadaraya–Watson weights α(q) on the keys −2 to 2, nonnegative');
  const ols = host.own(weightChart(olsBox.canvas, 'OLS λ(q): signed'));
  const nw = host.own(weightChart(nwBox.canvas, 'Nadaraya–Watson α(q): convex'));
  const strip = new RangeStrip();
  let last: { olsWeights: Float64Array; nwWeights: Float64Array } | null = null;
  host.provideExport({
    name: 'weights',
    csv: () => (last ? [['key', 'OLS weight', 'NW weight'], ...KEYS.map((k, i) => [k, last?.olsWeights[i] ?? null, last?.nwWeights[i] ?? null])] : []),
  });

  const olsText = testNode('strong', 'ols-prediction');
  const nwText = testNode('strong', 'nw-prediction');
  const rangeText = document.createElement('span');
  const targetsText = document.createElement('span');
  const readout = liveReadout('kl-readout', 'Targets ', targetsText, ': OLS predicts ', olsText, ', NW predicts ', nwText, '; ', rangeText);

  const table = dataTable('Weights per key, and each column\'s sum as the chapter prints it', ['key', 'target', 'OLS λ', 'NW α']);
  const bandwidth = bandwidthSlider(params.h, host.state.h, (h) => host.update({ h }));
  const query = querySlider(params.q, host.state.q, (q) => host.update({ q }));

  const charts = document.createElement('div');
  charts.className = 'kl-charts kl-charts--pair';
  charts.append(olsBox.box, nwBox.box);
  host.root.append(charts, controlRow(query.element, bandwidth.element), readout, strip.element, table.element);
  // Until the core answers, the read-out's blanks are about its numbers' widths.
  setText(targetsText, pending('(0, 0, 0, 0, 0)'));
  setText(olsText, pending('−0.0000'));
  setText(nwText, pending('0.0000'));
  setText(rangeText, pending('target range [0, 0].'));

  function paintBars(olsWeights: Float64Array, nwWeights: Float64Array): void {
    scheduleFrame(ols, () => {
      const dataset = ols.data.datasets[0];
      if (!dataset) return;
      dataset.data = barPoints(olsWeights);
      dataset.backgroundColor = Array.from(olsWeights, (w) => (negative(w) ? host.colors.orange : host.colors.navy));
    });
    scheduleFrame(nw, () => {
      const dataset = nw.data.datasets[0];
      if (!dataset) return;
      dataset.data = barPoints(nwWeights);
      dataset.backgroundColor = host.colors.brown;
    });
  }

  host.compute({
    key: 'weights',
    ask: (state) => [call('olsPredict', KEYS, state.targets, [state.q], 1), call('attention', [state.q], KEYS, state.targets, 1, 1, state.h)] as const,
    draw([olsResult, nwResult], state) {
      last = { olsWeights: olsResult.weights, nwWeights: nwResult.weights };
      paintBars(olsResult.weights, nwResult.weights);
      const olsPrediction = olsResult.predictions[0] ?? Number.NaN;
      const nwPrediction = nwResult.outputs[0] ?? Number.NaN;
      const low = Math.min(...state.targets);
      const high = Math.max(...state.targets);
      const outside = (x: number): boolean => outsideRange(x, low, high) !== null;
      setText(targetsText, tuple(state.targets, 0));
      setText(olsText, fixed(olsPrediction, 4));
      setText(nwText, fixed(nwPrediction, 4));
      setText(
        rangeText,
        `target range [${fixed(low, 0)}, ${fixed(high, 0)}]${outside(olsPrediction) ? ' — OLS leaves it' : ''}${
          outside(nwPrediction) ? ' — NW leaves it' : ''
        }${outside(olsPrediction) || outside(nwPrediction) ? ` (by more than ${ROUND_OFF_TEXT})` : ` (to ${ROUND_OFF_TEXT})`}.`,
      );
      strip.draw({ low, high, predictions: [{ label: 'OLS', value: olsPrediction }, { label: 'NW', value: nwPrediction }] });
      table.setRows(
        KEYS.map((k, i) => [fixed(k, 0), fixed(state.targets[i] ?? 0, 2), fixed(olsResult.weights[i] ?? 0, 4), fixed(nwResult.weights[i] ?? 0, 4)]),
      );
      sums.refresh();
    },
  });

  /// "sum: 1.0" for both, as the chapter's print(..., weights.sum()) shows them.
  const sums = host.compute({
    key: 'sums',
    reads: [],
    ask: () => (last ? ([call('rowSums', last.olsWeights, KEYS.length), call('rowSums', last.nwWeights, KEYS.length)] as const) : null),
    draw([olsSum, nwSum]) {
      table.setFooter(['sum', '', pythonFloat(olsSum[0] ?? Number.NaN), pythonFloat(nwSum[0] ?? Number.NaN)]);
    },
  });

  host.onTheme(() => {
    if (last) paintBars(last.olsWeights, last.nwWeights);
  });
});
