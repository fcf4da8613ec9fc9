/// Figure 12.3 (right), live: the laboratory's keys and one query grid as a fixed Gaussian
/// attention matrix A = rowsoftmax(S) (eq. 12.6) drawn as one image, with the k = q trace, the
/// shapes of Q, K, V, A and AV, the measured row-sum error and the weights of one query row.
import { queryKeyReader } from '../../charts/heatmap';
import { call } from '../../engine';
import { bandwidthSlider, button, controlRow, slider } from '../../ui/controls';
import { fixed } from '../../ui/format';
import { defineWidget } from '../../ui/host/widget';
import type { StateOf } from '../../ui/state';
import { refusalOf, typedNumber } from '../../ui/typed-input';
import './attention-map.css';
import { sizeOf, type Dataset, type MapFrame } from './frame';
import { mapView } from './heat-map';
import meta from './meta';
import { followPointer } from './pointer';
import prose from './prose.html?raw';
import { rowView } from './row-bars';

const MAX_SIZE = 2048;

const params = {
  h: { kind: 'number', label: 'bandwidth h', default: 0.18, min: 0.01, max: 10, scale: 'log' },
  queries: { kind: 'integer', label: 'number of queries', default: 31, min: 2, max: MAX_SIZE },
  keys: { kind: 'integer', label: 'number of keys', default: 60, min: 2, max: MAX_SIZE },
  scale: { kind: 'enum', label: 'colour scale', default: 'linear', options: ['linear', 'log'] as const },
  row: { kind: 'integer', label: 'index of the highlighted query (0: the first, q = −2.9)', default: 15, min: 0, max: MAX_SIZE - 1 },
} as const;

type MapState = StateOf<typeof params>;

/// Sizes offered as presets: the figure's 31 × 60, the laboratory's 241 × 60, and the stress size.
const PRESETS = [
  { queries: 31, keys: 60, label: '31 × 60 (Figure 12.3)' },
  { queries: 241, keys: 60, label: '241 × 60' },
  { queries: MAX_SIZE, keys: MAX_SIZE, label: '2048 × 2048' },
] as const;
const COUNT_SPEC = { min: 2, max: MAX_SIZE, scale: 'log' } as const;

