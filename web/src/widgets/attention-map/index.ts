/// Figure 12.3 (right), live: the laboratory's keys and one query grid as a fixed Gaussian
/// attention matrix A = rowsoftmax(S) (eq. 12.6) drawn as one image, with the k = q trace, the
/// shapes of Q, K, V, A and AV, the measured row-sum error and the weights of one query row.
import { chartCanvas, envelopeBars, createChart, scheduleFrame, type Chart } from '../../charts';
import { onThemeChange, palette, type Palette } from '../../theme/theme';
import { bandwidthSlider, button, controlRow, dataTable, slider } from '../../ui/controls';
import { fixed, pending, scientific } from '../../ui/format';
import { evenTickIndices, Heatmap, type HeatmapImage, type HeatmapTick } from '../../charts/heatmap';
import { call } from '../../engine';
import type { StateOf } from '../../ui/state';
import { liveReadout, setText, testNode } from '../../ui/readout';
import { typedNumber } from '../../ui/typed-input';
import { defineWidget } from '../../ui/host/widget';
import './attention-map.css';
import prose from './prose.html?raw';
import meta from './meta';

const MAX_SIZE = 2048;

const params = {
  h: { kind: 'number', label: 'bandwidth h', default: 0.18, min: 0.01, max: 10, scale: 'log' },
  queries: { kind: 'integer', label: 'number of queries', default: 31, min: 2, max: MAX_SIZE },
  keys: { kind: 'integer', label: 'number of keys', default: 60, min: 2, max: MAX_SIZE },
  scale: { kind: 'enum', label: 'colour scale', default: 'linear', options: ['linear', 'log'] as const },
  row: { kind: 'integer', label: 'highlighted query row', default: 15, min: 0, max: MAX_SIZE - 1 },
} as const;

type MapState = StateOf<typeof params>;

/// Sizes offered as presets: the figure's 31 × 60, the laboratory's 241 × 60, and the stress size.
const PRESETS = [
  { queries: 31, keys: 60, label: '31 × 60 (Figure 12.3)' },
  { queries: 241, keys: 60, label: '241 × 60' },
  { queries: MAX_SIZE, keys: MAX_SIZE, label: '2048 × 2048' },
] as const;
const COUNT_SPEC = { min: 2, max: MAX_SIZE, scale: 'log' } as const;
/// The most bars the row's chart draws (one per key up to this many keys).
const MAX_BARS = 256;
/// Rows listed in the linked table: the largest weights of the highlighted row.
const LISTED_WEIGHTS = 5;

interface Dataset {
  size: string;
  queries: Float64Array;
  keys: Float64Array;
  values: Float64Array;
  trace: Float64Array;
}

/// One computed map: what the core sent for the figure (never the m × n weights themselves).
interface MapFrame {
  data: Dataset;
  h: number;
  scale: MapState['scale'];
  image: HeatmapImage;
  outputs: Float64Array;
  rowSumError: number;
  /// The highlighted row's weights, in full precision, and which row they are.
  row: number;
  rowWeights: Float64Array;
}

/// The most image pixels per side asked of the core before the plot has been laid out.
const FIRST_IMAGE_PIXELS = 512;

/// Ticks at the whole query values inside [first, last], placed by row (row r sits at query r).
function queryTicks(queries: Float64Array): HeatmapTick[] {
  const first = queries[0] ?? 0;
  const last = queries[queries.length - 1] ?? 0;
  const rows = queries.length;
  if (rows < 2 || last === first) return [{ at: 0, label: fixed(first, 1) }];
  const ticks: HeatmapTick[] = [];
  for (let v = Math.ceil(first); v <= Math.floor(last); v++) {
    ticks.push({ at: ((v - first) / (last - first)) * (rows - 1), label: fixed(v, 0) });
  }
  return ticks;
}

/// "(31, 1)": the shape of a flat row-major array with `cols` columns.
const shape = (array: ArrayLike<number>, cols: number): string => `(${array.length / cols}, ${cols})`;

