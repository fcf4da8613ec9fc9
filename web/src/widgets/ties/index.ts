/// Exercise 4, live: keys [0, 0, 1] and the query 0. Halving h step by step drives the stable
/// softmax of the log-scores toward the tie-splitting limit (0.5, 0.5, 0); h ≤ 0 is refused by
/// the core's bandwidth check.
import { barPoints, chartCanvas, onThemeChange, palette, scheduleFrame, setDatasets, weightBarChart, withAlpha, type Chart, type Palette } from '../../charts';
import { button, controlRow, dataTable, slider } from '../../core/controls';
import { fixed, pending, precise, tuple } from '../../core/format';
import { call } from '../../core/protocol';
import type { StateOf } from '../../core/state';
import { defineWidget } from '../../core/widget';
import './ties.css';
import { liveReadout, setText, testNode } from '../../core/readout';
import prose from './prose.html?raw';
import meta from './meta';

/// The exercise's keys (two exact nearest-key ties at the query) and query.
const KEYS = [0, 0, 1] as const;
const QUERY = [0] as const;
/// Rows kept in the halving history table.
const MAX_HISTORY = 24;

const params = {
  h: { kind: 'number', label: 'bandwidth h', default: 1, min: 1e-6, max: 10, scale: 'log' },
} as const;

type TiesState = StateOf<typeof params>;

interface Step {
  h: number;
  tau: number;
  scores: Float64Array;
  weights: Float64Array;
}

