/// Exercise 5, live: two-dimensional keys whose features are reported in very different units.
/// The same Gaussian bandwidth gives one attention map on the raw coordinates and another after
/// standardising each feature with the training (key) mean and standard deviation.
import { button, bandwidthSlider, controlRow, dataTable, slider } from '../../ui/controls';
import { fixed, precise } from '../../ui/format';
import { subheading } from '../../ui/headings';
import type { CsvRows } from '../../ui/download';
import { evenTickIndices, Heatmap, type HeatmapFrame, type HeatScale } from '../../charts/heatmap';
import { call } from '../../engine';
import { liveReadout, setText, testNode } from '../../ui/readout';
import { defineWidget } from '../../ui/host/widget';
import type { StandardizeExercise } from '../../engine';
import './standardize.css';
import prose from './prose.html?raw';
import meta from './meta';

const params = {
  h: { kind: 'number', label: 'bandwidth h', default: 0.5, min: 0.01, max: 10, scale: 'log' },
  scale2: { kind: 'number', label: 'unit of feature 2', default: 1000, min: 0.001, max: 1e6, scale: 'log' },
  scale: { kind: 'enum', label: 'colour scale', default: 'linear', options: ['linear', 'log'] as const },
} as const;

/// Two coordinates per key and query.
const FEATURES = 2;

function mapFrame(result: StandardizeExercise, weights: Float64Array, scale: HeatScale): HeatmapFrame {
  const rows = result.queryCount;
  const cols = result.keyCount;
  return {
    values: weights,
    rows,
    cols,
    scale,
    xTicks: evenTickIndices(cols).map((i) => ({ at: i, label: fixed(result.rawKeys[i * FEATURES] ?? Number.NaN, 1) })),
    yTicks: evenTickIndices(rows).map((r) => ({ at: r, label: fixed(result.rawQueries[r * FEATURES] ?? Number.NaN, 1) })),
  };
}

/// The map as CSV: one row per query (its two coordinates, then its weight on every key), the keys'
/// coordinates in the header.
function mapCsv(result: StandardizeExercise, keys: Float64Array, queries: Float64Array, weights: Float64Array): CsvRows {
  const n = result.keyCount;
  const header = ['query x1', 'query x2', ...Array.from({ length: n }, (_, i) => `key ${i + 1}`)];
  const keyRows = [0, 1].map((j) => [`key x${j + 1}`, null, ...Array.from({ length: n }, (_, i) => keys[i * FEATURES + j] ?? null)]);
  const rows = Array.from({ length: result.queryCount }, (_, r) => [
    queries[r * FEATURES] ?? null,
    queries[r * FEATURES + 1] ?? null,
    ...weights.subarray(r * n, (r + 1) * n),
  ]);
  return [header, ...keyRows, ...rows];
}

function mapPanel(title: string, heatmap: Heatmap, ...parts: HTMLElement[]): HTMLElement {
  const panel = document.createElement('section');
  panel.className = 'kl-standardize__panel';
  const heading = subheading(title, 'kl-standardize__heading');
  panel.append(heading, heatmap.element, ...parts);
  return panel;
}

