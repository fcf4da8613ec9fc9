/// Beyond the chapter: from a fixed h to a learned one. Gradient descent on log h for the
/// leave-one-out risk of the Gaussian rule on the chapter's sample, from a start the reader picks,
/// one step at a time or animated: the steps drawn on the leave-one-out curve, the fitted curve
/// and the attention map at the current h. Every h, risk and gradient is the core's (looDescent).
import { chartCanvas, createChart, curveDataset, curveLayer, lineLegend, pointsDataset, scheduleFrame, setDatasets, type Chart } from '../../charts';
import { onThemeChange, palette, withAlpha, type Palette } from '../../theme/theme';
import { evenTickIndices, Heatmap } from '../../charts/heatmap';
import { button, controlRow, slider } from '../../ui/controls';
import { fixed, pending, precise, significant } from '../../ui/format';
import { call, keeping } from '../../engine';
import { liveReadout, setText, testNode } from '../../ui/readout';
import type { StateOf } from '../../ui/state';
import { defineWidget } from '../../ui/host/widget';
import prose from './prose.html?raw';
import meta from './meta';

const NEEDED = ['chapterDataset', 'truth', 'linspace', 'attention', 'sortedKeyPosition', 'looCurve', 'looDescent'] as const;
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

type LearnState = StateOf<typeof params>;

interface Sample {
  keys: Float64Array;
  observed: Float64Array;
  dense: Float64Array;
  truth: Float64Array;
  mapQueries: Float64Array;
  trace: Float64Array;
  curveBandwidths: Float64Array;
  curveRisks: Float64Array;
}

interface Descent {
  bandwidths: Float64Array;
  risks: Float64Array;
  gradients: Float64Array;
}

/// `count` bandwidths evenly spaced in log h from min to max (the grid the curve is evaluated on).
function logGrid({ min, max, count }: { min: number; max: number; count: number }): Float64Array {
  const ratio = Math.log(max / min);
  return Float64Array.from({ length: count }, (_, i) => min * Math.exp((ratio * i) / (count - 1)));
}

