/// Exercise 2's reveal: the OLS target weights on the keys −2…2 at q = 1.5, their sum, the
/// negative entry, and a target vector of the reader's choice whose prediction may leave the range.
import { controlRow, dataTable, querySlider } from '../../ui/controls';
import { fixed, pending, tuple } from '../../ui/format';
import { call } from '../../engine';
import type { StateOf } from '../../ui/state';
import { defineWidget } from '../../ui/host/widget';
import { ROUND_OFF_TEXT, negative, outsideRange } from '../shared/verdict';
import { RangeStrip } from '../shared/range-strip';
import { EXERCISE_KEYS, ONES, reveal, targetEditor } from '../shared/pencil';
import { typeset } from '../../ui/math-text';
import { liveReadout, setText, testNode } from '../../ui/readout';
import prose from './prose.html?raw';
import meta from './meta';

const TARGET_RANGE = { min: -5, max: 5 } as const;

const params = {
  reveal: { kind: 'boolean', label: 'answer shown', default: false },
  q: { kind: 'number', label: 'query q', default: 1.5, min: -3, max: 3, scale: 'linear', step: 0.05 },
  targets: { kind: 'numbers', label: 'targets', default: [0, 1, 1, 1, 1], ...TARGET_RANGE, minLength: 5, maxLength: 5 },
} as const;

type ExerciseState = StateOf<typeof params>;

