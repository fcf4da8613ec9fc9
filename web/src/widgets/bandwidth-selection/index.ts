/// Exercise 3, live: a fresh noisy sample split into training, validation and a sealed test set;
/// the validation and leave-one-out curves over the bandwidth grid, the selected h, the test MSE
/// reported once on request, and the synthetic-truth grid minimum for comparison.
import { chartCanvas, createChart, lineLegend, scheduleFrame, setDatasets, type Chart } from '../../charts';
import { button, controlRow, dataTable } from '../../ui/controls';
import { fixed } from '../../ui/format';
import { call, type BandwidthSelection } from '../../engine';
import type { StateOf } from '../../ui/state';
import { defineWidget } from '../../ui/host/widget';
import { bandwidthText, laboratoryParams, MAX_SEED, settingsFields } from '../shared/laboratory-fields';
import '../shared/laboratory.css';
import { logTick, vertical, type XY } from '../shared/plot';
import { liveReadout, setText } from '../../ui/readout';
import prose from './prose.html?raw';
import meta from './meta';

const MAX_SPLIT = 2000;

const params = {
  seed: { kind: 'integer', label: 'sample seed', default: 605015, min: 0, max: MAX_SEED },
  train: { kind: 'integer', label: 'training points', default: 60, min: 2, max: MAX_SPLIT },
  validation: { kind: 'integer', label: 'validation points', default: 40, min: 1, max: MAX_SPLIT },
  test: { kind: 'integer', label: 'test points', default: 40, min: 1, max: MAX_SPLIT },
  ...laboratoryParams,
  reveal: { kind: 'boolean', label: 'test MSE revealed', default: false },
} as const;

/// The sample's settings: what the core is asked again for when one changes (not `reveal`).
const SETTINGS = ['seed', 'train', 'validation', 'test', 'noise', 'bandwidths'] as const;
type Settings = Omit<StateOf<typeof params>, 'reveal'>;

const points = (xs: ArrayLike<number>, ys: ArrayLike<number>): XY[] => Array.from(xs, (x, i) => ({ x, y: ys[i] ?? Number.NaN }));

