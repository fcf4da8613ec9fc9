/// Figure 12.2, live: the truth curve, the chapter's one noisy sample (the laboratory data) and
/// Nadaraya–Watson prediction curves over 601 dense queries for the bandwidths the reader picks,
/// optionally each with its exact pointwise ±2 standard-deviation band at the laboratory's noise
/// and how often that band holds the truth (this sample, and a fresh one's chance).
import { chartCanvas, scheduleFrame, setDatasets } from '../../charts';
import { button, controlRow, dataTable, slider } from '../../ui/controls';
import { fixed, percent, significant } from '../../ui/format';
import { call, keeping, type BandCoverage } from '../../engine';
import { defineWidget } from '../../ui/host/widget';
import { setText } from '../../ui/readout';
import { loadChapterSample, type ChapterSample } from '../shared/chapter-sample';
import { bandEdges, predictionCurve, sampleChart, sampleDatasets } from '../shared/sample-chart';
import prose from './prose.html?raw';
import meta from './meta';

const DENSE = { start: -3, stop: 3, count: 601 } as const;
const MAX_CURVES = 6;
/// Dense indices whose predictions the text table lists (q = −2, −1, 0, 1, 2 on the 0.01 grid).
const TABLE_INDICES = [100, 200, 300, 400, 500] as const;
/// The band's half-width in standard deviations.
const BAND_SDS = 2;

const params = {
  bandwidths: { kind: 'numbers', label: 'bandwidths', default: [0.05, 0.18, 0.65], min: 0.02, max: 3, minLength: 1, maxLength: MAX_CURVES },
  band: { kind: 'boolean', label: '±2 sd band shown', default: false },
} as const;
const BANDWIDTH_SPEC = { min: params.bandwidths.min, max: params.bandwidths.max, scale: 'log' } as const;

