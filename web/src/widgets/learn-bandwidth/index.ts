/// Beyond the chapter: from a fixed h to a learned one. Gradient descent on log h for the
/// leave-one-out risk of the Gaussian rule on the chapter's sample, from a start the reader picks,
/// one step at a time or animated: the steps drawn on the leave-one-out curve, the fitted curve
/// and the attention map at the current h. Every h, risk and gradient is the core's (looDescent).
import { button, controlRow, slider } from '../../ui/controls';
import { setText } from '../../ui/readout';
import { fixed, precise, significant } from '../../ui/format';
import { call, keeping } from '../../engine';
import { defineWidget } from '../../ui/host/widget';
import { loadChapterSample } from '../shared/chapter-sample';
import { player } from './play';
import { auditComparison } from './compare';
import { learnView, type Descent, type Sample } from './view';
import prose from './prose.html?raw';
import meta from './meta';

const DENSE = { start: -3, stop: 3, count: 301 } as const;
/// The attention map's queries: Figure 12.3's 31 on [−2.9, 2.9].
const MAP = { start: -2.9, stop: 2.9, count: 31 } as const;
/// The leave-one-out curve's bandwidths: 121 evenly spaced in log h over the slider's range.
const CURVE = { min: 0.02, max: 3, count: 121 } as const;
const MAX_STEPS = 200;
/// Animation: one step per tick; it stops at MAX_STEPS or once a step moves log h by less than this.
const TICK_MS = 220;
const SETTLED = 1e-4;

const params = {
  start: { kind: 'number', label: 'starting bandwidth h₀', default: 1.5, min: CURVE.min, max: CURVE.max, scale: 'log' },
  rate: { kind: 'number', label: 'learning rate η', default: 3, min: 0.1, max: 30, scale: 'log' },
  steps: { kind: 'integer', label: 'steps taken', default: 0, min: 0, max: MAX_STEPS },
} as const;

/// `count` bandwidths evenly spaced in log h from min to max (the grid the curve is evaluated on).
function logGrid({ min, max, count }: { min: number; max: number; count: number }): Float64Array {
  const ratio = Math.log(max / min);
  return Float64Array.from({ length: count }, (_, i) => min * Math.exp((ratio * i) / (count - 1)));
}