export default defineWidget({ name: 'exercise-ols-weights', ...meta, params, prose, math: true }, (host) => {
  let last: { state: ExerciseState; weights: Float64Array; weightSum: number; prediction: number } | null = null;
  host.provideExport('weights', () => last, (frame) => {
    return [['key', 'target', 'OLS weight'], ...EXERCISE_KEYS.map((key, i) => [key, frame.state.targets[i] ?? null, frame.weights[i] ?? null])];
  });
  host.provideExport({
    name: 'prediction',
    csv: () => (last ? [['q', 'OLS prediction', 'OLS weight sum'], [last.state.q, last.prediction, last.weightSum]] : []),
  });

  const answer = reveal('Check your answer', host.state.reveal, (open) => host.update({ reveal: open }), host.root.closest('details') !== null);

  const derivation = document.createElement('p');
  derivation.innerHTML = `With the intercept column, $\\widetilde{\\matr{X}}^\\top\\widetilde{\\matr{X}}=\\begin{pmatrix}5&0\\\\0&10\\end{pmatrix}$
    because the keys sum to $0$ and their squares to $10$, so
    $\\lambda_i = \\tfrac{1}{5} + \\tfrac{q\\,k_i}{10}$.`;

  const qText = document.createElement('span');
  const weightsText = testNode('strong', 'ols-weights');
  const sumText = testNode('strong', 'weight-sum');
  const negativeText = testNode('span', 'negative-weight');
  const weightsLine = liveReadout('kl-readout', 'λ(', qText, ') = ', weightsText, ', sum ', sumText, '. ', negativeText);

  const table = dataTable('OLS target weights per key', ['key', 'λ (2 d.p.)', 'λ (4 d.p.)', 'target y']);

  const query = querySlider(params.q, host.state.q, (q) => propose({ q }));

  const tryHeading = document.createElement('p');
  tryHeading.textContent =
    'A target vector that leaves the range: put the large targets where λ is negative (or the small ones where it is largest). Try your own:';
  const editor = targetEditor({
    targets: host.state.targets,
    range: TARGET_RANGE,
    presets: [
      { label: 'the chapter’s witness', targets: [1, 0, 0, 0, 0] },
      { label: 'its mirror', targets: [0, 1, 1, 1, 1] },
    ],
    onChange: (targets) => {
      host.clearError('field');
      propose({ targets });
    },
    // Stays until a valid entry: a computation landing meanwhile does not wipe it.
    onRefuse: (message) => host.showError(message, 'field'),
  });

  const predictionText = testNode('strong', 'prediction');
  const rangeText = document.createElement('span');
  const verdict = testNode('span', 'verdict');
  const predictionLine = liveReadout('kl-readout', 'OLS predicts λᵀy = ', predictionText, ' for the target range ', rangeText, ': ', verdict, '.');
  const strip = new RangeStrip();

  const tableBox = table.element;
  answer.body.append(derivation, controlRow(query.element), weightsLine, tableBox, tryHeading, editor.element, predictionLine, strip.element);
  // Until the core answers, the read-outs and the table's λ columns hold blanks of about their
  // numbers' widths: their arrival shifts nothing.
  setText(qText, fixed(host.state.q, 2));
  const blanks = [
    [weightsText, '(−0.00, 0.00, 0.00, 0.00, 0.00)'], [sumText, '1.00'], [negativeText, 'Negative: λ1 = −0.00 on key −2.'],
    [predictionText, '0.0000'], [rangeText, '[0.00, 0.00]'], [verdict, 'inside the range'],
  ] as const;
  for (const [node, blank] of blanks) setText(node, pending(blank));
  table.setRows(EXERCISE_KEYS.map((key, i) => [fixed(key, 0), pending('−0.00'), pending('−0.0000'), fixed(host.state.targets[i] ?? Number.NaN, 2)]));
  host.root.append(answer.element);
  // The answer's TeX is the figure's own: the page typesets only the prose before it.
  void typeset(host.root);

  /// The state asked of the core; it becomes the figure's state only once the core accepts it,
  /// so a refused input keeps the last answer (and the link).
  let requested: ExerciseState = host.state;
  const checked = host.compute({
    key: 'compute',
    reads: [],
    ask: () => [call('olsPredict', EXERCISE_KEYS, requested.targets, [requested.q], 1), call('olsPredict', EXERCISE_KEYS, ONES, [requested.q], 1)] as const,
    draw([{ weights, predictions }, sum]) {
      const shown = requested;
      host.update({ q: shown.q, targets: shown.targets });
      const prediction = predictions[0] ?? Number.NaN;
      const weightSum = sum.predictions[0] ?? Number.NaN;
      last = { state: shown, weights, weightSum, prediction };
      setText(qText, fixed(shown.q, 2));
      setText(weightsText, tuple(weights, 2));
      setText(sumText, fixed(weightSum, 2));
      const negatives = EXERCISE_KEYS.flatMap((key, i) => (negative(weights[i] ?? 0) ? [`λ${i + 1} = ${fixed(weights[i] ?? 0, 2)} on key ${fixed(key, 0)}`] : []));
      setText(negativeText, negatives.length > 0 ? `Negative: ${negatives.join(', ')}.` : `No weight is below −${ROUND_OFF_TEXT} here.`);
      table.setRows(
        EXERCISE_KEYS.map((key, i) => [
          fixed(key, 0),
          fixed(weights[i] ?? Number.NaN, 2),
          fixed(weights[i] ?? Number.NaN, 4),
          fixed(shown.targets[i] ?? Number.NaN, 2),
        ]),
      );
      const low = Math.min(...shown.targets);
      const high = Math.max(...shown.targets);
      setText(predictionText, fixed(prediction, 4));
      setText(rangeText, `[${fixed(low, 2)}, ${fixed(high, 2)}]`);
      const side = outsideRange(prediction, low, high);
      setText(verdict, side ? `${side} the range by more than ${ROUND_OFF_TEXT} — OLS leaves it` : `inside the range (to ${ROUND_OFF_TEXT})`);
      verdict.className = side ? 'kl-verdict--outside' : 'kl-verdict--inside';
      strip.draw({ low, high, predictions: [{ label: 'OLS', value: prediction }] });
    },
  });

  function propose(partial: Partial<ExerciseState>): void {
    requested = { ...host.state, ...partial };
    checked.refresh();
  }
});