export default defineWidget({ name: 'smoothing', ...meta, params, prose }, (host) => {
  let lab: ChapterSample | null = null;
  /// The laboratory's noise σ, fetched the first time the band is shown.
  let noise: number | null = null;
  const curves: (Float64Array | null)[] = [];
  /// Each curve's exact pointwise standard deviation and bias (while the band is shown), and how
  /// often its band holds the truth.
  const deviations: (Float64Array | null)[] = [];
  const biases: (Float64Array | null)[] = [];
  const coverages: (BandCoverage | null)[] = [];
  /// The arrays with one entry per curve, kept as long as the list of bandwidths.
  const perCurve = [curves, deviations, biases, coverages];
  const fitCurves = (count: number): void => perCurve.forEach((entries) => (entries.length = count));
  /// What each curve was last drawn for: a curve is asked again only when its bandwidth changed,
  /// or when the band is shown and its sd is not yet in (a request that failed, say because a part
  /// of the core did not load, is asked again on Retry).
  let asked: ({ h: number; band: boolean } | undefined)[] = [];
  host.provideExport('predictions', () => lab, (current) => {
    const { bandwidths, band } = host.state;
    const header = [
      'query',
      'truth',
      ...bandwidths.map((h) => `prediction h=${h}`),
      ...(band ? bandwidths.map((h) => `sd h=${h}`) : []),
      ...(band ? bandwidths.map((h) => `chance truth in band h=${h}`) : []),
    ];
    return [
      header,
      ...Array.from(current.dense, (q, j) => [
        q,
        current.truth[j] ?? null,
        ...curves.map((curve) => curve?.[j] ?? null),
        ...(band ? bandwidths.map((_, i) => deviations[i]?.[j] ?? null) : []),
        ...(band ? bandwidths.map((_, i) => coverages[i]?.probability[j] ?? null) : []),
      ]),
    ];
  });

  const { box, canvas } = chartCanvas(
    'One fixed noisy sample under several bandwidths: the truth curve, the 60 noisy observations and one prediction curve per bandwidth',
    'kl-chart kl-chart--tall',
  );
  const chart = host.own(sampleChart(canvas, DENSE));
  const sliderRow = controlRow();
  const addButton = button('Add a bandwidth', () => {
    if (host.state.bandwidths.length >= MAX_CURVES) return;
    setBandwidths([...host.state.bandwidths, 0.3]);
    // The new bandwidth's slider takes the focus (Add disables itself at the sixth).
    sliderRow.querySelectorAll('input')[host.state.bandwidths.length - 1]?.focus();
  });
  const bandButton = button('', () => {
    host.update({ band: !host.state.band });
    renderBandButton();
    paint();
    renderTable();
    renderCoverage();
  });
  // Header cells with text from the start (they are `th`s): the core's grid fills in each query.
  const table = dataTable('Predictions at selected queries', ['bandwidth', ...TABLE_INDICES.map(() => 'q = …')]);
  const coverageNote = document.createElement('p');
  coverageNote.className = 'kl-note';
  coverageNote.dataset.testid = 'coverage';
  coverageNote.hidden = true;
  const waiting = host.waitingNote('Waiting for the laboratory data from the core…');
  host.root.append(box, coverageNote, sliderRow, controlRow(addButton, bandButton), table.element);

  function renderBandButton(): void {
    setText(bandButton, host.state.band ? 'Hide the ±2 sd bands' : 'Show the ±2 sd bands');
    bandButton.setAttribute('aria-pressed', String(host.state.band));
  }

  function curveColor(i: number): string {
    return host.colors.series[i % host.colors.series.length] ?? host.colors.orange;
  }

  function paint(): void {
    const current = lab;
    if (!current) return;
    const { bandwidths, band } = host.state;
    scheduleFrame(chart, () => {
      setDatasets(chart, [
        ...sampleDatasets(host.colors, current, 'one noisy sample'),
        ...bandwidths.map((h, i) => predictionCurve(`h=${fixed(h, 2)}`, curveColor(i), current.dense, curves[i] ?? new Float64Array(0), 1.8)),
        ...(band ? bandwidths.flatMap((h, i) => bandEdges(current.dense, curves[i], deviations[i], curveColor(i), `h=${fixed(h, 2)} ±2 sd`, 0.8)) : []),
      ]);
    });
  }

  function renderTable(): void {
    const current = lab;
    if (!current) return;
    const { bandwidths, band } = host.state;
    const head = table.table.tHead?.rows[0]?.cells;
    TABLE_INDICES.forEach((index, i) => {
      const cell = head?.[i + 1];
      const text = `q = ${fixed(current.dense[index] ?? Number.NaN, 2)}`;
      // Written only when it changes: a rewritten cell is laid out again on every frame of a drag.
      if (cell) setText(cell, text);
    });
    table.setRows([
      ['truth f(q)', ...TABLE_INDICES.map((index) => fixed(current.truth[index] ?? Number.NaN, 4))],
      ...bandwidths.map((h, i) => [
        `h = ${significant(h, 3)}`,
        ...TABLE_INDICES.map((index) => (curves[i] ? fixed(curves[i]?.[index] ?? Number.NaN, 4) : '…')),
      ]),
      ...(band
        ? bandwidths.map((h, i) => [
            `sd, h = ${significant(h, 3)}`,
            ...TABLE_INDICES.map((index) => (deviations[i] ? fixed(deviations[i]?.[index] ?? Number.NaN, 4) : '…')),
          ])
        : []),
    ]);
  }

  /// Under the chart while the band is shown: per curve, the share of the dense queries where its
  /// band holds the truth, and a fresh sample's expected share.
  function renderCoverage(): void {
    const { bandwidths, band } = host.state;
    coverageNote.hidden = !band;
    if (!band || !lab) return;
    const parts = bandwidths.map((h, i) => {
      const coverage = coverages[i];
      const name = `h = ${significant(h, 3)}`;
      return coverage ? `${name}: ${percent(coverage.observed)} (${percent(coverage.expected)})` : `${name}: …`;
    });
    setText(coverageNote, `Truth inside the ±${BAND_SDS} sd band at the ${lab.dense.length} queries, this sample (a fresh sample's expected share): ${parts.join('; ')}.`);
  }

  /// The laboratory's noise, asked for once the band is first shown (the band's sd needs it).
  const noiseComputation = host.compute({
    key: 'noise',
    reads: ['band'],
    ask: (state) => (state.band && lab && noise === null ? ([call('chapterConfig')] as const) : null),
    draw([config]) {
      noise = config.noise;
      for (const curve of curveComputations) curve.refresh();
    },
  });

  /// One computation per curve slot: slot i asks for the curve at the i-th bandwidth and, while
  /// the band is shown, its exact sd (without the band the laboratory module is not loaded).
  const curveComputations = Array.from({ length: MAX_CURVES }, (_, i) =>
    host.compute({
      key: `curve-${i}`,
      reads: ['bandwidths', 'band'],
      ask(state) {
        const h = state.bandwidths[i];
        const current = lab;
        if (h === undefined) asked[i] = undefined;
        const last = asked[i];
        const band = state.band && noise !== null;
        if (h === undefined || !current || (state.band && !band) || (last && last.h === h && (last.band || !band))) return null;
        const curve = keeping(call('attention', current.dense, current.keys, current.observed, 1, 1, h), 'outputs');
        return band
          ? ([curve, call('smootherAudit', current.dense, current.keys, 1, current.truthAtKeys, current.truth, noise ?? Number.NaN, h)] as const)
          : ([curve] as const);
      },
      draw(results, state) {
        const h = state.bandwidths[i];
        if (h === undefined || host.state.bandwidths[i] !== h) return;
        asked[i] = { h, band: results[1] !== undefined };
        curves[i] = results[0].outputs;
        deviations[i] = results[1]?.nadarayaWatson.sd ?? null;
        biases[i] = results[1]?.nadarayaWatson.bias ?? null;
        coverages[i] = null;
        paint();
        renderTable();
        renderCoverage();
        coverageComputations[i]?.refresh();
      },
      refused() {
        asked[i] = undefined;
      },
    }),
  );

  /// Slot i's coverage, once its curve and band are in: a second request, as it reads them.
  const coverageComputations = Array.from({ length: MAX_CURVES }, (_, i) =>
    host.compute({
      key: `coverage-${i}`,
      reads: ['bandwidths', 'band'],
      ask(state) {
        const [curve, sd, bias] = [curves[i], deviations[i], biases[i]];
        if (!state.band || !lab || !curve || !sd || !bias || coverages[i]) return null;
        return [call('bandCoverage', curve, lab.truth, bias, sd, BAND_SDS)] as const;
      },
      draw([coverage], state) {
        if (host.state.bandwidths[i] !== state.bandwidths[i] || !host.state.band) return;
        coverages[i] = coverage;
        renderCoverage();
      },
    }),
  );

  function setBandwidths(bandwidths: number[]): void {
    fitCurves(bandwidths.length);
    host.update({ bandwidths });
    buildSliders();
  }

  function buildSliders(): void {
    const { bandwidths } = host.state;
    // A rebuild (a new theme's swatches) keeps the focus on the control in the same place.
    const active = (sliderRow.getRootNode() as Document | ShadowRoot).activeElement;
    const controls = (): Element[] => Array.from(sliderRow.querySelectorAll('input, button'));
    const focused = active ? controls().indexOf(active) : -1;
    sliderRow.replaceChildren(
      ...bandwidths.map((h, i) => {
        const control = slider({
          label: `bandwidth h${i + 1}`,
          caption: `h${i + 1}`,
          spec: BANDWIDTH_SPEC,
          value: h,
          format: (x) => significant(x, 3),
          onInput: (x) => host.update({ bandwidths: host.state.bandwidths.map((old, j) => (j === i ? x : old)) }),
        });
        control.element.style.setProperty('--kl-swatch', curveColor(i));
        control.element.classList.add('kl-control--swatch');
        const remove = button('×', () => {
          if (host.state.bandwidths.length <= 1) return;
          for (const entries of perCurve) entries.splice(i, 1);
          // Every later curve moves up a slot: each slot asks for its new bandwidth.
          asked = [];
          setBandwidths(host.state.bandwidths.filter((_, j) => j !== i));
          // The rows are rebuilt: the focus goes to the Remove button now in this place (the last
          // one's if this was last), or to the one slider left, whose Remove is disabled.
          const left = host.state.bandwidths.length;
          const place = sliderRow.children[Math.min(i, left - 1)];
          (left > 1 ? place?.querySelector('button') : place?.querySelector('input'))?.focus();
        }, 'kl-button kl-button--icon');
        remove.setAttribute('aria-label', `Remove bandwidth h${i + 1}`);
        remove.disabled = bandwidths.length <= 1;
        control.element.append(remove);
        return control.element;
      }),
    );
    addButton.disabled = bandwidths.length >= MAX_CURVES;
    if (focused >= 0) (controls()[focused] as HTMLElement | undefined)?.focus();
  }

  async function loadLaboratory(): Promise<void> {
    lab = await loadChapterSample(host, DENSE);
    waiting();
    fitCurves(host.state.bandwidths.length);
    paint();
    renderCoverage();
    noiseComputation.refresh();
    for (const curve of curveComputations) curve.refresh();
  }

  host.announce(() => {
    const current = lab;
    const middle = TABLE_INDICES[2];
    if (!current) return '';
    const { bandwidths } = host.state;
    const predictions = bandwidths.map((h, i) => `h = ${significant(h, 3)}: ${curves[i] ? fixed(curves[i]?.[middle] ?? Number.NaN, 4) : 'pending'}`);
    return `${bandwidths.length} prediction curve${bandwidths.length === 1 ? '' : 's'}${host.state.band ? ' with ±2 sd bands' : ''}; at q = ${fixed(current.dense[middle] ?? Number.NaN, 2)}, ${predictions.join(', ')}.`;
  });

  host.onTheme(() => {
    buildSliders();
    paint();
  });
  buildSliders();
  renderBandButton();
  loadLaboratory().catch((error: unknown) => host.showError(error));
});
