/// Figure 12.3 (left) and the section 12.4 table, live: the fixed-design bias/variance audit over
/// noisy worlds, run in the worker one bandwidth at a time (progress, cancel), with the exact
/// population curves and a draggable bandwidth marker reading out both at the current h.
import type { ChapterConfig, RiskRow } from '../../engine';
import { onThemeChange } from '../../theme/theme';
import { button, controlRow, dataTable, slider } from '../../ui/controls';
import { fixed, pending, precise } from '../../ui/format';
import { call } from '../../engine';
import type { StateOf } from '../../ui/state';
import { defineWidget } from '../../ui/host/widget';
import { bandwidthText, laboratoryParams, MAX_SEED, settingsFields } from '../shared/laboratory-fields';
import { AuditView, type AuditFrame } from './view';
import '../shared/laboratory.css';
import { liveReadout, setText } from '../../ui/readout';
import { localPoint } from '../../ui/pointer';
import prose from './prose.html?raw';
import meta from './meta';

/// Points of the exact (population) curves across the plotted range of h.
const EXACT_POINTS = 97;

const params = {
  worlds: { kind: 'integer', label: 'noisy worlds', default: 1000, min: 2, max: 100000 },
  keySeed: { kind: 'integer', label: 'key seed', default: 605012, min: 0, max: MAX_SEED },
  monteCarloSeed: { kind: 'integer', label: 'world seed', default: 605014, min: 0, max: MAX_SEED },
  ...laboratoryParams,
  h: { kind: 'number', label: 'marker bandwidth h', default: 0.18, min: 0.01, max: 6, scale: 'log' },
} as const;

type AuditState = StateOf<typeof params>;
type Settings = Omit<AuditState, 'h'>;

/// The core's partial laboratory config for these settings and bandwidths.
function labConfig(settings: Settings, bandwidths: readonly number[]): Partial<ChapterConfig> {
  return {
    worlds: settings.worlds,
    noise: settings.noise,
    keySeed: settings.keySeed,
    monteCarloSeed: settings.monteCarloSeed,
    bandwidths: [...bandwidths],
  };
}

/// The plotted h range: the grid with some margin, inside the marker's limits.
function plotRange(bandwidths: readonly number[]): { min: number; max: number } {
  return {
    min: Math.max(params.h.min, Math.min(...bandwidths) / 1.3),
    max: Math.min(params.h.max, Math.max(...bandwidths) * 1.25),
  };
}

/// Log-spaced plotting positions across the range (drawing geometry for the dashed curves).
function logPositions(range: { min: number; max: number }, count: number): number[] {
  const ratio = Math.log(range.max / range.min);
  return Array.from({ length: count }, (_, i) => range.min * Math.exp((ratio * i) / (count - 1)));
}

/// A y-axis top that holds the measured curves (and the exact ones across the grid).
function yTop(rows: readonly RiskRow[], exact: readonly RiskRow[], gridMax: number): number {
  const values = [...rows.map((r) => r.mse), ...exact.filter((r) => r.bandwidth <= gridMax).map((r) => r.mse)];
  const top = Math.max(0.01, ...values.filter(Number.isFinite)) * 1.1;
  const step = 10 ** Math.floor(Math.log10(top));
  return Math.ceil(top / step) * step;
}

