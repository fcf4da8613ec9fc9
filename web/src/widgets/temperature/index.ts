/// Section 12.3: bandwidth is temperature. The kernel weights equal softmax(s/τ) of the unscaled
/// scores s = −‖q − k‖² with τ = 2h²; driving h toward 0⁺ or ∞ approaches the two limits.
import { barPoints, chartCanvas, scheduleFrame, setDatasets, weightBarChart } from '../../charts';
import { withAlpha } from '../../theme/theme';
import { bandwidthSlider, button, controlRow, dataTable, querySlider, slider } from '../../ui/controls';
import { fixed, precise } from '../../ui/format';
import { call, resultOf } from '../../engine';
import type { NumberParam, StateOf } from '../../ui/state';
import { refusalOf, typedNumber } from '../../ui/typed-input';
import { defineWidget } from '../../ui/host/widget';
import { liveReadout, setText, testNode } from '../../ui/readout';
import prose from './prose.html?raw';
import meta from './meta';

const params = {
  h: { kind: 'number', label: 'bandwidth h', default: 0.6, min: 0.01, max: 100, scale: 'log' },
  q: { kind: 'number', label: 'query q', default: 3.5, min: -2, max: 8, scale: 'linear', step: 0.05 },
  keys: { kind: 'numbers', label: 'key locations', default: [1, 3, 5], min: -2, max: 8, minLength: 1, maxLength: 8 },
} as const;

type TemperatureState = StateOf<typeof params>;

/// The temperature dial spans τ = 2h² over the bandwidth slider's range.
const TAU_SPEC: Pick<NumberParam, 'min' | 'max' | 'scale'> = { min: 2e-4, max: 2e4, scale: 'log' };
/// Each animation frame of a drive multiplies h by this factor (or divides by it).
const DRIVE_FACTOR = 0.93;

interface Frame {
  keys: readonly number[];
  kernel: Float64Array;
  softmax: Float64Array;
  nearest: Float64Array;
  uniform: Float64Array;
}

