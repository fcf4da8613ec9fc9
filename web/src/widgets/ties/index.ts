/// Exercise 4, live: keys [0, 0, 1] and the query 0. Halving h step by step drives the stable
/// softmax of the log-scores toward the tie-splitting limit (0.5, 0.5, 0); h ≤ 0 is refused by
/// the core's bandwidth check.
import { barPoints, chartCanvas, scheduleFrame, setDatasets, weightBarChart } from '../../charts';
import { call } from '../../engine';
import { withAlpha } from '../../theme/theme';
import { button, controlRow, dataTable, nameWithCaption, slider } from '../../ui/controls';
import { fixed, pending, precise, tuple } from '../../ui/format';
import { defineWidget } from '../../ui/host/widget';
import { liveReadout, setText, testNode } from '../../ui/readout';
import './ties.css';
import meta from './meta';
import prose from './prose.html?raw';

/// The exercise's keys (two exact nearest-key ties at the query) and query.
const KEYS = [0, 0, 1] as const;
const QUERY = [0] as const;
/// Rows kept in the halving history table.
const MAX_HISTORY = 24;

const params = {
  h: { kind: 'number', label: 'bandwidth h', default: 1, min: 1e-6, max: 10, scale: 'log' },
} as const;

interface Step {
  h: number;
  tau: number;
  scores: Float64Array;
  weights: Float64Array;
}