export default defineWidget({
  name: 'attention-map',
  ...meta,
  params,
  prose,

  mount(host, initial) {
    let state: MapState = { ...initial };
    let colors = palette();
    let dataset: Dataset | null = null;
    let last: MapFrame | null = null;
    const exportChannel = host.channel('export');
    host.provideExport({
      name: 'attention matrix',
      // The figure holds only the image: the whole matrix is computed again for the download.
      csv: async () => {
        const map = last;
        if (!map) return [];
        const { queries, keys, values } = map.data;
        const result = await exportChannel.request([call('attention', queries, keys, values, 1, 1, map.h)] as const);
        if (!result) return [];
        const [{ weights }] = result;
        const n = keys.length;
        const rows = Array.from(queries, (q, r) => [q, ...weights.subarray(r * n, (r + 1) * n)]);
        return [['query (row) / key (column)', ...keys], ...rows];
      },
    });
    host.provideExport({
      name: 'predictions',
      csv: () => (last ? [['query', 'prediction'], ...Array.from(last.data.queries, (q, r) => [q, last?.outputs[r] ?? null])] : []),
    });
    const datasetChannel = host.channel('dataset');
    // Two maps in flight: at 2048 x 2048 each takes the worker tens of milliseconds, and with one
    // the worker would idle while each answer reaches the page and the next request comes back.
    const mapChannel = host.channel('map', 2);
    const rowChannel = host.channel('row');

    const heatmap = new Heatmap({
      label: 'Fixed attention matrix: one row per query (first query at the bottom), one column per sorted key, brighter cells carry more weight; a white trace marks k = q',
      xTitle: 'key location kᵢ (sorted)',
      yTitle: 'query q',
      colorbarTitle: 'weight',
    });
    const mapTitle = document.createElement('p');
    mapTitle.className = 'kl-map__title';

    const { box: barBox, canvas: barCanvas } = chartCanvas('Weights of the highlighted query row over the sorted keys');
    const bars = createChart<'bar'>(barCanvas, {
      type: 'bar',
      data: { labels: [], datasets: [{ label: 'weight', data: [], backgroundColor: colors.orange, barPercentage: 1, categoryPercentage: 1 }] },
      options: {
        scales: {
          x: { type: 'category', title: { display: true, text: 'key index (sorted)' }, ticks: { maxTicksLimit: 7, maxRotation: 0 } },
          y: { type: 'linear', min: 0, max: 1, title: { display: true, text: 'weight' } },
        },
      },
    });

    const shapes = testNode('code', 'shapes');
    const rowSumError = testNode('strong', 'row-sum-error');
    const errorLine = document.createElement('span');
    errorLine.append('maximum row-sum error: ', rowSumError);
    const summary = liveReadout('kl-readout kl-map__summary', shapes, document.createElement('br'), errorLine);
    const rowQuery = testNode('strong', 'row-query');
    const rowPrediction = testNode('strong', 'row-prediction');
    const rowReadout = liveReadout('kl-readout', 'query q = ', rowQuery, ': prediction (AV) = ', rowPrediction);
    const rowTable = dataTable('Largest weights of the highlighted query row', ['key index', 'key kᵢ', 'value vᵢ', 'weight']);
    const range = document.createElement('p');
    range.className = 'kl-map__range';

    const bandwidth = bandwidthSlider(params.h, state.h, (h) => update({ h }));
    const typed = typedNumber({ label: 'bandwidth h, typed value', caption: 'type h', value: state.h, onChange: (h) => update({ h }) });

    const countSlider = (label: string, value: number, onInput: (count: number) => void) =>
      slider({ label, spec: COUNT_SPEC, value, format: (x) => String(x), onInput: (x) => onInput(Math.round(x)) });
    const queryCount = countSlider('number of queries m', state.queries, (queries) => update({ queries }));
    const keyCount = countSlider('number of keys n', state.keys, (keys) => update({ keys }));
    const rowSlider = slider({
      label: 'highlighted query row',
      spec: { min: 0, max: state.queries - 1, scale: 'linear', step: 1 },
      value: state.row,
      format: (r) => String(r),
      onInput: (row) => selectRow(row),
    });
    const logToggle = button('Log colour scale', () => update({ scale: state.scale === 'log' ? 'linear' : 'log' }));
    const presets = PRESETS.map((preset) =>
      button(preset.label, () => {
        queryCount.set(preset.queries);
        keyCount.set(preset.keys);
        update({ queries: preset.queries, keys: preset.keys });
      }),
    );

    const mapColumn = document.createElement('div');
    mapColumn.className = 'kl-map__column';
    // The shapes and the row-sum error sit under the map, beside the taller row view.
    mapColumn.append(mapTitle, heatmap.element, range, summary);
    // Until the core answers, every line is there with blanks of about its numbers' widths: their
    // arrival moves nothing (no layout shift).
    setText(mapTitle, `Fixed attention matrix, h = ${fixed(state.h, 2)}`);
    setText(range, pending(state.scale === 'log' ? 'log colour scale: 0.00e-00 to 0.00e-00' : 'linear colour scale: 0.00e-00 to 0.0000'));
    setText(shapes, pending('Q (00, 0), K (00, 0), V (00, 0), A (00, 00), AV (00, 0)'));
    setText(rowSumError, pending('0.00e-00'));
    setText(rowQuery, pending('0.0000'));
    setText(rowPrediction, pending('0.0000'));
    const rowColumn = document.createElement('div');
    rowColumn.className = 'kl-map__column';
    rowColumn.append(rowReadout, barBox, rowTable.element);
    const layout = document.createElement('div');
    layout.className = 'kl-map';
    layout.append(mapColumn, rowColumn);
    host.root.append(
      layout,
      controlRow(bandwidth.element, typed.element),
      controlRow(rowSlider.element, logToggle),
      controlRow(queryCount.element, keyCount.element),
      controlRow(...presets),
    );

    /// The highlighted row: its weights as bars and the largest of them in the table.
    function drawRow(frame: MapFrame): void {
      const r = frame.row;
      const weights = frame.rowWeights;
      heatmap.highlight(r);
      setText(rowQuery, fixed(frame.data.queries[r] ?? Number.NaN, 4));
      setText(rowPrediction, fixed(frame.outputs[r] ?? Number.NaN, 4));
      const order = Array.from(weights.keys())
        .sort((a, b) => (weights[b] ?? 0) - (weights[a] ?? 0))
        .slice(0, LISTED_WEIGHTS);
      rowTable.setRows(
        order.map((i) => [
          String(i),
          fixed(frame.data.keys[i] ?? Number.NaN, 4),
          fixed(frame.data.values[i] ?? Number.NaN, 4),
          fixed(weights[i] ?? Number.NaN, 4),
        ]),
      );
      const top = weights[order[0] ?? 0] ?? 1;
      scheduleFrame(bars, () => {
        const dataset = bars.data.datasets[0];
        if (!dataset) return;
        // 2048 bars would be 0.2 px each and cost a Chart.js element apiece: past MAX_BARS each
        // bar is the largest weight of a group of keys.
        const { labels, points, group } = envelopeBars(weights, MAX_BARS);
        if (bars.data.labels?.length !== labels.length) bars.data.labels = labels;
        const title = bars.options.scales?.x?.title;
        if (title) title.text = group === 1 ? 'key index (sorted)' : `key index (sorted; each bar the largest weight of ${group} keys)`;
        dataset.data = points;
        dataset.backgroundColor = colors.orange;
        const y = bars.options.scales?.y;
        if (y) y.max = top > 0.5 ? 1 : Math.ceil(top * 10) / 10 || 0.1;
      });
    }

    function drawMap(frame: MapFrame): void {
      const keys = frame.data.keys;
      heatmap.draw({
        image: frame.image,
        rows: frame.data.queries.length,
        cols: keys.length,
        scale: frame.scale,
        xTicks: evenTickIndices(keys.length).map((i) => ({ at: i, label: fixed(keys[i] ?? Number.NaN, 1) })),
        yTicks: queryTicks(frame.data.queries),
        trace: frame.data.trace,
        // The chapter's imshow extent spans the first to the last query: the k = q trace runs
        // from edge to edge and the query ticks sit at their values.
        rowsEdgeToEdge: true,
      });
      setText(mapTitle, `Fixed attention matrix, h = ${fixed(frame.h, 2)}`);
      const { low, high, zeros } = frame.image.range;
      setText(
        range,
        frame.scale === 'log'
          ? `log colour scale: ${scientific(low)} to ${scientific(high)}${zeros ? '; grey cells underflowed to exactly 0' : ''}`
          : `linear colour scale: ${scientific(low)} to ${fixed(high, 4)}`,
      );
      drawRow(frame);
    }

    /// Image pixels for `cells` keys or queries along a side the plot shows in `shown` device pixels.
    const imagePixels = (cells: number, shown: number): number => Math.min(cells, shown > 0 ? shown : FIRST_IMAGE_PIXELS);

    async function loadDataset(requested: MapState): Promise<Dataset | null> {
      const size = `${requested.queries}x${requested.keys}`;
      if (dataset?.size === size) return dataset;
      const loaded = await datasetChannel.request([
        call('chapterDataset', { queries: requested.queries, keys: requested.keys }),
      ] as const);
      if (!loaded) return null;
      const [{ keys, queries, observedValues }] = loaded;
      const traced = await datasetChannel.request([call('sortedKeyPosition', queries, keys)] as const);
      if (!traced) return null;
      dataset = { size, queries, keys, values: observedValues, trace: traced[0] };
      return dataset;
    }

    async function compute(requested: MapState): Promise<void> {
      try {
        const data = await loadDataset(requested);
        if (!data) return;
        const m = data.queries.length;
        const n = data.keys.length;
        const shown = heatmap.devicePixels;
        const row = Math.min(requested.row, m - 1);
        const view = {
          scale: requested.scale,
          row,
          width: imagePixels(n, shown.width),
          height: imagePixels(m, shown.height),
          palette: heatmap.paletteBytes(),
        };
        const result = await mapChannel.request([
          call('attentionMap', data.queries, data.keys, data.values, 1, 1, requested.h, view),
        ] as const);
        if (!result) return;
        const [map] = result;
        host.clearError();
        const frame: MapFrame = {
          data,
          h: requested.h,
          scale: requested.scale,
          image: { pixels: map.image, width: map.width, height: map.height, range: { low: map.low, high: map.high, zeros: map.zeros } },
          outputs: map.outputs,
          rowSumError: map.maxRowSumError,
          row,
          rowWeights: map.rowWeights,
        };
        last = frame;
        setText(shapes, `Q ${shape(data.queries, 1)}, K ${shape(data.keys, 1)}, V ${shape(data.values, 1)}, A (${m}, ${n}), AV ${shape(map.outputs, 1)}`);
        setText(rowSumError, scientific(frame.rowSumError));
        drawMap(frame);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // An empty or unreadable typed h is no number at all: say so instead of "h = NaN".
        const text = typed.input.value.trim();
        if (Number.isNaN(requested.h)) host.showError(text === '' ? 'h is empty: type a positive bandwidth.' : `h = “${text.slice(0, 40)}” is not a number: type a positive bandwidth.`);
        else host.showError(`h = ${String(requested.h)} is refused: ${message}`);
      }
    }

    /// A newly highlighted row of the drawn map: its weights alone (one query against the keys).
    async function computeRow(frame: MapFrame, row: number): Promise<void> {
      const query = frame.data.queries.subarray(row, row + 1);
      const result = await rowChannel.request([call('attention', query, frame.data.keys, frame.data.values, 1, 1, frame.h)] as const);
      if (!result || last !== frame || state.row !== row) return;
      const [{ weights }] = result;
      last = { ...frame, row, rowWeights: weights };
      drawRow(last);
    }

    function selectRow(row: number): void {
      const rows = last?.data.queries.length ?? state.queries;
      const r = Math.min(Math.max(Math.round(row), 0), rows - 1);
      if (r === state.row) return;
      state = { ...state, row: r };
      host.setState({ row: r });
      rowSlider.set(r);
      if (last) void computeRow(last, r);
    }

    function update(partial: Partial<MapState>): void {
      state = { ...state, ...partial };
      if (state.row > state.queries - 1) state = { ...state, row: state.queries - 1 };
      host.setState({ ...partial, row: state.row });
      if (partial.h !== undefined && Number.isFinite(partial.h)) {
        if (partial.h > 0) bandwidth.set(partial.h);
        typed.set(partial.h);
      }
      rowSlider.input.max = String(state.queries - 1);
      rowSlider.set(state.row);
      logToggle.setAttribute('aria-pressed', String(state.scale === 'log'));
      void compute(state);
    }

    heatmap.plot.addEventListener('pointermove', (event) => {
      const row = heatmap.rowAt(event.clientY);
      if (row !== null) selectRow(row);
    });
    heatmap.plot.addEventListener('pointerdown', (event) => {
      const row = heatmap.rowAt(event.clientY);
      if (row !== null) selectRow(row);
    });

    // The core colours the map: a new theme's grey for exact zeros is a new request.
    const stopTheme = onThemeChange((next: Palette) => {
      colors = next;
      if (last) void compute(state);
    });
    // A plot laid out larger (or smaller) than the image it shows asks for an image of its size.
    heatmap.onResize = () => {
      const frame = last;
      if (!frame) return;
      const shown = heatmap.devicePixels;
      const width = imagePixels(frame.data.keys.length, shown.width);
      const height = imagePixels(frame.data.queries.length, shown.height);
      if (width !== frame.image.width || height !== frame.image.height) void compute(state);
    };
    logToggle.setAttribute('aria-pressed', String(state.scale === 'log'));
    void compute(state);
    return {
      destroy() {
        stopTheme();
        bars.destroy();
        heatmap.destroy();
      },
    };
  },
});
