/// Figure 12.2, live: the truth curve, the chapter's one noisy sample (the laboratory data) and
/// Nadaraya–Watson prediction curves over 601 dense queries for the bandwidths the reader picks,
/// optionally each with its exact pointwise ±2 standard-deviation band at the laboratory's noise.
import { chartCanvas, createChart, curveDataset, curveLayer, lineLegend, pointsDataset, scheduleFrame, setDatasets, type Chart } from '../../charts';
import { onThemeChange, palette, withAlpha, type Palette } from '../../theme/theme';
import { button, controlRow, dataTable, slider, type Slider } from '../../ui/controls';
import { fixed, significant } from '../../ui/format';
import { call, keeping } from '../../engine';
import type { StateOf } from '../../ui/state';
import { defineWidget } from '../../ui/host/widget';
import { setText } from '../../ui/readout';
import prose from './prose.html?raw';
import meta from './meta';

const LABORATORY = ['chapterDataset', 'truth', 'linspace'] as const;
/// What the ±2 sd band needs besides: the laboratory's noise and the exact audit of a fixed design.
const BAND = ['chapterConfig', 'smootherAudit'] as const;
const DENSE = { start: -3, stop: 3, count: 601 } as const;
const MAX_CURVES = 6;
/// Dense indices whose predictions the text table lists (q = −2, −1, 0, 1, 2 on the 0.01 grid).
const TABLE_INDICES = [100, 200, 300, 400, 500] as const;

const params = {
  bandwidths: {
    kind: 'numbers',
    label: 'bandwidths',
    default: [0.05, 0.18, 0.65],
    min: 0.02,
    max: 3,
    minLength: 1,
    maxLength: MAX_CURVES,
  },
  band: { kind: 'boolean', label: '±2 sd band shown', default: false },
} as const;
const BANDWIDTH_SPEC = { min: params.bandwidths.min, max: params.bandwidths.max, scale: 'log' } as const;

type SmoothingState = StateOf<typeof params>;

interface Laboratory {
  keys: Float64Array;
  observedValues: Float64Array;
  truthAtKeys: Float64Array;
  dense: Float64Array;
  truth: Float64Array;
}