export default defineWidget({ name: 'attention-map', ...meta, params, prose }, (host) => {
  /// The data as the core loaded it (its trace still to come), and the dataset the map uses.
  let loaded: Omit<Dataset, 'trace'> | null = null;
  let dataset: Dataset | null = null;
  let last: MapFrame | null = null;
  host.provideExport({
    name: 'attention matrix',
    // The figure holds only the image: the whole matrix is computed again for the download.
    csv: async () => {
      const map = last;
      if (!map) return [];
      const { queries, keys, values } = map.data;
      const [{ weights }] = await host.run([call('attention', queries, keys, values, 1, 1, map.h)] as const);
      const n = keys.length;
      const rows = Array.from(queries, (q, r) => [q, ...weights.subarray(r * n, (r + 1) * n)]);
      return [['query (row) / key (column)', ...keys], ...rows];
    },
  });
  host.provideExport({
    name: 'predictions',
    csv: () => (last ? [['query', 'prediction'], ...Array.from(last.data.queries, (q, r) => [q, last?.outputs[r] ?? null])] : []),
  });

  const map = mapView(host.state);
  const heatmap = host.own(map.heatmap);
  // Read cell by cell: the page holds one query row's weights at a time (the highlighted row's);
  // moving to another row from the keyboard highlights it, and its weights are read once drawn.
  heatmap.reader = queryKeyReader(heatmap, () => last?.data ?? null, {
    value: (r, c) => (last && last.row === r ? (last.rowWeights[c] ?? null) : null),
    select: (r) => selectRow(r),
  });
  const row = rowView(host.colors);
  host.own(row.chart);

  const bandwidth = bandwidthSlider(params.h, host.state.h, (h) => change({ h }));
  const typed = typedNumber({ label: 'bandwidth h, typed value', caption: 'type h', value: host.state.h, onChange: (h) => change({ h }) });
  const countSlider = (label: string, value: number, onInput: (count: number) => void) =>
    slider({ label, spec: COUNT_SPEC, value, format: (x) => String(x), onInput: (x) => onInput(Math.round(x)) });
  const queryCount = countSlider('number of queries m', host.state.queries, (queries) => change({ queries }));
  const keyCount = countSlider('number of keys n', host.state.keys, (keys) => change({ keys }));
  /// A row is named by its query: "q = −1.45" (the loaded grid's value; blank until it is loaded).
  const rowName = (r: number): string => {
    const q = last?.data.queries[r] ?? dataset?.queries[r];
    return q === undefined ? 'q = …' : `q = ${fixed(q, 2)}`;
  };
  const rowSlider = slider({
    label: 'highlighted query',
    spec: { min: 0, max: host.state.queries - 1, scale: 'linear', step: 1 },
    value: host.state.row,
    format: rowName,
    onInput: (r) => selectRow(r),
  });
  const logToggle = button('Log colour scale', () => change({ scale: host.state.scale === 'log' ? 'linear' : 'log' }));
  const presets = PRESETS.map((preset) =>
    button(preset.label, () => {
      queryCount.set(preset.queries);
      keyCount.set(preset.keys);
      change({ queries: preset.queries, keys: preset.keys });
    }),
  );

  const layout = document.createElement('div');
  layout.className = 'kl-map';
  layout.append(map.element, row.element);
  host.root.append(
    layout,
    controlRow(bandwidth.element, typed.element),
    controlRow(rowSlider.element, logToggle),
    controlRow(queryCount.element, keyCount.element),
    controlRow(...presets),
  );

  /// The highlighted row: its outline on the map, its weights as bars and in the table.
  function drawRow(frame: MapFrame): void {
    heatmap.highlight(frame.row);
    row.draw(frame, host.colors);
  }

  /// The data at the state's size: loaded once per size, then its k = q trace.
  host.compute({
    key: 'dataset',
    reads: ['queries', 'keys'],
    ask: (state) => (dataset?.size === sizeOf(state) ? null : [call('chapterDataset', { queries: state.queries, keys: state.keys })] as const),
    draw([{ keys, queries, observedValues }], state) {
      loaded = { size: sizeOf(state), queries, keys, values: observedValues };
      trace.refresh();
    },
  });
  const trace = host.compute({
    key: 'trace',
    reads: ['queries', 'keys'],
    ask: (state) => (loaded && loaded.size === sizeOf(state) && dataset?.size !== loaded.size ? [call('sortedKeyPosition', loaded.queries, loaded.keys)] as const : null),
    draw([positions], state) {
      if (!loaded || loaded.size !== sizeOf(state)) return;
      dataset = { ...loaded, trace: positions };
      attention.refresh();
    },
  });

  /// The map at the state's bandwidth and colour scale, with its highlighted row's weights.
  const attention = host.compute({
    key: 'map',
    reads: ['h', 'queries', 'keys', 'scale'],
    // Two maps in flight: at 2048 x 2048 each takes the worker tens of milliseconds, and with one
    // the worker would idle while each answer reaches the page and the next request comes back.
    depth: 2,
    ask(state) {
      const data = dataset;
      if (!data || data.size !== sizeOf(state)) return null;
      const m = data.queries.length;
      const view = { scale: state.scale, row: Math.min(state.row, m - 1), ...map.imageSize(m, data.keys.length), palette: heatmap.paletteBytes() };
      return [call('attentionMap', data.queries, data.keys, data.values, 1, 1, state.h, view)] as const;
    },
    draw([result], state) {
      const data = dataset;
      if (!data || data.size !== sizeOf(state)) return;
      const image = { pixels: result.image, width: result.width, height: result.height, range: { low: result.low, high: result.high, zeros: result.zeros } };
      last = {
        data,
        h: state.h,
        scale: state.scale,
        image,
        outputs: result.outputs,
        rowSumError: result.maxRowSumError,
        row: Math.min(state.row, data.queries.length - 1),
        rowWeights: result.rowWeights,
      };
      map.draw(last);
      drawRow(last);
      rowSlider.set(last.row);
    },
    refused(error, state) {
      host.showError(refusalOf([{ name: 'h', value: state.h, typed }], error.message, 'a positive bandwidth'), 'map');
    },
  });

  /// A newly highlighted row of the drawn map: its weights alone (one query against the keys).
  const rowAskedOf = new WeakMap<MapState, MapFrame>();
  host.compute({
    key: 'row',
    reads: ['row'],
    ask(state) {
      const frame = last;
      if (!frame || frame.data.size !== sizeOf(state) || frame.row === state.row) return null;
      rowAskedOf.set(state, frame);
      const query = frame.data.queries.subarray(state.row, state.row + 1);
      return [call('attention', query, frame.data.keys, frame.data.values, 1, 1, frame.h)] as const;
    },
    draw([{ weights }], state) {
      const frame = last;
      if (!frame || rowAskedOf.get(state) !== frame || host.state.row !== state.row) return;
      last = { ...frame, row: state.row, rowWeights: weights };
      drawRow(last);
      rowSlider.set(last.row);
    },
  });

  function selectRow(r: number): void {
    const rows = last?.data.queries.length ?? host.state.queries;
    const clamped = Math.min(Math.max(Math.round(r), 0), rows - 1);
    if (clamped === host.state.row) return;
    host.update({ row: clamped });
    rowSlider.set(clamped);
  }

  /// Sets parameters from a control and shows them on the others.
  function change(partial: Partial<MapState>): void {
    const queries = partial.queries ?? host.state.queries;
    host.update({ ...partial, row: Math.min(partial.row ?? host.state.row, queries - 1) });
    if (partial.h !== undefined && Number.isFinite(partial.h)) {
      if (partial.h > 0) bandwidth.set(partial.h);
      typed.set(partial.h);
    }
    rowSlider.input.max = String(queries - 1);
    rowSlider.set(host.state.row);
    logToggle.setAttribute('aria-pressed', String(host.state.scale === 'log'));
  }

  followPointer(host, heatmap, selectRow);
  // The core colours the map: a new theme's grey for exact zeros is a new request.
  host.onTheme(() => {
    if (last) attention.refresh();
  });
  // A plot laid out larger (or smaller) than the image it shows asks for an image of its size.
  heatmap.onResize = () => {
    const frame = last;
    if (!frame) return;
    const size = map.imageSize(frame.data.queries.length, frame.data.keys.length);
    if (size.width !== frame.image.width || size.height !== frame.image.height) attention.refresh();
  };
  logToggle.setAttribute('aria-pressed', String(host.state.scale === 'log'));
});