export default defineWidget({
  name: 'ties',
  ...meta,
  params,
  prose,

  mount(host, initial) {
    let state: TiesState = { ...initial };
    const channel = host.channel('tie');
    const limitChannel = host.channel('limit');
    let colors = palette();
    let history: Step[] = [];
    host.provideExport({
      name: 'halving history',
      csv: () =>
        history.length
          ? [['h', 'tau', 'weight 1', 'weight 2', 'weight 3'], ...history.map((step) => [step.h, step.tau, ...step.weights])]
          : [],
    });
    let limit: Float64Array | null = null;

    const { box, canvas } = chartCanvas(
      'Weights of the keys 0, 0 and 1 for the query 0 at the current bandwidth, beside the tie-splitting limit (0.5, 0.5, 0)',
    );
    const chart = weightBarChart(canvas, {
      labels: KEYS.map((k, i) => `k${i + 1} = ${fixed(k, 0)}`),
      legend: true,
      max: 1.1,
      step: 0.25,
      printed: [0],
    });

    const hText = testNode('strong', 'bandwidth');
    const weightsText = testNode('strong', 'weights');
    const limitText = testNode('strong', 'limit');
    const readout = liveReadout('kl-readout', 'At h = ', hText, ' the weights are ', weightsText, '; the h → 0⁺ limit is ', limitText, '.');

    const table = dataTable('Each halving of h', [
      'step',
      'h',
      'τ = 2h²',
      'score of k3',
      'α1',
      'α2',
      'α3',
      'α3 (unrounded)',
    ]);
    const tableBox = table.element;
    tableBox.classList.add('kl-ties__history');

    const bandwidth = slider({
      label: 'bandwidth h',
      spec: params.h,
      value: state.h,
      format: (h) => precise(h, 3),
      onInput: (h) => start(h),
    });
    const typed = document.createElement('input');
    typed.type = 'number';
    typed.className = 'kl-input';
    typed.step = 'any';
    typed.value = String(state.h);
    typed.setAttribute('aria-label', 'bandwidth h, typed value');
    typed.addEventListener('change', () => {
      const h = typed.value.trim() === '' ? Number.NaN : Number(typed.value);
      void compute(h, 'replace');
    });
    const typedLabel = document.createElement('label');
    typedLabel.className = 'kl-ties__typed';
    typedLabel.append('type h ', typed);

    const halve = button('Halve h', () => {
      const last = history.at(-1);
      if (last) void compute(last.h / 2, 'append');
    });
    halve.setAttribute('aria-label', 'Halve h (Halve the bandwidth h)');
    const zero = button('Try h = 0', () => void compute(0, 'replace'));
    zero.setAttribute('aria-label', 'Try h = 0 (bandwidth h = 0)');
    const reset = button('Start again at h = 1', () => start(params.h.default));
    reset.setAttribute('aria-label', 'Start again at h = 1 (bandwidth h = 1)');

    host.root.append(box, controlRow(halve, zero, reset), controlRow(bandwidth.element, typedLabel), readout, tableBox);
    // Until the core answers, the read-out's blanks are about its numbers' widths.
    setText(hText, pending('0.000'));
    setText(weightsText, pending('(0.0000, 0.0000, 0.0000)'));
    setText(limitText, pending('(0.0, 0.0, 0.0)'));

    function paint(step: Step): void {
      scheduleFrame(chart as unknown as Chart, () => {
        setDatasets(chart, [
          { label: `weights at h = ${precise(step.h, 3)}`, data: barPoints(step.weights), backgroundColor: colors.brown },
          {
            label: 'h → 0⁺ limit',
            data: barPoints(limit ?? new Float64Array(KEYS.length)),
            backgroundColor: withAlpha(colors.navy, 0.15),
            borderColor: colors.navy,
            borderWidth: 1.5,
          },
        ]);
      });
    }

    function render(): void {
      const step = history.at(-1);
      if (!step) return;
      paint(step);
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

    /// Computes one bandwidth; 'append' adds it to the halving history, 'replace' starts a new one.
    async function compute(h: number, mode: 'append' | 'replace'): Promise<void> {
      try {
        const results = await channel.request([
          call('temperatureFromBandwidth', h),
          call('logScores', QUERY, KEYS, 1, h),
          call('attention', QUERY, KEYS, KEYS, 1, 1, h),
        ] as const);
        if (!results) return;
        const [tau, scores, { weights }] = results;
        host.clearError();
        const step: Step = { h, tau, scores, weights };
        history = mode === 'append' ? [...history, step].slice(-MAX_HISTORY) : [step];
        state = { h };
        host.setState(state);
        if (h >= params.h.min && h <= params.h.max) bandwidth.set(h);
        typed.value = String(h);
        render();
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        host.showError(`h = ${Number.isNaN(h) ? typed.value || '(empty)' : precise(h, 3)} is refused: ${reason}. ${explain(h)}`);
      }
    }

    /// Why a refused bandwidth is no bandwidth, in the exercise's terms.
    function explain(h: number): string {
      const limitNote = limit ? ` The limit h → 0⁺ exists, ${tuple(limit, 1)}, but the value at h = 0 does not.` : '';
      if (h === 0) return `The score −‖q − k‖²/(2h²) divides by 2h² = 0: for the tied keys that is 0/0.${limitNote}`;
      if (h < 0) return `A bandwidth is a width: the Gaussian formula (12.2) asks for h > 0.${limitNote}`;
      if (h > 0 && Number.isFinite(h)) return `At this h, 2h² underflows to 0 in double precision: the score becomes 0/0.${limitNote}`;
      return '';
    }

    function start(h: number): void {
      void compute(h, 'replace');
    }

    async function loadLimit(): Promise<void> {
      try {
        const results = await limitChannel.request([call('nearestKeyLimit', QUERY, KEYS, 1)] as const);
        if (!results) return;
        limit = results[0];
        setText(limitText, tuple(limit, 1));
        const step = history.at(-1);
        if (step) paint(step);
      } catch (error) {
        host.showError(error);
      }
    }

    const stopTheme = onThemeChange((next: Palette) => {
      colors = next;
      const step = history.at(-1);
      if (step) paint(step);
    });
    void loadLimit();
    start(state.h);
    return {
      destroy() {
        stopTheme();
        chart.destroy();
      },
    };
  },
});