export default defineWidget({ name: 'standardize', ...meta, params, prose }, (host) => {
  let last: StandardizeExercise | null = null;
  host.provideExport({
    name: 'raw attention matrix',
    csv: () => (last ? mapCsv(last, last.rawKeys, last.rawQueries, last.rawWeights) : []),
  });
  host.provideExport({
    name: 'standardized attention matrix',
    csv: () => (last ? mapCsv(last, last.standardizedKeys, last.standardizedQueries, last.standardizedWeights) : []),
  });
  host.provideExport('predictions', () => last, (result) => {
    return [
      ['query x1', 'query x2', 'truth', 'raw prediction', 'standardized prediction'],
      ...Array.from(result.truthAtQueries, (truth, r) => [
        result.rawQueries[r * FEATURES] ?? null,
        result.rawQueries[r * FEATURES + 1] ?? null,
        truth,
        result.rawPredictions[r] ?? null,
        result.standardizedPredictions[r] ?? null,
      ]),
    ];
  });

  const heatmapOptions = (when: string) => ({
    label: `Attention map ${when}: one row per query, one column per key (both sorted by feature 1), brighter cells carry more weight`,
    xTitle: 'key feature 1 (sorted)',
    yTitle: 'query feature 1',
    colorbarTitle: 'weight',
  });
  const raw = host.own(new Heatmap(heatmapOptions('in raw units')));
  const standardized = host.own(new Heatmap(heatmapOptions('after standardising')));
  const rawMse = testNode('strong', 'raw-mse');
  const standardizedMse = testNode('strong', 'standardized-mse');
  const rawShare = testNode('strong', 'raw-share');
  const standardizedShare = testNode('strong', 'standardized-share');

  const panels = document.createElement('div');
  panels.className = 'kl-charts kl-charts--pair';
  panels.append(
    mapPanel(
      'Raw units',
      raw,
      liveReadout('kl-readout', 'feature 2’s share of ‖q − k‖²: ', rawShare),
      liveReadout('kl-readout', 'MSE against the truth: ', rawMse),
    ),
    mapPanel(
      'Standardised with training statistics',
      standardized,
      liveReadout('kl-readout', 'feature 2’s share of ‖q − k‖²: ', standardizedShare),
      liveReadout('kl-readout', 'MSE against the truth: ', standardizedMse),
    ),
  );

  const statistics = dataTable('Training statistics and each feature’s share of the summed squared distance', [
    'feature',
    'unit',
    'training mean',
    'training std',
    'share, raw',
    'share, standardised',
  ]);
  const bandwidth = bandwidthSlider(params.h, host.state.h, (h) => host.update({ h }));
  const unit = slider({
    label: 'unit of feature 2 (multiplier)',
    spec: params.scale2,
    value: host.state.scale2,
    format: (x) => precise(x, 3),
    onInput: (scale2) => host.update({ scale2 }),
  });
  // The colour scale is the figure's own: the maps it has are drawn again, nothing is asked.
  const logToggle = button('Log colour scale', () => {
    host.update({ scale: host.state.scale === 'log' ? 'linear' : 'log' });
    if (last) show(last);
  });
  host.root.append(panels, controlRow(bandwidth.element, unit.element), controlRow(logToggle), statistics.element);

  function show(result: StandardizeExercise): void {
    const { scale } = host.state;
    raw.draw(mapFrame(result, result.rawWeights, scale));
    standardized.draw(mapFrame(result, result.standardizedWeights, scale));
    setText(rawMse, fixed(result.rawMse, 4));
    setText(standardizedMse, fixed(result.standardizedMse, 4));
    setText(rawShare, fixed(result.rawDistanceShare[1] ?? Number.NaN, 6));
    setText(standardizedShare, fixed(result.standardizedDistanceShare[1] ?? Number.NaN, 4));
    statistics.setRows(
      [0, 1].map((j) => [
        `x${j + 1}`,
        `×\u00a0${precise(result.featureScales[j] ?? Number.NaN, 3)}`,
        fixed(result.mean[j] ?? Number.NaN, 4),
        fixed(result.scale[j] ?? Number.NaN, 4),
        fixed(result.rawDistanceShare[j] ?? Number.NaN, 6),
        fixed(result.standardizedDistanceShare[j] ?? Number.NaN, 4),
      ]),
    );
    logToggle.setAttribute('aria-pressed', String(scale === 'log'));
  }

  host.compute({
    key: 'exercise',
    reads: ['h', 'scale2'],
    ask: (state) => [call('standardizeExercise', { bandwidth: state.h, featureScales: [1, state.scale2] })] as const,
    draw([result]) {
      last = result;
      show(result);
    },
    refused(error, state) {
      host.showError(`h = ${String(state.h)} is refused: ${error.message}`, 'exercise');
    },
  });
});