export default defineWidget({ name: 'ties', ...meta, params, prose }, (host) => {
  let history: Step[] = [];
  let limit: Float64Array | null = null;
  /// The bandwidth asked for (it may lie outside the state's range: h = 0 is asked to be refused)
  /// and whether its step extends the halving history or starts a new one.
  let asked = { h: host.state.h, mode: 'replace' as 'append' | 'replace' };
  host.provideExport({
    name: 'halving history',
    csv: () =>
      history.length
        ? [['h', 'tau', 'weight 1', 'weight 2', 'weight 3'], ...history.map((step) => [step.h, step.tau, ...step.weights])]
        : [],
  });

  const { box, canvas } = chartCanvas(
    'Weights of the keys 0, 0 and 1 for the query 0 at the current bandwidth, beside the tie-splitting limit (0.5, 0.5, 0)',
  );
  const chart = host.own(
    weightBarChart(canvas, {
      labels: KEYS.map((k, i) => `k${i + 1} = ${fixed(k, 0)}`),
      legend: true,
      max: 1.1,
      step: 0.25,
      printed: [0],
    }),
  );

  const hText = testNode('strong', 'bandwidth');
  const weightsText = testNode('strong', 'weights');
  const limitText = testNode('strong', 'limit');
  const readout = liveReadout('kl-readout', 'At h = ', hText, ' the weights are ', weightsText, '; the h → 0⁺ limit is ', limitText, '.');

  const table = dataTable('Each halving of h', ['step', 'h', 'τ = 2h²', 'score of k3', 'α1', 'α2', 'α3', 'α3 (unrounded)']);
  const tableBox = table.element;
  tableBox.classList.add('kl-ties__history');

  const bandwidth = slider({
    label: 'bandwidth h',
    spec: params.h,
    value: host.state.h,
    format: (h) => precise(h, 3),
    onInput: (h) => ask(h, 'replace'),
  });
  const typed = document.createElement('input');
  typed.type = 'number';
  typed.className = 'kl-input';
  typed.step = 'any';
  typed.value = String(host.state.h);
  typed.setAttribute('aria-label', nameWithCaption('bandwidth h, typed value', 'type h'));
  typed.addEventListener('change', () => ask(typed.value.trim() === '' ? Number.NaN : Number(typed.value), 'replace'));
  const typedLabel = document.createElement('label');
  typedLabel.className = 'kl-ties__typed';
  typedLabel.append('type h ', typed);

  const halve = button('Halve h', () => {
    const last = history.at(-1);
    if (last) ask(last.h / 2, 'append');
  });
  halve.setAttribute('aria-label', 'Halve h (Halve the bandwidth h)');
  const zero = button('Try h = 0', () => ask(0, 'replace'));
  zero.setAttribute('aria-label', 'Try h = 0 (bandwidth h = 0)');
  const reset = button('Start again at h = 1', () => ask(params.h.default, 'replace'));
  reset.setAttribute('aria-label', 'Start again at h = 1 (bandwidth h = 1)');

  host.root.append(box, controlRow(halve, zero, reset), controlRow(bandwidth.element, typedLabel), readout, tableBox);
  // Until the core answers, the read-out's blanks are about its numbers' widths.
  setText(hText, pending('0.000'));
  setText(weightsText, pending('(0.0000, 0.0000, 0.0000)'));
  setText(limitText, pending('(0.0, 0.0, 0.0)'));

  function paint(): void {
    const step = history.at(-1);
    if (!step) return;
    scheduleFrame(chart, () => {
      setDatasets(chart, [
        { label: `weights at h = ${precise(step.h, 3)}`, data: barPoints(step.weights), backgroundColor: host.colors.brown },
        {
          label: 'h → 0⁺ limit',
          data: barPoints(limit ?? new Float64Array(KEYS.length)),
          backgroundColor: withAlpha(host.colors.navy, 0.15),
          borderColor: host.colors.navy,
          borderWidth: 1.5,
        },
      ]);
    });
  }

  function render(): void {
    const step = history.at(-1);
    if (!step) return;
    paint();
    setText(hText, precise(step.h, 3));
    setText(weightsText, tuple(step.weights, 4));
    halve.disabled = step.h / 2 < params.h.min;
    table.setRows(
      history.map((row, i) => [
        String(i),
        precise(row.h, 3),
        precise(row.tau, 3),
        precise(row.scores[2] ?? Number.NaN, 3),
        fixed(row.weights[0] ?? Number.NaN, 4),
        fixed(row.weights[1] ?? Number.NaN, 4),
        fixed(row.weights[2] ?? Number.NaN, 4),
        precise(row.weights[2] ?? Number.NaN, 3),
      ]),
    );
    tableBox.scrollTop = tableBox.scrollHeight;
  }

  /// Why a refused bandwidth is no bandwidth, in the exercise's terms.
  function explain(h: number): string {
    const limitNote = limit ? ` The limit h → 0⁺ exists, ${tuple(limit, 1)}, but the value at h = 0 does not.` : '';
    if (h === 0) return `The score −‖q − k‖²/(2h²) divides by 2h² = 0: for the tied keys that is 0/0.${limitNote}`;
    if (h < 0) return `A bandwidth is a width: the Gaussian formula (12.2) asks for h > 0.${limitNote}`;
    if (h > 0 && Number.isFinite(h)) return `At this h, 2h² underflows to 0 in double precision: the score becomes 0/0.${limitNote}`;
    return '';
  }

  /// One step of the exercise at the bandwidth asked for; a refused h keeps the figure as it was.
  const weights = host.compute({
    key: 'tie',
    reads: [],
    ask: () => [
      call('temperatureFromBandwidth', asked.h),
      call('logScores', QUERY, KEYS, 1, asked.h),
      call('attention', QUERY, KEYS, KEYS, 1, 1, asked.h),
    ] as const,
    draw([tau, scores, { weights: stepWeights }]) {
      const { h, mode } = asked;
      const step: Step = { h, tau, scores, weights: stepWeights };
      history = mode === 'append' ? [...history, step].slice(-MAX_HISTORY) : [step];
      host.update({ h });
      if (h >= params.h.min && h <= params.h.max) bandwidth.set(h);
      typed.value = String(h);
      render();
    },
    refused(error) {
      const { h } = asked;
      host.showError(`h = ${Number.isNaN(h) ? typed.value || '(empty)' : precise(h, 3)} is refused: ${error.message}. ${explain(h)}`, 'tie');
    },
  });

  function ask(h: number, mode: 'append' | 'replace'): void {
    asked = { h, mode };
    weights.refresh();
  }

  host.compute({
    key: 'limit',
    reads: [],
    ask: () => [call('nearestKeyLimit', QUERY, KEYS, 1)] as const,
    draw([nearest]) {
      limit = nearest;
      setText(limitText, tuple(nearest, 1));
      paint();
    },
  });

  host.onTheme(() => {
    paint();
  });
});
