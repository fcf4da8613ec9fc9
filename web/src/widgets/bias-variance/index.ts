/// Figure 12.3 (left) and the section 12.4 table, live (section 12.4's numbers come from it): the fixed-design bias/variance audit over
/// noisy worlds, run in the worker one bandwidth at a time (progress, cancel), with the exact
/// population curves and a draggable bandwidth marker reading out both at the current h; on request,
/// the noisy worlds themselves at the marker's h (worlds.ts).
import { call, type RiskRow } from '../../engine';
import { button, controlRow, slider } from '../../ui/controls';
import { fixed, precise } from '../../ui/format';
import { setText } from '../../ui/readout';
import { defineWidget } from '../../ui/host/widget';
import { bandwidthText, settingsFields } from '../shared/laboratory-fields';
import { auditMinima, publishAudit } from '../../ui/host/live-values';
import '../shared/laboratory.css';
import { dragMarker } from './drag';
import { CHAPTER_SETTINGS, labConfig, logPositions, params, plotRange, SETTINGS, settingsOf, yTop, type Settings } from './settings';
import { auditTable, markerReadout } from './tables';
import { AuditView, type AuditFrame } from './view';
import { WorldsView, type WorldsFrame } from './worlds';
import prose from './prose.html?raw';
import meta from './meta';

/// Points of the exact (population) curves across the plotted range of h.
const EXACT_POINTS = 97;
/// Worlds drawn as curves, and the histogram's bins.
const WORLD_CURVES = 30;
const WORLD_BINS = 30;

const riskCsv = (rows: readonly RiskRow[]) => [
  ['h', 'tau', 'bias2', 'variance', 'MSE'],
  ...rows.map((row) => [row.bandwidth, row.tau, row.bias2, row.variance, row.mse]),
];

