/// Exercise 1's reveal: the convexity proof in three steps, checked live on the keys −2…2 with
/// editable targets — NW weights nonnegative and summing to one keep the prediction in
/// [min v, max v]; the signed OLS weights break step 1 and the prediction escapes.
import { bandwidthSlider, controlRow, dataTable, querySlider } from '../../ui/controls';
import { fixed } from '../../ui/format';
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
  h: { kind: 'number', label: 'bandwidth h', default: 1, min: 0.05, max: 5, scale: 'log' },
  q: { kind: 'number', label: 'query q', default: 1.5, min: -3, max: 3, scale: 'linear', step: 0.05 },
  targets: { kind: 'numbers', label: 'targets', default: [1, 0, 0, 0, 0], ...TARGET_RANGE, minLength: 5, maxLength: 5 },
} as const;

type ExerciseState = StateOf<typeof params>;

/// Values for attention with p = 2: each row (v_i, 1), so the outputs are (Σ α_i v_i, Σ α_i).
function withOnes(targets: readonly number[]): number[] {
  return targets.flatMap((y) => [y, 1]);
}

export default defineWidget({ name: 'exercise-convexity', ...meta, params, prose, math: true }, (host) => {
  let last: { state: ExerciseState; olsWeights: Float64Array; nwWeights: Float64Array; predictions: number[] } | null = null;
  host.provideExport('weights', () => last, (frame) => {
    return [
      ['key', 'target', 'OLS weight', 'NW weight'],
      ...EXERCISE_KEYS.map((key, i) => [key, frame.state.targets[i] ?? null, frame.olsWeights[i] ?? null, frame.nwWeights[i] ?? null]),
    ];
  });
  host.provideExport({
    name: 'predictions',
    csv: () => (last ? [['q', 'h', 'OLS prediction', 'OLS weight sum', 'NW prediction', 'NW weight sum'], [last.state.q, last.state.h, ...last.predictions]] : []),
  });

  const answer = reveal('Check your answer', host.state.reveal, (open) => host.update({ reveal: open }), host.root.closest('details') !== null);
  const proof = document.createElement('ol');
  proof.innerHTML = `
    <li><strong>Nonnegative.</strong> $\\alpha_i = \\kappa_h(\\vect{q},\\vect{k}_i)/\\sum_j\\kappa_h(\\vect{q},\\vect{k}_j)$
      is a nonnegative number over a positive one, so $\\alpha_i\\ge0$.</li>
    <li><strong>Sum to one.</strong> $\\sum_i\\alpha_i = \\sum_i\\kappa_h(\\vect{q},\\vect{k}_i)/\\sum_j\\kappa_h(\\vect{q},\\vect{k}_j) = 1$:
      a convex combination.</li>
    <li><strong>Bounded.</strong> Because $\\alpha_i\\ge0$, $\\alpha_i\\min_j v_j \\le \\alpha_i v_i \\le \\alpha_i\\max_j v_j$;
      summing over $i$ and using $\\sum_i\\alpha_i=1$ gives $\\min_j v_j \\le \\widehat f_h(\\vect{q}) \\le \\max_j v_j$.</li>`;
  const verdictText = document.createElement('p');
  verdictText.innerHTML = `For OLS, step 2 survives (the intercept makes $\\sum_i\\lambda_i=1$) but step 1 fails: some
    $\\lambda_i$ can be negative, and multiplying the inequality of step 3 by a negative weight
    flips it. Check it on the keys $-2,\\dots,2$:`;

  const table = dataTable('Weights per key: OLS λ against Nadaraya–Watson α', ['key', 'target v', 'OLS λ', 'NW α']);
  const summary = dataTable('The three steps, checked', ['check', 'OLS λ', 'NW α']);

  const query = querySlider(params.q, host.state.q, (q) => propose({ q }));
  const bandwidth = bandwidthSlider(params.h, host.state.h, (h) => propose({ h }));
  const editor = targetEditor({
    targets: host.state.targets,
    range: TARGET_RANGE,
    presets: [
      { label: 'the chapter’s witness', targets: [1, 0, 0, 0, 0] },
      { label: 'a ramp', targets: [-2, -1, 0, 1, 2] },
    ],
    onChange: (targets) => {
      host.clearError('field');
      propose({ targets });
    },
    // Stays until a valid entry: a computation landing meanwhile does not wipe it.
    onRefuse: (message) => host.showError(message, 'field'),
  });
  const olsText = testNode('strong', 'ols-prediction');
  const nwText = testNode('strong', 'nw-prediction');
  const rangeText = testNode('span', 'target-range');
  const readout = liveReadout('kl-readout', 'Predictions: OLS ', olsText, ', NW ', nwText, '; target range ', rangeText, '.');
  const strip = new RangeStrip();

  answer.body.append(
    proof,
    verdictText,
    editor.element,
    controlRow(query.element, bandwidth.element),
    table.element,
    summary.element,
    readout,
    strip.element,
  );
  host.root.append(answer.element);
  // The answer's TeX is the figure's own: the page typesets only the prose before it.
  void typeset(host.root);

  /// The state asked of the core; it becomes the figure's state only once the core accepts it,
  /// so a refused input keeps the last answer (and the link).
  let requested: ExerciseState = host.state;
  const checks = host.compute({
    key: 'compute',
    reads: [],
    ask: () =>
      [
        call('olsPredict', EXERCISE_KEYS, requested.targets, [requested.q], 1),
        call('olsPredict', EXERCISE_KEYS, ONES, [requested.q], 1),
        call('attention', [requested.q], EXERCISE_KEYS, withOnes(requested.targets), 1, 2, requested.h),
      ] as const,
    draw([ols, olsSum, nw]) {
      const shown = requested;
      host.update({ h: shown.h, q: shown.q, targets: shown.targets });
      const olsPrediction = ols.predictions[0] ?? Number.NaN;
      const [nwPrediction = Number.NaN, nwSum = Number.NaN] = nw.outputs;
      const olsWeightSum = olsSum.predictions[0] ?? Number.NaN;
      last = { state: shown, olsWeights: ols.weights, nwWeights: nw.weights, predictions: [olsPrediction, olsWeightSum, nwPrediction, nwSum] };
      const low = Math.min(...shown.targets);
      const high = Math.max(...shown.targets);
      const inside = (x: number): boolean => outsideRange(x, low, high) === null;
      const smallest = (w: Float64Array): number => Math.min(...w);
      const yesNo = (ok: boolean): string => (ok ? 'yes' : 'no');
      table.setRows(
        EXERCISE_KEYS.map((key, i) => [
          fixed(key, 0),
          fixed(shown.targets[i] ?? Number.NaN, 2),
          fixed(ols.weights[i] ?? Number.NaN, 4),
          fixed(nw.weights[i] ?? Number.NaN, 4),
        ]),
      );
      summary.setRows([
        ['smallest weight', fixed(smallest(ols.weights), 4), fixed(smallest(nw.weights), 4)],
        [`1. every weight ≥ 0 (to ${ROUND_OFF_TEXT})?`, yesNo(!negative(smallest(ols.weights))), yesNo(!negative(smallest(nw.weights)))],
        ['2. sum of weights', fixed(olsWeightSum, 4), fixed(nwSum, 4)],
        ['prediction', fixed(olsPrediction, 4), fixed(nwPrediction, 4)],
        [`3. inside [min v, max v] (to ${ROUND_OFF_TEXT})?`, yesNo(inside(olsPrediction)), yesNo(inside(nwPrediction))],
      ]);
      setText(olsText, fixed(olsPrediction, 4));
      setText(nwText, fixed(nwPrediction, 4));
      setText(rangeText, `[${fixed(low, 2)}, ${fixed(high, 2)}]`);
      strip.draw({ low, high, predictions: [{ label: 'OLS', value: olsPrediction }, { label: 'NW', value: nwPrediction }] });
    },
  });

  function propose(partial: Partial<ExerciseState>): void {
    requested = { ...host.state, ...partial };
    checks.refresh();
  }
});