export default defineWidget({ name: 'temperature', ...meta, params, prose }, (host) => {
  let last: Frame | null = null;
  host.provideExport('weights', () => last, (frame) => {
    const rows = frame.keys.map((_, i) => [i + 1, frame.kernel[i] ?? null, frame.softmax[i] ?? null, frame.nearest[i] ?? null, frame.uniform[i] ?? null]);
    return [['key', 'kernel weight', 'softmax weight', 'nearest-key limit', 'uniform limit'], ...rows];
  });
  /// The drive's next animation frame (0: no drive); the host stops it when the figure goes.
  let drive = 0;
  host.own({ destroy: () => stopDrive() });
  /// The temperature the dial asked for last (null: none yet).
  let askedTau: number | null = null;

  const { box, canvas } = chartCanvas(
    'Weights per key: the normalized kernel weights, softmax of the unscaled scores at temperature τ, and the two limits',
  );
  const chart = host.own(weightBarChart(canvas, { legend: true, max: 1.1, printed: [0] }));

  const hText = testNode('strong', 'bandwidth');
  const tauText = testNode('strong', 'temperature');
  const readout = liveReadout('kl-readout', 'h = ', hText, '  ↔  τ = 2h² = ', tauText);
  // Silent while a drive runs (a late frame would otherwise let a step's sentence through): the
  // drive says its start, and its last drawing is said once it stops.
  host.announce(() =>
    last && !drive ? `h = ${hText.textContent ?? ''}, τ = 2h² = ${tauText.textContent ?? ''}: kernel weights ${Array.from(last.kernel, (w) => fixed(w, 4)).join(', ')}.` : '',
  );

  const table = dataTable('Weights per key', ['key', 'kernel α', 'softmax(s/τ)', 'h → 0⁺ limit', 'h → ∞ limit']);
  const bandwidth = bandwidthSlider(params.h, host.state.h, (h) => {
    stopDrive();
    update({ h });
  });
  const temperature = slider({
    label: 'temperature τ',
    spec: TAU_SPEC,
    value: Number.NaN,
    format: (tau) => (Number.isNaN(tau) ? '…' : precise(tau, 3)),
    onInput: (tau) => {
      stopDrive();
      askedTau = tau;
      inverse.refresh();
    },
  });
  const query = querySlider(params.q, host.state.q, (q) => update({ q }));

  const typed = typedNumber({
    label: 'bandwidth h, typed value',
    caption: 'type h',
    value: host.state.h,
    onChange: (h) => {
      stopDrive();
      update({ h });
    },
  });

  const toZero = button('Drive h → 0⁺', () => startDrive(DRIVE_FACTOR));
  const toInfinity = button('Drive h → ∞', () => startDrive(1 / DRIVE_FACTOR));
  const atZero = button('Try h = 0', () => {
    stopDrive();
    update({ h: 0 });
  });
  toZero.setAttribute('aria-label', 'Drive h → 0⁺ (bandwidth h toward 0 plus)');
  toInfinity.setAttribute('aria-label', 'Drive h → ∞ (bandwidth h toward infinity)');
  atZero.setAttribute('aria-label', 'Try h = 0 (bandwidth h = 0)');

  host.root.append(
    box,
    controlRow(bandwidth.element, temperature.element),
    controlRow(query.element, typed.element),
    controlRow(toZero, toInfinity, atZero),
    readout,
    table.element,
  );

  function paint(frame: Frame): void {
    scheduleFrame(chart, () => {
      chart.data.labels = frame.keys.map((k, i) => `k${i + 1} = ${fixed(k, 2)}`);
      setDatasets(chart, [
        { label: 'kernel weights α', data: barPoints(frame.kernel), backgroundColor: host.colors.brown },
        { label: 'softmax(s/τ)', data: barPoints(frame.softmax), backgroundColor: host.colors.orange },
        {
          label: 'h → 0⁺ limit',
          data: barPoints(frame.nearest),
          backgroundColor: withAlpha(host.colors.navy, 0.15),
          borderColor: host.colors.navy,
          borderWidth: 1.5,
        },
        {
          label: 'h → ∞ limit (1/n)',
          data: barPoints(frame.uniform),
          backgroundColor: withAlpha(host.colors.grey, 0.25),
          borderColor: host.colors.grey,
          borderWidth: 1.5,
        },
      ]);
    });
  }

  host.compute({
    key: 'scores',
    // One round trip: the softmax takes the scores and τ computed just before it.
    ask: (state) => {
      const q = [state.q];
      return [
        call('temperatureFromBandwidth', state.h),
        call('attention', q, state.keys, state.keys, 1, 1, state.h),
        call('distanceScores', q, state.keys, 1),
        call('nearestKeyLimit', q, state.keys, 1),
        call('uniformLimit', state.keys.length),
        /// softmax(s/τ) of the unscaled scores of equation 12.5, s = −‖q − k‖².
        call('softmaxWithTemperature', resultOf<Float64Array>(2), state.keys.length, resultOf<number>(0)),
      ] as const;
    },
    draw([tau, kernel, , nearest, uniform, softmaxWeights], state) {
      const frame: Frame = { keys: state.keys, kernel: kernel.weights, softmax: softmaxWeights, nearest, uniform };
      last = frame;
      paint(frame);
      setText(hText, precise(state.h, 3));
      setText(tauText, precise(tau, 3));
      temperature.set(tau);
      table.setRows(
        state.keys.map((k, i) => [
          `k${i + 1} = ${fixed(k, 2)}`,
          fixed(frame.kernel[i] ?? 0, 4),
          fixed(frame.softmax[i] ?? 0, 4),
          fixed(frame.nearest[i] ?? 0, 4),
          fixed(frame.uniform[i] ?? 0, 4),
        ]),
      );
    },
    refused(error, state) {
      host.showError(refusalOf([{ name: 'h', value: state.h, typed }], error.message, 'a positive bandwidth'), 'scores');
    },
  });

  /// The bandwidth of the temperature the dial set.
  const inverse = host.compute({
    key: 'inverse',
    reads: [],
    ask: () => (askedTau === null ? null : ([call('bandwidthFromTemperature', askedTau)] as const)),
    draw([h]) {
      bandwidth.set(h);
      update({ h });
    },
  });

  function update(partial: Partial<TemperatureState>): void {
    host.update(partial);
    if (partial.h !== undefined && Number.isFinite(partial.h)) {
      if (partial.h > 0) bandwidth.set(partial.h);
      typed.set(partial.h);
    }
  }

  function stopDrive(): void {
    if (drive) cancelAnimationFrame(drive);
    drive = 0;
    toZero.setAttribute('aria-pressed', 'false');
    toInfinity.setAttribute('aria-pressed', 'false');
  }

  function startDrive(factor: number): void {
    stopDrive();
    const end = factor < 1 ? params.h.min : params.h.max;
    const toward = factor < 1 ? '0⁺' : '∞';
    if (host.state.h === end) {
      // Nothing would move, and nothing would be said after "Driving…".
      host.say(`h is already ${precise(end, 3)}, where the drive toward ${toward} stops.`);
      return;
    }
    if (matchMedia('(prefers-reduced-motion: reduce)').matches) {
      // Reduced motion: no animation, h goes straight to where the drive would stop.
      update({ h: end });
      return;
    }
    const active = factor < 1 ? toZero : toInfinity;
    active.setAttribute('aria-pressed', 'true');
    host.say(`Driving h from ${precise(host.state.h, 3)} toward ${toward}.`);
    const step = (): void => {
      const h = Math.min(Math.max(host.state.h * factor, params.h.min), params.h.max);
      update({ h: Number(h.toPrecision(3)) });
      if (h <= params.h.min || h >= params.h.max) stopDrive();
      else drive = requestAnimationFrame(step);
    };
    drive = requestAnimationFrame(step);
  }

  host.onTheme(() => {
    if (last) paint(last);
  });
});