export default defineWidget({ name: 'bandwidth-selection', ...meta, params, prose }, (host) => {
  let last: BandwidthSelection | null = null;
  host.provideExport('selection curves', () => last, (result) => {
    const rows = Array.from(result.bandwidths, (h, i) => [h, result.trainingMse[i] ?? null, result.validationMse[i] ?? null, result.looMse[i] ?? null]);
    return [['h', 'training MSE', 'validation MSE', 'leave-one-out MSE'], ...rows];
  });

  // ---- charts ----
  const curves = chartCanvas(
    'Validation curve: training, validation and leave-one-out MSE against bandwidth h on a log axis, with the validation choice, the leave-one-out choice and the synthetic-truth grid minimum as vertical lines',
  );
  const fits = chartCanvas(
    'The fresh sample: training and validation points, the truth, and the fits from the training set at the validation choice and at the synthetic-truth grid minimum; test points appear once the test set is opened',
  );
  curves.box.className = fits.box.className = 'kl-chart kl-chart--tall';
  const legend = lineLegend({ font: { size: 11 } });
  const curveChart = host.own(createChart<'scatter'>(curves.canvas, {
    type: 'scatter',
    data: { datasets: [] },
    options: {
      plugins: { legend },
      scales: {
        x: {
          type: 'logarithmic',
          title: { display: true, text: 'bandwidth h (log scale)' },
          ticks: { callback: logTick, maxRotation: 0 },
        },
        y: { type: 'linear', min: 0, title: { display: true, text: 'mean squared error' } },
      },
    },
  }));
  const fitChart = host.own(createChart<'scatter'>(fits.canvas, {
    type: 'scatter',
    data: { datasets: [] },
    options: {
      plugins: { legend },
      scales: {
        x: { type: 'linear', min: -3, max: 3, title: { display: true, text: 'x' } },
        y: { type: 'linear', min: -2.5, max: 2.5, ticks: { stepSize: 0.5 }, title: { display: true, text: 'y' } },
      },
    },
  }));
  const charts = document.createElement('div');
  charts.className = 'kl-charts kl-charts--pair';
  charts.append(curves.box, fits.box);

  // ---- summaries ----
  const summary = document.createElement('div');
  const line = (testid: string): HTMLParagraphElement => {
    const p = liveReadout('kl-summary');
    p.dataset.testid = testid;
    summary.append(p);
    return p;
  };
  const selectedLine = line('selected');
  const looLine = line('loo-selected');
  const truthLine = line('truth-minimum');

  const sealed = document.createElement('div');
  sealed.className = 'kl-sealed';
  const testLine = liveReadout('kl-summary');
  testLine.dataset.testid = 'test-mse';
  // The button disables itself once the set is open: the focus goes to what it opened.
  testLine.tabIndex = -1;
  const revealButton = button('Open the sealed test set (once)', () => {
    if (host.state.reveal) return;
    host.update({ reveal: true });
    if (last) show(last);
    testLine.focus();
  });
  sealed.append(revealButton, testLine);
  host.announce(() => (last ? [selectedLine, ...(host.state.reveal ? [testLine] : [])].map((line) => line.textContent ?? '').join(' ') : ''));

  const table = dataTable('Selection curves on the grid (the validation choice highlighted)', ['h', 'training MSE', 'validation MSE', 'leave-one-out MSE']);
  table.table.dataset.testid = 'selection-table';
  const tableBox = table.element;

  // ---- settings ----
  // A refusal stays until the reader commits a valid entry (a computation still in flight does
  // not wipe it when it lands).
  const refuse = (message: string): void => host.showError(message, 'field');
  const changed = (partial: Partial<Settings>): void => {
    host.clearError('field');
    const fresh = partial.seed !== undefined && partial.seed !== host.state.seed;
    host.update(fresh ? { ...partial, reveal: false } : partial);
  };
  const make = settingsFields(params, () => host.state, changed, refuse);
  const seed = make('seed', 9);
  const fresh = button('Fresh sample', () => {
    const next = host.state.seed >= MAX_SEED ? 0 : host.state.seed + 1;
    seed.set(next);
    changed({ seed: next });
  });
  const train = make('train', 5);
  const validation = make('validation', 5);
  const test = make('test', 5);
  const noise = make('noise', 5);
  const grid = make('bandwidths', 30);

  host.root.append(
    charts,
    summary,
    sealed,
    tableBox,
    controlRow(seed.element, fresh, noise.element),
    controlRow(train.element, validation.element, test.element),
    controlRow(grid.element),
  );

  function drawCurves(r: BandwidthSelection): void {
    const c = host.colors;
    const hs = Array.from(r.bandwidths);
    const finite = [...r.validationMse, ...r.looMse, ...r.trainingMse].filter(Number.isFinite);
    const top = Math.max(0.01, ...finite) * 1.08;
    scheduleFrame(curveChart, () => {
      const x = curveChart.options.scales?.x;
      const y = curveChart.options.scales?.y;
      if (x && y) {
        x.min = Math.min(...hs) / 1.25;
        x.max = Math.max(...hs) * 1.25;
        y.max = top;
      }
      setDatasets(curveChart, [
        { label: 'training', data: points(hs, r.trainingMse), showLine: true, borderColor: c.grey, backgroundColor: c.grey, borderWidth: 1.4, pointRadius: 3 },
        { label: 'validation', data: points(hs, r.validationMse), showLine: true, borderColor: c.series[0], backgroundColor: c.series[0], borderWidth: 2.4, pointRadius: 3.5 },
        { label: 'leave-one-out', data: points(hs, r.looMse), showLine: true, borderColor: c.series[1], backgroundColor: c.series[1], borderWidth: 1.6, borderDash: [5, 3], pointRadius: 3 },
        { label: 'validation choice', data: vertical(r.selectedBandwidth, top), showLine: true, borderColor: c.orange, borderWidth: 2, pointRadius: 0 },
        { label: 'leave-one-out choice', data: vertical(r.looBandwidth, top), showLine: true, borderColor: c.series[1], borderWidth: 1.6, borderDash: [8, 4], pointRadius: 0 },
        { label: 'truth grid minimum', data: vertical(r.truthGridMinimum.bandwidth, top), showLine: true, borderColor: c.series[2], borderWidth: 1.6, borderDash: [2, 3], pointRadius: 0 },
      ]);
    });
    scheduleFrame(fitChart, () => {
      setDatasets(fitChart, [
        { label: 'truth', data: points(r.curveQueries, r.truthCurve), showLine: true, borderColor: c.truth, borderWidth: 2, pointRadius: 0 },
        {
          label: `fit, h = ${bandwidthText(r.selectedBandwidth)} (validation)`,
          data: points(r.curveQueries, r.selectedCurve),
          showLine: true,
          borderColor: c.series[0],
          borderWidth: 1.8,
          pointRadius: 0,
        },
        {
          label: `fit, h = ${bandwidthText(r.truthGridMinimum.bandwidth)} (truth grid)`,
          data: points(r.curveQueries, r.truthGridCurve),
          showLine: true,
          borderColor: c.series[2],
          borderWidth: 1.6,
          borderDash: [5, 3],
          pointRadius: 0,
        },
        { label: 'training', data: points(r.trainKeys, r.trainValues), backgroundColor: c.navy, borderColor: c.navy, pointRadius: 3 },
        {
          label: 'validation',
          data: points(r.validationKeys, r.validationValues),
          backgroundColor: 'transparent',
          borderColor: c.orange,
          borderWidth: 1.5,
          pointRadius: 3.5,
        },
        ...(host.state.reveal
          ? [{ label: 'test', data: points(r.testKeys, r.testValues), backgroundColor: c.brown, borderColor: c.brown, pointStyle: 'triangle' as const, pointRadius: 4 }]
          : []),
      ]);
    });
  }

  function show(r: BandwidthSelection): void {
    const state = host.state;
    const hs = Array.from(r.bandwidths);
    drawCurves(r);
    setText(selectedLine, `Validation selects h = ${bandwidthText(r.selectedBandwidth)} (validation MSE ${fixed(r.validationMse[r.selectedIndex] ?? Number.NaN, 4)}, ${state.train} training and ${state.validation} validation points).`);
    setText(looLine, `Leave-one-out on the training set selects h = ${bandwidthText(r.looBandwidth)} (LOO MSE ${fixed(r.looMse[r.looSelectedIndex] ?? Number.NaN, 4)}).`);
    setText(truthLine, `Synthetic-truth grid minimum (1,000-world audit): h=${bandwidthText(r.truthGridMinimum.bandwidth)}, MSE=${fixed(r.truthGridMinimum.mse, 4)}.`);
    if (state.reveal) {
      setText(testLine, `Sealed test MSE at the selected h = ${bandwidthText(r.selectedBandwidth)}: ${fixed(r.testMse, 4)} (${state.test} test points). For comparison only: at the leave-one-out choice ${fixed(r.looTestMse, 4)}, at the truth grid minimum (h = ${bandwidthText(r.truthGridMinimum.bandwidth)}) ${fixed(r.truthGridMinimum.testMse, 4)}.`);
      revealButton.disabled = true;
      setText(revealButton, 'Test set opened');
    } else {
      setText(testLine, 'The test MSE stays sealed until the bandwidth is chosen.');
      revealButton.disabled = false;
      setText(revealButton, 'Open the sealed test set (once)');
    }
    table.setRows(
      hs.map((h, i) => [bandwidthText(h), fixed(r.trainingMse[i] ?? Number.NaN, 4), fixed(r.validationMse[i] ?? Number.NaN, 4), fixed(r.looMse[i] ?? Number.NaN, 4)]),
    );
    Array.from(table.table.tBodies[0]?.rows ?? []).forEach((row, i) => row.classList.toggle('kl-row--best', i === r.selectedIndex));
  }

  host.compute({
    key: 'selection',
    reads: SETTINGS,
    ask: ({ reveal: _reveal, ...settings }) => [call('bandwidthSelection', { ...settings, bandwidths: [...settings.bandwidths] })] as const,
    draw([result]) {
      last = result;
      show(result);
    },
  });

  host.onTheme(() => {
    if (last) drawCurves(last);
  });
});