export default defineWidget({ name: 'learn-bandwidth', ...meta, params, prose }, (host) => {
  let sample: Sample | null = null;
  let descent: Descent | null = null;

  const view = learnView(host, DENSE, CURVE.min, CURVE.max);
  /// A slider for the start or the rate: moving it stops the run and starts it over from step 0.
  const runSlider = (key: 'start' | 'rate', label: string, caption: string, format: (x: number) => string) =>
    slider({
      label,
      caption,
      spec: { min: params[key].min, max: params[key].max, scale: 'log' },
      value: host.state[key],
      format,
      onInput: (value) => {
        animation.stop();
        host.update({ [key]: value, steps: 0 });
      },
    });
  const startSlider = runSlider('start', 'starting bandwidth h0', 'start h₀', (x) => precise(x, 3));
  const rateSlider = runSlider('rate', 'bandwidth learning rate η', 'rate η (log h per unit of risk)', (x) => significant(x, 3));
  const stepButton = button('Step', () => {
    animation.stop();
    advance();
  });
  const playButton = button('Play', () => {
    if (animation.playing) {
      animation.stop();
      host.say(`Paused. ${sentence()}`);
    } else if (descent && host.state.steps < MAX_STEPS) {
      if (matchMedia('(prefers-reduced-motion: reduce)').matches) {
        // Reduced motion: no animation, the descent goes to where Play would stop in one step.
        stride = MAX_STEPS - host.state.steps;
        stepComputation.refresh();
      } else {
        animation.play();
        host.say(`Playing the descent from step ${host.state.steps}.`);
      }
    }
  });
  const resetButton = button('Reset', () => {
    animation.stop();
    host.update({ steps: 0 });
    descentComputation.refresh();
  });
  for (const b of [stepButton, playButton, resetButton]) b.classList.add('kl-no-print');
  const animation = host.own(player(playButton, advance, TICK_MS));
  const waiting = host.waitingNote('Waiting for the laboratory data from the core…');
  const comparison = document.createElement('p');
  comparison.className = 'kl-note';
  comparison.dataset.testid = 'audit-comparison';
  host.root.append(
    view.curveBox,
    controlRow(startSlider.element, rateSlider.element),
    controlRow(stepButton, playButton, resetButton),
    view.readout,
    view.fitBox,
    view.mapElement,
    // Last: its sentence arrives after the figure is drawn, and moves nothing above it.
    comparison,
  );

  host.provideExport('descent', () => descent, (d) => {
    return [['step', 'bandwidth', 'leave-one-out risk', 'dR/dlog h'], ...Array.from(d.bandwidths, (h, t) => [t, h, d.risks[t] ?? null, d.gradients[t] ?? null])];
  });
  host.provideExport({
    name: 'leave-one-out curve',
    csv: () => {
      const s = sample;
      return s ? [['bandwidth', 'leave-one-out risk'], ...Array.from(s.curveBandwidths, (h, i) => [h, s.curveRisks[i] ?? null])] : [];
    },
  });

  /// Every panel at the descent's current step, with the fitted curve and the map when given.
  function paint(fit?: Float64Array, weights?: Float64Array): void {
    if (!sample || !descent) return;
    view.paint(sample, descent, host.colors, fit, weights);
    stepButton.disabled = descent.bandwidths.length - 1 >= MAX_STEPS;
  }

  /// The whole run from the start (after a new start, rate or reset, or a restored link).
  const descentComputation = host.compute({
    key: 'descent',
    reads: ['start', 'rate'],
    ask: ({ start, rate, steps }) => (sample ? ([call('looDescent', sample.keys, sample.observed, 1, start, rate, steps)] as const) : null),
    draw([run], { steps }) {
      descent = run;
      if (host.state.steps !== steps) host.update({ steps });
      fitComputation.refresh();
    },
  });

  /// The run a step continues: a step answered after a new run began is dropped.
  let stepFrom: Descent | null = null;
  /// Steps the next step computation asks for: 1, or all that are left when Play goes straight
  /// to its end (reduced motion).
  let stride = 1;
  /// The read-out sentence at the descent's current step (silent while it plays: its end is said).
  const sentence = (): string => {
    const d = descent;
    if (!d) return '';
    const t = d.bandwidths.length - 1;
    return `Step ${t}: h = ${significant(d.bandwidths[t] ?? Number.NaN, 4)}, leave-one-out risk ${fixed(d.risks[t] ?? Number.NaN, 4)}, ∂R/∂log h = ${fixed(d.gradients[t] ?? Number.NaN, 4)}.`;
  };
  host.announce(() => (animation.playing ? '' : sentence()));
  /// One more step, continued from the last h (the core repeats a longer run bit for bit).
  const stepComputation = host.compute({
    key: 'step',
    reads: [],
    ask: ({ start, rate }) => {
      stepFrom = descent;
      if (!sample || !stepFrom) return null;
      const count = stride;
      stride = 1;
      return [call('looDescent', sample.keys, sample.observed, 1, stepFrom.bandwidths.at(-1) ?? start, rate, count)] as const;
    },
    draw([next]) {
      const d = stepFrom;
      if (!d || d !== descent) return;
      // Of several steps (Play without motion), those up to the one Play would have stopped after.
      let kept = 1;
      let moved = Infinity;
      for (; kept < next.bandwidths.length; kept++) {
        moved = Math.abs(Math.log((next.bandwidths[kept] ?? 0) / (next.bandwidths[kept - 1] ?? 1)));
        if (moved < SETTLED) break;
      }
      kept = Math.min(kept + 1, next.bandwidths.length);
      descent = {
        bandwidths: Float64Array.of(...d.bandwidths, ...next.bandwidths.subarray(1, kept)),
        risks: Float64Array.of(...d.risks, ...next.risks.subarray(1, kept)),
        gradients: Float64Array.of(...d.gradients, ...next.gradients.subarray(1, kept)),
      };
      const steps = descent.bandwidths.length - 1;
      host.update({ steps });
      fitComputation.refresh();
      if (animation.playing && (moved < SETTLED || steps >= MAX_STEPS)) {
        animation.stop();
        host.say(`The descent stopped. ${sentence()}`);
      }
    },
    refused: () => animation.stop(),
  });

  function advance(): void {
    if (!sample || !descent || host.state.steps >= MAX_STEPS) return animation.stop();
    stepComputation.refresh();
  }

  /// The fitted curve and the attention map at the current h; then every panel is drawn.
  const fitComputation = host.compute({
    key: 'fit',
    reads: [],
    ask: ({ start }) => {
      const s = sample;
      if (!s || !descent) return null;
      const h = descent.bandwidths.at(-1) ?? start;
      return [
        keeping(call('attention', s.dense, s.keys, s.observed, 1, 1, h), 'outputs'),
        keeping(call('attention', s.mapQueries, s.keys, s.observed, 1, 1, h), 'weights'),
      ] as const;
    },
    draw: ([fit, mapped]) => paint(fit.outputs, mapped.weights),
  });

  async function loadSample(): Promise<void> {
    const curveBandwidths = logGrid(CURVE);
    const [chapter, [mapQueries]] = await Promise.all([
      loadChapterSample(host, DENSE),
      host.run([call('linspace', MAP.start, MAP.stop, MAP.count)] as const),
    ]);
    const [trace, curveRisks] = await host.run([
      call('sortedKeyPosition', mapQueries, chapter.keys),
      call('looCurve', chapter.keys, chapter.observed, 1, curveBandwidths),
    ] as const);
    sample = { ...chapter, mapQueries, trace, curveBandwidths, curveRisks };
    view.fitRiskAxis(curveRisks);
    waiting();
    descentComputation.refresh();
    setText(comparison, await auditComparison(host, curveBandwidths, curveRisks));
  }

  host.onTheme(() => {
    paint();
  });
  loadSample().catch((error: unknown) => host.showError(error));
});
