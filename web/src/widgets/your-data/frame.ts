/// What the your-data figure asks the core for one table at one (h, q, kernel), and the numbers it
/// gets back: the leave-one-out curve over the bandwidth grid (once per table and kernel), the
/// fitted values and the leave-one-out error at h in one pass over the keys (never an n × n
/// matrix), the attention map's first rows, and the curve and the prediction (1-D keys).
import { call, keeping, type CoreResults, type CsvTable, type KernelName } from '../../engine';
import type { ExportTable } from '../../ui/host/widget';
import { paddedRange } from './view';

const CURVE_POINTS = 241;
export const BANDWIDTH_POINTS = 25;
/// The attention map draws at most this many query rows (the first data points); columns are all keys.
/// Its CSV download holds the same rows: a 5,000-row table's full matrix would be 25 million numbers.
const MAP_ROWS = 200;

/// Where the figure is asked for: bandwidth, query and kernel.
export interface Setting {
  h: number;
  q: number;
  kernel: KernelName;
}

/// The leave-one-out errors over the bandwidth grid depend on the table and the kernel only: kept,
/// so moving h or q asks for the error at h alone.
export interface LooGrid {
  table: CsvTable;
  kernel: KernelName;
  bandwidths: number[];
  errors: Float64Array;
}

/// One request: the table and setting it is for, and what its answer is drawn on.
export interface Asked extends Setting {
  table: CsvTable;
  bandwidths: number[];
  /// The grid's errors when they are already known (then not asked again).
  cached: LooGrid | null;
  mapRows: number;
  grid: number[];
}

/// The core's numbers behind one drawing of the figure.
export interface Frame extends Setting {
  table: CsvTable;
  /// The plotted bandwidth grid; `errors` holds its leave-one-out errors, then the error at h.
  bandwidths: number[];
  errors: Float64Array;
  /// f̂ at every key, (n).
  fitted: Float64Array;
  /// The first `mapRows` rows of the weight matrix, (mapRows, n).
  mapRows: number;
  mapWeights: Float64Array;
  /// The smoothing curve on `grid` and the prediction at q (1-D keys; null and NaN otherwise).
  grid: number[];
  curve: Float64Array | null;
  prediction: number;
}

function logGrid(low: number, high: number, count: number): number[] {
  const step = Math.log(high / low) / (count - 1);
  return Array.from({ length: count }, (_, i) => Number((low * Math.exp(i * step)).toPrecision(3)));
}

/// The largest spread of any key column: sets the span of the plotted bandwidths.
function keySpread(table: CsvTable): number {
  let spread = 0;
  for (let c = 0; c < table.d; c++) {
    const column = Array.from({ length: table.n }, (_, r) => table.keys[r * table.d + c] ?? 0);
    spread = Math.max(spread, Math.max(...column) - Math.min(...column));
  }
  return spread > 0 ? spread : 1;
}

/// The request for `table` at `setting`; `kept` is the grid of an earlier answer, used when it
/// belongs to the same table and kernel.
export function askFor(table: CsvTable, setting: Setting, kept: LooGrid | null): Asked {
  const cached = kept && kept.table === table && kept.kernel === setting.kernel ? kept : null;
  const spread = keySpread(table);
  const range = paddedRange(table.keys);
  return {
    ...setting,
    table,
    cached,
    bandwidths: cached?.bandwidths ?? logGrid(spread / 500, spread * 2, BANDWIDTH_POINTS),
    mapRows: Math.min(table.n, MAP_ROWS),
    grid: Array.from({ length: CURVE_POINTS }, (_, i) => range.min + ((range.max - range.min) * i) / (CURVE_POINTS - 1)),
  };
}

/// The calls of one request, in one list: the fit and the map, then the curve and the prediction
/// (1-D keys), then the grid's errors (when not cached).
export function frameCalls(asked: Asked) {
  const { d, keys, values } = asked.table;
  const { h, q, kernel, mapRows } = asked;
  const fit = [call('looFit', keys, values, d, h, kernel), call('attention', keys.subarray(0, mapRows * d), keys, values, d, 1, h, kernel, 'nearest')] as const;
  const curve =
    d === 1
      ? ([
          keeping(call('attention', asked.grid, keys, values, 1, 1, h, kernel, 'nearest'), 'outputs'),
          keeping(call('attention', [q], keys, values, 1, 1, h, kernel, 'nearest'), 'outputs'),
        ] as const)
      : ([] as const);
  const grid = asked.cached ? ([] as const) : ([call('looCurve', keys, values, d, asked.bandwidths, kernel)] as const);
  return [...fit, ...curve, ...grid] as const;
}

export type FrameResults = CoreResults<ReturnType<typeof frameCalls>>;

/// The answer to `asked` as one frame, and the grid to keep for the next request.
export function frameOf(results: FrameResults, asked: Asked): { frame: Frame; kept: LooGrid } {
  const [fit, map] = results;
  let curve: Float64Array | null = null;
  let prediction = Number.NaN;
  let gridErrors = asked.cached?.errors ?? new Float64Array(asked.bandwidths.length).fill(Number.NaN);
  if (results.length === 5 || results.length === 4) {
    curve = results[2].outputs;
    prediction = results[3].outputs[0] ?? Number.NaN;
  }
  if (results.length === 5) gridErrors = results[4];
  if (results.length === 3) gridErrors = results[2];
  const { table, bandwidths, h, q, kernel, mapRows, grid } = asked;
  const errors = new Float64Array(bandwidths.length + 1);
  errors.set(gridErrors, 0);
  errors[bandwidths.length] = fit.mse;
  const kept = { table, kernel, bandwidths, errors: errors.subarray(0, bandwidths.length) };
  return { frame: { table, h, q, kernel, bandwidths, errors, fitted: fit.fitted, mapRows, mapWeights: map.weights, grid, curve, prediction }, kept };
}

/// The figure's downloads, from the frame on screen.
export function frameTables(shown: () => Frame | null): ExportTable[] {
  return [
    {
      name: 'data and fitted values',
      csv: () => {
        const frame = shown();
        if (!frame) return [];
        const { d, n, keys, values, header } = frame.table;
        return [
          [...header, 'fitted', 'h', 'kernel'],
          ...Array.from({ length: n }, (_, r) => [...keys.subarray(r * d, (r + 1) * d), values[r] ?? null, frame.fitted[r] ?? null, frame.h, frame.kernel]),
        ];
      },
    },
    {
      name: 'leave-one-out curve',
      csv: () => {
        const frame = shown();
        return frame ? [['h', 'leave-one-out MSE'], ...frame.bandwidths.map((b, i) => [b, frame.errors[i] ?? null])] : [];
      },
    },
    {
      name: 'attention matrix',
      csv: () => {
        const frame = shown();
        if (!frame) return [];
        const n = frame.table.n;
        return [
          ['query row / key row', ...Array.from({ length: n }, (_, c) => c + 1)],
          ...Array.from({ length: frame.mapRows }, (_, r) => [r + 1, ...frame.mapWeights.subarray(r * n, (r + 1) * n)]),
        ];
      },
    },
  ];
}