export default defineWidget({
  name: 'smoothing',
  ...meta,
  params,
  prose,

  mount(host, initial) {
    let state: SmoothingState = { bandwidths: [...initial.bandwidths], band: initial.band };
    let colors = palette();
    let lab: Laboratory | null = null;
    /// The laboratory's noise σ, fetched the first time the band is shown.
    let noise: number | null = null;
    const curves: (Float64Array | null)[] = [];
    /// Each curve's exact pointwise standard deviation (while the band is shown).
    const deviations: (Float64Array | null)[] = [];
    const sliders: Slider[] = [];
    host.provideExport({
      name: 'predictions',
      csv: () => {
        const current = lab;
        if (!current) return [];
        const band = state.band ? state.bandwidths.map((h) => `sd h=${h}`) : [];
        const header = ['query', 'truth', ...state.bandwidths.map((h) => `prediction h=${h}`), ...band];
        return [
          header,
          ...Array.from(current.dense, (q, j) => [
            q,
            current.truth[j] ?? null,
            ...curves.map((curve) => curve?.[j] ?? null),
            ...(state.band ? state.bandwidths.map((_, i) => deviations[i]?.[j] ?? null) : []),
          ]),
        ];
      },
    });

    const { box, canvas } = chartCanvas(
      'One fixed noisy sample under several bandwidths: the truth curve, the 60 noisy observations and one prediction curve per bandwidth',
      'kl-chart kl-chart--tall',
    );
    const chart = createChart<'scatter'>(canvas, {
      type: 'scatter',
      data: { datasets: [] },
      options: {
        plugins: { legend: lineLegend() },
        scales: {
          x: { type: 'linear', min: DENSE.start, max: DENSE.stop, title: { display: true, text: 'query q' } },
          y: { type: 'linear', min: -2, max: 2, title: { display: true, text: 'prediction' } },
        },
      },
      // The truth and the prediction curves: 601 points each, drawn from the core's arrays.
      plugins: [curveLayer],
    });
    const sliderRow = controlRow();
    const addButton = button('Add a bandwidth', () => {
      if (state.bandwidths.length >= MAX_CURVES) return;
      setBandwidths([...state.bandwidths, 0.3]);
    });
    const bandButton = button('', () => {
      state = { ...state, band: !state.band };
      host.setState({ band: state.band });
      renderBandButton();
      if (state.band) state.bandwidths.forEach((h, i) => void computeCurve(i, h));
      paint();
      renderTable();
    });
    const table = dataTable('Predictions at selected queries', ['bandwidth', ...TABLE_INDICES.map(() => '')]);
    const waiting = host.waitingNote('Waiting for the laboratory data from the core…');
    host.root.append(box, sliderRow, controlRow(addButton, bandButton), table.element);

    function renderBandButton(): void {
      setText(bandButton, state.band ? 'Hide the ±2 sd bands' : 'Show the ±2 sd bands');
      bandButton.setAttribute('aria-pressed', String(state.band));
    }

    function curveColor(i: number): string {
      return colors.series[i % colors.series.length] ?? colors.orange;
    }

    function paint(): void {
      const current = lab;
      if (!current) return;
      scheduleFrame(chart, () => {
        setDatasets(chart, [
          curveDataset(
            { label: 'truth', borderColor: colors.truth, backgroundColor: colors.truth, borderWidth: 2, pointRadius: 0 },
            { xs: current.dense, ys: current.truth },
          ),
          pointsDataset(
            {
              label: 'one noisy sample',
              backgroundColor: withAlpha(colors.sample, 0.72),
              borderColor: withAlpha(colors.sample, 0.72),
              pointRadius: 3,
            },
            { xs: current.keys, ys: current.observedValues },
          ),
          ...state.bandwidths.map((h, i) =>
            curveDataset(
              { label: `h=${fixed(h, 2)}`, borderColor: curveColor(i), backgroundColor: curveColor(i), borderWidth: 1.8, pointRadius: 0 },
              { xs: current.dense, ys: curves[i] ?? new Float64Array(0) },
            ),
          ),
          ...(state.band ? state.bandwidths.flatMap((h, i) => bandEdges(current.dense, curves[i], deviations[i], curveColor(i), `h=${fixed(h, 2)} ±2 sd`)) : []),
        ]);
      });
    }

    /// The band's two dashed edges, curve ± 2 sd (the lower one unlabelled, so the legend lists it once).
    function bandEdges(xs: Float64Array, curve: Float64Array | null | undefined, sd: Float64Array | null | undefined, color: string, label: string) {
      if (!curve || !sd || sd.length !== curve.length) return [];
      const ink = withAlpha(color, 0.8);
      return ([1, -1] as const).map((sign) =>
        curveDataset(
          { label: sign === 1 ? label : '', borderColor: ink, backgroundColor: ink, borderWidth: 1, borderDash: [3, 3], pointRadius: 0 },
          { xs, ys: curve.map((y, j) => y + sign * 2 * (sd[j] ?? Number.NaN)) },
        ),
      );
    }

    function renderTable(): void {
      const current = lab;
      if (!current) return;
      const head = table.table.tHead?.rows[0]?.cells;
      TABLE_INDICES.forEach((index, i) => {
        const cell = head?.[i + 1];
        const text = `q = ${fixed(current.dense[index] ?? Number.NaN, 2)}`;
        // Written only when it changes: a rewritten cell is laid out again on every frame of a drag.
        if (cell) setText(cell, text);
      });
      table.setRows([
        ['truth f(q)', ...TABLE_INDICES.map((index) => fixed(current.truth[index] ?? Number.NaN, 4))],
        ...state.bandwidths.map((h, i) => [
          `h = ${significant(h, 3)}`,
          ...TABLE_INDICES.map((index) => (curves[i] ? fixed(curves[i]?.[index] ?? Number.NaN, 4) : '…')),
        ]),
        ...(state.band
          ? state.bandwidths.map((h, i) => [
              `sd, h = ${significant(h, 3)}`,
              ...TABLE_INDICES.map((index) => (deviations[i] ? fixed(deviations[i]?.[index] ?? Number.NaN, 4) : '…')),
            ])
          : []),
      ]);
    }

    async function computeCurve(index: number, h: number): Promise<void> {
      const current = lab;
      if (!current) return;
      try {
        const band = state.band;
        if (band && noise === null) [{ noise }] = await host.bridge.run([call('chapterConfig')] as const);
        const sigma = noise ?? Number.NaN;
        const curve = keeping(call('attention', current.dense, current.keys, current.observedValues, 1, 1, h), 'outputs');
        const channel = host.channel(`curve-${index}`);
        // Without the band the curve alone: the laboratory module is not loaded for it.
        const results = band
          ? await channel.request([curve, call('smootherAudit', current.dense, current.keys, 1, current.truthAtKeys, current.truth, sigma, h)] as const)
          : await channel.request([curve] as const);
        if (!results || index >= state.bandwidths.length) return;
        curves[index] = results[0].outputs;
        deviations[index] = results[1]?.nadarayaWatson.sd ?? null;
        host.clearError();
        paint();
        renderTable();
      } catch (error) {
        host.showError(error);
      }
    }

    function setBandwidths(bandwidths: number[]): void {
      state = { ...state, bandwidths };
      host.setState({ bandwidths });
      curves.length = bandwidths.length;
      deviations.length = bandwidths.length;
      buildSliders();
      bandwidths.forEach((h, i) => void computeCurve(i, h));
    }

    function buildSliders(): void {
      sliders.length = 0;
      sliderRow.replaceChildren(
        ...state.bandwidths.map((h, i) => {
          const control = slider({
            label: `bandwidth h${i + 1}`,
            caption: `h${i + 1}`,
            spec: BANDWIDTH_SPEC,
            value: h,
            format: (x) => significant(x, 3),
            onInput: (x) => {
              state = { ...state, bandwidths: state.bandwidths.map((old, j) => (j === i ? x : old)) };
              host.setState({ bandwidths: state.bandwidths });
              void computeCurve(i, x);
            },
          });
          control.element.style.setProperty('--kl-swatch', curveColor(i));
          control.element.classList.add('kl-control--swatch');
          const remove = button('×', () => {
            if (state.bandwidths.length <= 1) return;
            curves.splice(i, 1);
            deviations.splice(i, 1);
            setBandwidths(state.bandwidths.filter((_, j) => j !== i));
          }, 'kl-button kl-button--icon');
          remove.setAttribute('aria-label', `Remove bandwidth h${i + 1}`);
          remove.disabled = state.bandwidths.length <= 1;
          control.element.append(remove);
          sliders.push(control);
          return control.element;
        }),
      );
      addButton.disabled = state.bandwidths.length >= MAX_CURVES;
    }

    async function loadLaboratory(): Promise<void> {
      const available = await host.bridge.available();
      const missing = LABORATORY.filter((name) => !available.has(name));
      if (missing.length > 0) {
        waiting();
        host.note(`Waiting for data: this build of the core has no ${missing.join(', ')} yet, so no sample is drawn.`);
        addButton.disabled = true;
        return;
      }
      try {
        const first = await host.bridge.run([
          call('chapterDataset'),
          call('linspace', DENSE.start, DENSE.stop, DENSE.count),
        ] as const);
        const [dataset, dense] = first;
        const [truth] = await host.bridge.run([call('truth', dense)] as const);
        lab = {
          keys: dataset.keys,
          observedValues: dataset.observedValues,
          truthAtKeys: dataset.truthAtKeys,
          dense,
          truth,
        };
        waiting();
        const bandMissing = BAND.filter((name) => !available.has(name));
        if (bandMissing.length > 0) {
          bandButton.disabled = true;
          if (state.band) host.note(`This build of the core has no ${bandMissing.join(', ')}, so no band is drawn.`);
          state = { ...state, band: false };
          renderBandButton();
        }
        setBandwidths(state.bandwidths);
        paint();
      } catch (error) {
        host.showError(error);
      }
    }

    const stopTheme = onThemeChange((next: Palette) => {
      colors = next;
      buildSliders();
      paint();
    });
    buildSliders();
    renderBandButton();
    void loadLaboratory();
    return {
      destroy() {
        stopTheme();
        chart.destroy();
      },
    };
  },
});