export default defineWidget({
  name: 'learn-bandwidth',
  ...meta,
  params,
  prose,

  mount(host, initial) {
    let state: LearnState = { ...initial };
    let colors = palette();
    let sample: Sample | null = null;
    let descent: Descent | null = null;
    let playing: ReturnType<typeof setInterval> | null = null;
    /// Bumped by every new run (start, rate, reset): a step still in flight for an older run is dropped.
    let run = 0;

    const curveBox = chartCanvas('The leave-one-out risk of the Gaussian rule against the bandwidth, with the steps of gradient descent on it', 'kl-chart');
    const fitBox = chartCanvas('The chapter sample, the truth and the Nadaraya–Watson curve at the current learned bandwidth', 'kl-chart');
    const riskChart = createChart<'scatter'>(curveBox.canvas, {
      type: 'scatter',
      data: { datasets: [] },
      options: {
        plugins: { legend: lineLegend() },
        scales: {
          x: { type: 'logarithmic', min: CURVE.min, max: CURVE.max, title: { display: true, text: 'bandwidth h (log scale)' } },
          y: { type: 'linear', min: 0, max: 0.6, title: { display: true, text: 'risk R(h)' } },
        },
      },
      plugins: [curveLayer],
    });
    const fitChart = createChart<'scatter'>(fitBox.canvas, {
      type: 'scatter',
      data: { datasets: [] },
      options: {
        plugins: { legend: lineLegend() },
        scales: {
          x: { type: 'linear', min: DENSE.start, max: DENSE.stop, title: { display: true, text: 'query q' } },
          y: { type: 'linear', min: -2, max: 2, title: { display: true, text: 'prediction' } },
        },
      },
      plugins: [curveLayer],
    });
    const charts = [riskChart, fitChart] as unknown as Chart[];
    const map = new Heatmap({
      label: 'The attention matrix at the current learned bandwidth: 31 queries by 60 sorted keys',
      xTitle: 'key location kᵢ (sorted)',
      yTitle: 'query q',
      colorbarTitle: 'weight',
    });

    const startSlider = slider({
      label: 'starting bandwidth h0',
      caption: 'start h₀',
      spec: { min: params.start.min, max: params.start.max, scale: 'log' },
      value: state.start,
      format: (x) => precise(x, 3),
      onInput: (start) => {
        stop();
        update({ start, steps: 0 });
        void compute(0);
      },
    });
    const rateSlider = slider({
      label: 'bandwidth learning rate η',
      caption: 'rate η',
      spec: { min: params.rate.min, max: params.rate.max, scale: 'log' },
      value: state.rate,
      format: (x) => significant(x, 3),
      onInput: (rate) => {
        stop();
        update({ rate, steps: 0 });
        void compute(0);
      },
    });
    const stepButton = button('Step', () => {
      stop();
      void advance();
    });
    const playButton = button('Play', () => (playing ? stop() : play()));
    const resetButton = button('Reset', () => {
      stop();
      update({ steps: 0 });
      void compute(0);
    });
    for (const b of [stepButton, playButton, resetButton]) b.classList.add('kl-no-print');
    const stepText = testNode('strong', 'learn-step');
    const hText = testNode('strong', 'learn-bandwidth');
    const riskText = testNode('strong', 'learn-risk');
    const gradientText = testNode('strong', 'learn-gradient');
    const readout = liveReadout('kl-readout', 'Step ', stepText, ': h = ', hText, ', leave-one-out risk ', riskText, ', ∂R/∂log h = ', gradientText, '.');
    const waiting = host.waitingNote('Waiting for the laboratory data from the core…');
    host.root.append(
      curveBox.box,
      controlRow(startSlider.element, rateSlider.element),
      controlRow(stepButton, playButton, resetButton),
      readout,
      fitBox.box,
      map.element,
    );
    // Until the first step is computed, the read-out's blanks are about its numbers' widths.
    setText(stepText, pending('0'));
    setText(hText, pending('0.000'));
    setText(riskText, pending('0.0000'));
    setText(gradientText, pending('−0.0000'));

    host.provideExport({
      name: 'descent',
      csv: () => {
        const d = descent;
        if (!d) return [];
        return [['step', 'bandwidth', 'leave-one-out risk', 'dR/dlog h'], ...Array.from(d.bandwidths, (h, t) => [t, h, d.risks[t] ?? null, d.gradients[t] ?? null])];
      },
    });
    host.provideExport({
      name: 'leave-one-out curve',
      csv: () => {
        const s = sample;
        return s ? [['bandwidth', 'leave-one-out risk'], ...Array.from(s.curveBandwidths, (h, i) => [h, s.curveRisks[i] ?? null])] : [];
      },
    });

    function update(partial: Partial<LearnState>): void {
      state = { ...state, ...partial };
      host.setState(partial);
    }

    function play(): void {
      if (!descent) return;
      setText(playButton, 'Pause');
      playButton.setAttribute('aria-pressed', 'true');
      playing = setInterval(() => void advance(), TICK_MS);
    }

    function stop(): void {
      if (playing) clearInterval(playing);
      playing = null;
      setText(playButton, 'Play');
      playButton.setAttribute('aria-pressed', 'false');
    }

    /// One more step, continued from the last h (the core repeats a longer run bit for bit).
    async function advance(): Promise<void> {
      const s = sample;
      const d = descent;
      if (!s || !d || state.steps >= MAX_STEPS) return stop();
      const last = d.bandwidths.length - 1;
      const mine = run;
      try {
        const results = await host.channel('step').request([call('looDescent', s.keys, s.observed, 1, d.bandwidths[last] ?? state.start, state.rate, 1)] as const);
        if (!results || descent !== d || mine !== run) return;
        const [next] = results;
        const moved = Math.abs(Math.log((next.bandwidths[1] ?? 0) / (next.bandwidths[0] ?? 1)));
        descent = {
          bandwidths: Float64Array.of(...d.bandwidths, ...next.bandwidths.subarray(1)),
          risks: Float64Array.of(...d.risks, ...next.risks.subarray(1)),
          gradients: Float64Array.of(...d.gradients, ...next.gradients.subarray(1)),
        };
        update({ steps: descent.bandwidths.length - 1 });
        host.clearError('descent');
        await showCurrent();
        if (playing && (moved < SETTLED || state.steps >= MAX_STEPS)) stop();
      } catch (error) {
        stop();
        host.showError(error, 'descent');
      }
    }

    /// The whole run from the start (after a new start, rate or a restored link).
    async function compute(steps: number): Promise<void> {
      const s = sample;
      if (!s) return;
      run += 1;
      try {
        const results = await host.channel('descent').request([call('looDescent', s.keys, s.observed, 1, state.start, state.rate, steps)] as const);
        if (!results) return;
        descent = results[0];
        if (state.steps !== steps) update({ steps });
        host.clearError('descent');
        await showCurrent();
      } catch (error) {
        host.showError(error, 'descent');
      }
    }

    /// The fitted curve and the attention map at the current h, then every panel.
    async function showCurrent(): Promise<void> {
      const s = sample;
      const d = descent;
      if (!s || !d) return;
      const h = d.bandwidths[d.bandwidths.length - 1] ?? state.start;
      const results = await host.channel('fit').request([
        keeping(call('attention', s.dense, s.keys, s.observed, 1, 1, h), 'outputs'),
        keeping(call('attention', s.mapQueries, s.keys, s.observed, 1, 1, h), 'weights'),
      ] as const);
      if (!results || d !== descent) return;
      const [fit, mapped] = results;
      paint(d, fit.outputs, mapped.weights);
    }

    let lastFit: Float64Array | null = null;
    let lastMap: Float64Array | null = null;

    function paint(d: Descent, fit: Float64Array | null = lastFit, weights: Float64Array | null = lastMap): void {
      const s = sample;
      if (!s) return;
      lastFit = fit;
      lastMap = weights;
      const t = d.bandwidths.length - 1;
      const h = d.bandwidths[t] ?? Number.NaN;
      const accent = colors.orange;
      const path = colors.series[1] ?? colors.navy;
      scheduleFrame(riskChart, () => {
        setDatasets(riskChart, [
          curveDataset({ label: 'leave-one-out risk', borderColor: colors.truth, backgroundColor: colors.truth, borderWidth: 2, pointRadius: 0 }, { xs: s.curveBandwidths, ys: s.curveRisks }),
          curveDataset({ label: 'descent steps', borderColor: withAlpha(path, 0.8), backgroundColor: path, borderWidth: 1.5, pointRadius: 0 }, { xs: d.bandwidths, ys: d.risks }),
          pointsDataset({ label: '', backgroundColor: path, borderColor: path, pointRadius: 3 }, { xs: d.bandwidths, ys: d.risks }),
          pointsDataset({ label: 'current h', backgroundColor: accent, borderColor: accent, pointRadius: 6 }, { xs: [h], ys: [d.risks[t] ?? Number.NaN] }),
        ]);
      });
      if (fit) {
        scheduleFrame(fitChart, () => {
          setDatasets(fitChart, [
            curveDataset({ label: 'truth', borderColor: colors.truth, backgroundColor: colors.truth, borderWidth: 2, pointRadius: 0 }, { xs: s.dense, ys: s.truth }),
            pointsDataset({ label: 'the chapter’s sample', backgroundColor: withAlpha(colors.sample, 0.72), borderColor: withAlpha(colors.sample, 0.72), pointRadius: 3 }, { xs: s.keys, ys: s.observed }),
            curveDataset({ label: `h = ${significant(h, 3)}`, borderColor: accent, backgroundColor: accent, borderWidth: 2, pointRadius: 0 }, { xs: s.dense, ys: fit }),
          ]);
        });
      }
      if (weights) {
        map.draw({
          values: weights,
          rows: MAP.count,
          cols: s.keys.length,
          scale: 'linear',
          xTicks: evenTickIndices(s.keys.length).map((i) => ({ at: i, label: fixed(s.keys[i] ?? Number.NaN, 1) })),
          yTicks: evenTickIndices(MAP.count).map((r) => ({ at: r, label: fixed(s.mapQueries[r] ?? Number.NaN, 1) })),
          trace: s.trace,
        });
      }
      setText(stepText, String(t));
      setText(hText, significant(h, 4));
      setText(riskText, fixed(d.risks[t] ?? Number.NaN, 4));
      setText(gradientText, fixed(d.gradients[t] ?? Number.NaN, 4));
      stepButton.disabled = t >= MAX_STEPS;
    }

    async function loadSample(): Promise<void> {
      const available = await host.bridge.available();
      const missing = NEEDED.filter((name) => !available.has(name));
      if (missing.length > 0) {
        waiting();
        host.note(`Waiting for data: this build of the core has no ${missing.join(', ')} yet, so nothing is drawn.`);
        for (const b of [stepButton, playButton, resetButton]) b.disabled = true;
        return;
      }
      try {
        const curveBandwidths = logGrid(CURVE);
        const [dataset, dense, mapQueries] = await host.bridge.run([
          call('chapterDataset'),
          call('linspace', DENSE.start, DENSE.stop, DENSE.count),
          call('linspace', MAP.start, MAP.stop, MAP.count),
        ] as const);
        const [truth, trace, curveRisks] = await host.bridge.run([
          call('truth', dense),
          call('sortedKeyPosition', mapQueries, dataset.keys),
          call('looCurve', dataset.keys, dataset.observedValues, 1, curveBandwidths),
        ] as const);
        sample = { keys: dataset.keys, observed: dataset.observedValues, dense, truth, mapQueries, trace, curveBandwidths, curveRisks };
        // The risk axis holds the whole curve: its top is the first of 0.2, 0.4, … above the largest risk.
        const y = riskChart.options.scales?.y;
        const largest = curveRisks.reduce((top, r) => (Number.isFinite(r) ? Math.max(top, r) : top), 0);
        if (y) y.max = Math.max(0.2, Math.ceil((largest * 1.05) / 0.2) * 0.2);
        waiting();
        await compute(state.steps);
      } catch (error) {
        host.showError(error);
      }
    }

    const stopTheme = onThemeChange((next: Palette) => {
      colors = next;
      if (descent) paint(descent);
    });
    stop();
    void loadSample();
    return {
      destroy() {
        stop();
        stopTheme();
        map.destroy();
        for (const chart of charts) chart.destroy();
      },
    };
  },
});