export default defineWidget({ name: 'bias-variance', ...meta, params, prose }, (host) => {
  const view = new AuditView();
  host.own(view.chart);
  let frame: AuditFrame = {
    rows: [],
    exact: [],
    minimum: null,
    marker: host.state.h,
    xRange: plotRange(host.state.bandwidths),
    yMax: 0.35,
  };
  const redraw = (next: Partial<AuditFrame>): void => {
    frame = { ...frame, ...next };
    view.draw(frame);
  };
  host.provideExport({ name: 'bias-variance table', csv: () => (frame.rows.length ? riskCsv(frame.rows) : []) });
  host.provideExport({ name: 'exact risk', csv: () => (frame.exact.length ? riskCsv(frame.exact) : []) });

  const table = auditTable();
  const markerTable = markerReadout(host.state.h);

  /// The Monte Carlo audit: one bandwidth per step, in the worker; Cancel stops the step there.
  /// A cancelled or refused audit keeps its finished rows.
  const audit = host.job({
    name: 'Monte Carlo audit',
    runLabel: 'Run the audit',
    statusTestId: 'audit-status',
    async work({ step, progress, signal }) {
      const settings = settingsOf(host.state);
      const bandwidths = [...settings.bandwidths];
      const worlds = settings.worlds.toLocaleString('en-US');
      const status = (done: number): string => `${done} of ${bandwidths.length} bandwidths, ${worlds} worlds each`;
      const range = plotRange(bandwidths);
      const rows: RiskRow[] = [];
      progress(0, bandwidths.length, status(0));
      table.say('grid minimum: computing…');
      table.render(rows, null, bandwidths);
      signal.addEventListener('abort', () => {
        table.render(rows, null);
        table.say('grid minimum: not computed (the audit was cancelled)');
      });
      try {
        for (const [i, h] of bandwidths.entries()) {
          const [chunk] = await step([call('biasVarianceSweep', labConfig(settings, [h]))] as const);
          const row = chunk[0];
          if (row) rows.push(row);
          progress(rows.length, bandwidths.length, status(rows.length));
          table.render(rows, null, bandwidths.slice(i + 1));
          redraw({ rows: [...rows], minimum: null, xRange: range, yMax: yTop(rows, frame.exact, Math.max(...bandwidths)) });
        }
        const [minimum, leastBias] = await step(auditMinima(rows));
        // The numbers section 12.4, Figure 12.3 and the summary quote follow the audit on screen.
        publishAudit(rows, minimum, leastBias);
        table.render(rows, minimum.index);
        table.say(`grid minimum: h=${bandwidthText(minimum.bandwidth)}, MSE=${fixed(minimum.risk, 4)}`);
        redraw({ minimum: minimum.bandwidth });
        return `done: ${bandwidths.length} bandwidths × ${worlds} worlds`;
      } catch (error) {
        if (!signal.aborted) {
          table.render(rows, null);
          table.say('');
        }
        throw error;
      }
    },
    cancelled: (done, total) => `cancelled after ${done} of ${total} bandwidths; the table keeps the finished rows`,
    summary: () => table.element.querySelector('[data-testid="grid-minimum"]')?.textContent ?? '',
    stopped: (done, total) => `stopped after ${done} of ${total} bandwidths`,
  });

  // ---- settings ----
  const settingsChanged = (partial: Partial<Settings>): void => {
    host.clearError('field');
    host.update(partial);
    audit.start();
  };
  const make = settingsFields(params, () => host.state, settingsChanged, (message) => host.showError(message, 'field'));
  const worlds = make('worlds', 7);
  const noise = make('noise', 5);
  const keySeed = make('keySeed', 9);
  const worldSeed = make('monteCarloSeed', 9);
  const grid = make('bandwidths', 30);
  const resetButton = button("Chapter's settings", () => {
    worlds.set(CHAPTER_SETTINGS.worlds);
    noise.set(CHAPTER_SETTINGS.noise);
    keySeed.set(CHAPTER_SETTINGS.keySeed);
    worldSeed.set(CHAPTER_SETTINGS.monteCarloSeed);
    grid.set(CHAPTER_SETTINGS.bandwidths);
    settingsChanged({ ...CHAPTER_SETTINGS, bandwidths: [...CHAPTER_SETTINGS.bandwidths] });
  });

  /// A slider for one of the number parameters, named by its label.
  const numberSlider = (key: 'h' | 'q', caption: string, format: (x: number) => string, onInput: (x: number) => void) =>
    slider({ label: params[key].label, caption, spec: params[key], value: host.state[key], format, onInput });

  // ---- marker ----
  const marker = numberSlider('h', 'marker h', (h) => precise(h, 3), (h) => moveMarker(h));
  function moveMarker(h: number): void {
    topic = 'marker';
    host.update({ h });
    marker.set(h);
  }
  dragMarker(host, view.chart, moveMarker);
  /// The marker's two decompositions, said once the marker rests; or, after the reader turned to
  /// the worlds (shown them, moved their q), what the worlds say.
  let markerRows: { measured: RiskRow; exact: RiskRow } | null = null;
  let topic: 'marker' | 'worlds' = 'marker';
  host.announce(() => {
    if (topic === 'worlds') return host.state.look ? (worldsView?.sentence ?? '') : 'The noisy worlds are hidden.';
    if (!markerRows) return '';
    const { measured, exact } = markerRows;
    const parts = (row: RiskRow): string => `bias² ${fixed(row.bias2, 4)}, variance ${fixed(row.variance, 4)}, MSE ${fixed(row.mse, 4)}`;
    return `At marker h = ${precise(measured.bandwidth, 3)}: measured ${parts(measured)}; exact ${parts(exact)}.`;
  });

  // ---- the worlds behind the table ----
  /// Made the first time the worlds are shown (its two charts are not in the figure before).
  let worldsView: WorldsView | null = null;
  let worldsFrame: WorldsFrame | null = null;
  const lookButton = button('', () => {
    topic = 'worlds';
    host.update({ look: !host.state.look });
    renderLook();
  });
  const querySlider = numberSlider('q', 'histogram q', (q) => fixed(q, 2), (q) => {
    topic = 'worlds';
    host.update({ q });
  });
  const worldsBox = document.createElement('div');
  worldsBox.append(controlRow(querySlider.element));
  function renderLook(): void {
    setText(lookButton, host.state.look ? 'Hide the noisy worlds' : 'Show the noisy worlds');
    lookButton.setAttribute('aria-pressed', String(host.state.look));
    worldsBox.hidden = !host.state.look;
  }
  function worldsPanel(): WorldsView {
    if (!worldsView) {
      worldsView = new WorldsView();
      host.own(worldsView.curves);
      host.own(worldsView.spread);
      worldsBox.append(worldsView.element);
    }
    return worldsView;
  }
  renderLook();

  host.root.append(
    view.box,
    controlRow(marker.element),
    markerTable.heading,
    markerTable.element,
    controlRow(lookButton),
    worldsBox,
    audit.element,
    table.element,
    controlRow(worlds.element, noise.element, keySeed.element, worldSeed.element),
    controlRow(grid.element, resetButton),
  );

  /// Both decompositions at the marker: measured over the worlds, and exact.
  host.compute({
    key: 'marker',
    ask: (state) => {
      const settings = settingsOf(state);
      return [call('biasVarianceSweep', labConfig(settings, [state.h])), call('exactRisk', labConfig(settings, [state.h]))] as const;
    },
    draw([[measured], [exact]]) {
      if (!measured || !exact) return;
      markerRows = { measured, exact };
      markerTable.show(measured, exact);
      redraw({ marker: measured.bandwidth });
    },
  });

  /// The exact curves over the plotted range.
  host.compute({
    key: 'exact',
    reads: SETTINGS,
    ask: (state) => {
      const settings = settingsOf(state);
      return [call('exactRisk', labConfig(settings, logPositions(plotRange(settings.bandwidths), EXACT_POINTS)))] as const;
    },
    draw([exact], state) {
      redraw({ exact, xRange: plotRange(state.bandwidths), yMax: yTop(frame.rows, exact, Math.max(...state.bandwidths)) });
    },
  });

  /// The worlds at the marker's h: a few curves, the mean curve and one query's spread (then its
  /// histogram, which reads them), while they are shown.
  /// The worlds the histogram was last asked for: bins that arrive for older worlds are dropped.
  let binned: WorldsFrame | null = null;
  const histogram = host.compute({
    key: 'worlds-histogram',
    ask: () => {
      binned = worldsFrame;
      return binned && !binned.histogram ? ([call('histogram', binned.worlds.atQuery, WORLD_BINS)] as const) : null;
    },
    draw([bins]) {
      if (!worldsFrame || worldsFrame !== binned) return;
      worldsFrame = { ...worldsFrame, histogram: bins };
      worldsPanel().draw(worldsFrame, host.colors);
    },
  });
  host.compute({
    key: 'worlds',
    reads: [...SETTINGS, 'h', 'look', 'q'],
    ask: (state) => {
      if (!state.look) return null;
      const config = labConfig(settingsOf(state), [state.h]);
      return [call('auditWorlds', config, state.h, Math.min(WORLD_CURVES, state.worlds), state.q), call('chapterDataset', config)] as const;
    },
    draw([atMarker, dataset], state) {
      worldsFrame = { h: state.h, queries: dataset.queries, truth: dataset.truthAtQueries, worlds: atMarker, histogram: null };
      worldsPanel().draw(worldsFrame, host.colors);
      histogram.refresh();
    },
  });

  host.onTheme((colors) => {
    view.recolor(colors, frame);
    if (worldsFrame) worldsPanel().draw(worldsFrame, colors);
  });
  audit.start();
});