export default defineWidget({
  name: 'bias-variance',
  ...meta,
  params,
  prose,

  mount(host, initial) {
    let state: AuditState = { ...initial, bandwidths: [...initial.bandwidths] };
    const view = new AuditView();
    const markerChannel = host.channel('marker');
    const exactChannel = host.channel('exact');
    let frame: AuditFrame = {
      rows: [],
      exact: [],
      minimum: null,
      marker: state.h,
      xRange: plotRange(state.bandwidths),
      yMax: 0.35,
    };
    let run = 0;
    let running = false;
    const riskCsv = (rows: readonly RiskRow[]) => [
      ['h', 'tau', 'bias2', 'variance', 'MSE'],
      ...rows.map((row) => [row.bandwidth, row.tau, row.bias2, row.variance, row.mse]),
    ];
    host.provideExport({ name: 'bias-variance table', csv: () => (frame.rows.length ? riskCsv(frame.rows) : []) });
    host.provideExport({ name: 'exact risk', csv: () => (frame.exact.length ? riskCsv(frame.exact) : []) });

    // ---- settings ----
    const refuse = (message: string): void => host.showError(message, 'field');
    const settingsChanged = (partial: Partial<Settings>): void => {
      update(partial);
      startAudit();
    };
    const make = settingsFields(params, () => state, settingsChanged, refuse);
    const worlds = make('worlds', 7);
    const noise = make('noise', 5);
    const keySeed = make('keySeed', 9);
    const worldSeed = make('monteCarloSeed', 9);
    const grid = make('bandwidths', 30);

    // ---- progress, run and cancel ----
    const progress = document.createElement('progress');
    progress.setAttribute('aria-label', 'Monte Carlo audit progress');
    const status = document.createElement('span');
    status.dataset.testid = 'audit-status';
    status.setAttribute('role', 'status');
    const runButton = button('Run the audit', () => startAudit());
    const cancelButton = button('Cancel', () => cancelAudit());
    const resetButton = button("Chapter's settings", () => {
      const chapter: Settings = {
        worlds: params.worlds.default,
        noise: params.noise.default,
        keySeed: params.keySeed.default,
        monteCarloSeed: params.monteCarloSeed.default,
        bandwidths: [...params.bandwidths.default],
      };
      worlds.set(chapter.worlds);
      noise.set(chapter.noise);
      keySeed.set(chapter.keySeed);
      worldSeed.set(chapter.monteCarloSeed);
      grid.set(chapter.bandwidths);
      settingsChanged(chapter);
    });
    const progressLine = document.createElement('div');
    progressLine.className = 'kl-progress';
    progressLine.append(progress, status, runButton, cancelButton);

    // ---- marker ----
    const marker = slider({
      label: 'marker bandwidth h',
      caption: 'marker h',
      spec: params.h,
      value: state.h,
      format: (h) => precise(h, 3),
      onInput: (h) => moveMarker(h),
    });
    const markerTable = dataTable('Both decompositions at the marker: measured over the worlds, and exact', ['estimate', 'bias²', 'variance', 'MSE']);
    markerTable.table.dataset.testid = 'marker-table';
    const markerHeading = liveReadout('kl-readout');
    markerHeading.dataset.testid = 'marker-readout';
    // Until the core answers: the heading's line and the table's rows, blank where numbers go.
    setText(markerHeading, `At h = ${precise(state.h, 3)} (τ = 2h² = ${pending('0.000')}):`);
    markerTable.setRows(['measured', 'exact'].map((estimate) => [estimate, ...Array<string>(3).fill(pending('0.0000'))]));

    // ---- the chapter's table ----
    const table = dataTable('Fixed-design audit: one row per bandwidth on the grid', ['h', '2h²', 'bias²', 'variance', 'MSE']);
    table.table.dataset.testid = 'audit-table';
    const minimumLine = liveReadout('kl-summary');
    minimumLine.dataset.testid = 'grid-minimum';

    const tableBox = table.element;
    tableBox.append(minimumLine);
    const markerBox = markerTable.element;
    host.root.append(
      view.box,
      controlRow(marker.element),
      markerHeading,
      markerBox,
      progressLine,
      tableBox,
      controlRow(worlds.element, noise.element, keySeed.element, worldSeed.element),
      controlRow(grid.element, resetButton),
    );

    /// The rows of the latest audit so far (a cancelled one keeps them).
    let auditRows: RiskRow[] = [];

    function update(partial: Partial<AuditState>): void {
      state = { ...state, ...partial };
      host.setState(partial);
    }

    function settingsOf(s: AuditState): Settings {
      const { h: _marker, ...settings } = s;
      return settings;
    }

    /// The finished rows, then a row of blanks (each as wide as its number) for each bandwidth
    /// still `waiting`: the table has its final size from the start and numbers arriving shift
    /// nothing below it.
    function renderTable(rows: readonly RiskRow[], bestIndex: number | null, waiting: readonly number[] = []): void {
      const blank = pending('0.0000');
      table.setRows([
        ...rows.map((row) => [
          bandwidthText(row.bandwidth),
          fixed(row.tau, 4),
          fixed(row.bias2, 4),
          fixed(row.variance, 4),
          fixed(row.mse, 4),
        ]),
        ...waiting.map((h) => [bandwidthText(h), blank, blank, blank, blank]),
      ]);
      const bodyRows = table.table.tBodies[0]?.rows ?? [];
      Array.from(bodyRows).forEach((row, i) => {
        const best = i === bestIndex;
        row.classList.toggle('kl-row--best', best);
        if (best) row.setAttribute('aria-label', 'grid minimum');
      });
    }

    function setRunning(on: boolean): void {
      running = on;
      cancelButton.disabled = !on;
      runButton.disabled = on;
    }

    async function startAudit(): Promise<void> {
      const id = ++run;
      const settings = settingsOf(state);
      const bandwidths = [...settings.bandwidths];
      setRunning(true);
      host.clearError();
      progress.max = bandwidths.length;
      progress.value = 0;
      setText(status, `0 of ${bandwidths.length} bandwidths, ${settings.worlds.toLocaleString('en-US')} worlds each`);
      setText(minimumLine, 'grid minimum: computing…');
      const range = plotRange(bandwidths);
      void refreshExact(settings, range);
      void refreshMarker();
      const rows: RiskRow[] = [];
      auditRows = rows;
      renderTable(rows, null, bandwidths);
      try {
        for (const [i, h] of bandwidths.entries()) {
          const [chunk] = await host.bridge.run([call('biasVarianceSweep', labConfig(settings, [h]))] as const);
          if (id !== run) return;
          const row = chunk[0];
          if (row) rows.push(row);
          progress.value = rows.length;
          setText(status, `${rows.length} of ${bandwidths.length} bandwidths, ${settings.worlds.toLocaleString('en-US')} worlds each`);
          renderTable(rows, null, bandwidths.slice(i + 1));
          frame = { ...frame, rows: [...rows], minimum: null, xRange: range, yMax: yTop(rows, frame.exact, Math.max(...bandwidths)) };
          view.draw(frame);
        }
        const [minimum] = await host.bridge.run([
          call('gridMinimum', rows.map((r) => r.bandwidth), rows.map((r) => r.mse)),
        ] as const);
        if (id !== run) return;
        renderTable(rows, minimum.index);
        setText(minimumLine, `grid minimum: h=${bandwidthText(minimum.bandwidth)}, MSE=${fixed(minimum.risk, 4)}`);
        setText(status, `done: ${bandwidths.length} bandwidths × ${settings.worlds.toLocaleString('en-US')} worlds`);
        frame = { ...frame, minimum: minimum.bandwidth };
        view.draw(frame);
        setRunning(false);
      } catch (error) {
        if (id !== run) return;
        host.showError(error);
        renderTable(rows, null);
        setText(status, `stopped after ${rows.length} of ${bandwidths.length} bandwidths`);
        setText(minimumLine, '');
        setRunning(false);
      }
    }

    function cancelAudit(): void {
      if (!running) return;
      run++;
      setRunning(false);
      renderTable(auditRows, null);
      setText(status, `cancelled after ${progress.value} of ${progress.max} bandwidths; the table keeps the finished rows`);
      setText(minimumLine, 'grid minimum: not computed (the audit was cancelled)');
    }

    async function refreshExact(settings: Settings, range: { min: number; max: number }): Promise<void> {
      try {
        const result = await exactChannel.request([
          call('exactRisk', labConfig(settings, logPositions(range, EXACT_POINTS))),
        ] as const);
        if (!result) return;
        const [exact] = result;
        frame = { ...frame, exact, xRange: range, yMax: yTop(frame.rows, exact, Math.max(...settings.bandwidths)) };
        view.draw(frame);
      } catch (error) {
        host.showError(error);
      }
    }

    async function refreshMarker(): Promise<void> {
      const h = state.h;
      const settings = settingsOf(state);
      try {
        const result = await markerChannel.request([
          call('biasVarianceSweep', labConfig(settings, [h])),
          call('exactRisk', labConfig(settings, [h])),
        ] as const);
        if (!result) return;
        const [[measured], [exact]] = result;
        if (!measured || !exact) return;
        host.clearError('marker');
        setText(markerHeading, `At h = ${precise(measured.bandwidth, 3)} (τ = 2h² = ${precise(measured.tau, 3)}):`);
        markerTable.setRows([
          ['measured', fixed(measured.bias2, 4), fixed(measured.variance, 4), fixed(measured.mse, 4)],
          ['exact', fixed(exact.bias2, 4), fixed(exact.variance, 4), fixed(exact.mse, 4)],
        ]);
        frame = { ...frame, marker: measured.bandwidth };
        view.draw(frame);
      } catch (error) {
        host.showError(error, 'marker');
      }
    }

    function moveMarker(h: number): void {
      update({ h });
      marker.set(h);
      void refreshMarker();
    }

    // ---- dragging the marker on the chart ----
    const canvas = view.chart.canvas;
    let dragging = false;
    const hAt = (event: PointerEvent): number | null => {
      const { x: px, y: py } = localPoint(canvas, event);
      const area = view.chart.chartArea;
      if (!dragging && (px < area.left || px > area.right || py < area.top || py > area.bottom)) return null;
      const x = view.chart.scales.x;
      if (!x) return null;
      const clamped = Math.min(Math.max(px, area.left), area.right);
      return Number(x.getValueForPixel(clamped)?.toPrecision(3));
    };
    canvas.addEventListener('pointerdown', (event) => {
      const h = hAt(event);
      if (h === null || !(h > 0)) return;
      dragging = true;
      canvas.setPointerCapture(event.pointerId);
      event.preventDefault();
      moveMarker(h);
    });
    canvas.addEventListener('pointermove', (event) => {
      if (!dragging) return;
      const h = hAt(event);
      if (h !== null && h > 0) moveMarker(h);
    });
    const stopDrag = (): void => {
      dragging = false;
    };
    canvas.addEventListener('pointerup', stopDrag);
    canvas.addEventListener('pointercancel', stopDrag);

    const stopTheme = onThemeChange((colors) => view.recolor(colors, frame));
    void startAudit();

    return {
      destroy() {
        run++;
        stopTheme();
        view.destroy();
      },
    };
  },
});
