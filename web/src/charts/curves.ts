/// Curves and marker sets drawn straight from arrays (a dense curve is not 601 Chart.js point
/// elements to place, style and draw on every frame of a drag), and the in-place dataset edits
/// that keep Chart.js' controllers from being rebuilt on every frame.
import type { AnyChart } from './adapter';
import type { Chart, ChartType, Plugin } from 'chart.js';
import { dashOf, ink } from './ink';
import { curvesDrawn } from './layers';

/// A curve given as two arrays (x in increasing order, y), drawn by `curveLayer` straight from
/// the arrays: a dense curve (601 queries) would otherwise be 601 Chart.js point elements to
/// place, style and draw on every frame of a drag. The same two arrays also give the markers of
/// a `pointsDataset`.
export interface CurveArrays {
  xs: ArrayLike<number>;
  ys: ArrayLike<number>;
}

type ArrayDataset = {
  klCurve?: CurveArrays;
  klPoints?: CurveArrays;
  borderColor?: unknown;
  borderWidth?: unknown;
  borderDash?: unknown;
  backgroundColor?: unknown;
  pointRadius?: unknown;
};

/// Dataset fields that are not its style: its data, label and arrays.
const ARRAY_FIELDS = new Set(['data', 'label', 'klCurve', 'klPoints']);

/// A dataset drawn by `curveLayer`: it holds no points (its legend entry and its place in the
/// dataset list are Chart.js' as usual), its line is the arrays' polyline in `look`'s colour,
/// width and dash.
export function curveDataset<T extends object>(look: T, curve: CurveArrays): T & { data: never[] } {
  return { ...look, data: [], klCurve: curve };
}

/// A dataset of markers drawn by `curveLayer`: a filled circle of radius `pointRadius` (3 by
/// default) in `backgroundColor` at each finite (x, y), drawn above every curve (as the chapter's
/// scatter, zorder 3, sits above its lines).
export function pointsDataset<T extends object>(look: T, points: CurveArrays): T & { data: never[] } {
  return { ...look, data: [], klPoints: points };
}

/// The visible array datasets of a chart in drawing order: the curves in dataset order, then the
/// marker sets in dataset order.
export function curveLooks(chart: AnyChart): CurveLook[] {
  const curves: CurveLook[] = [];
  const markers: CurveLook[] = [];
  chart.data.datasets.forEach((dataset, index) => {
    const { klCurve, klPoints, borderColor, borderWidth, borderDash, backgroundColor, pointRadius } = dataset as ArrayDataset;
    if (!chart.isDatasetVisible(index)) return;
    if (klCurve) curves.push({ curve: klCurve, markers: false, color: borderColor, width: borderWidth, dash: borderDash });
    else if (klPoints) markers.push({ curve: klPoints, markers: true, color: backgroundColor, width: pointRadius, dash: undefined });
  });
  return [...curves, ...markers];
}

/// Equal field values: the same value, or arrays and plain objects (a dash pattern built afresh
/// on every frame) with the same JSON. Two different functions are never equal.
const sameValue = (a: unknown, b: unknown): boolean =>
  Object.is(a, b) || (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && JSON.stringify(a) === JSON.stringify(b));

export const sameLook = (a: CurveLook, b: CurveLook | undefined): boolean =>
  b !== undefined &&
  a.markers === b.markers &&
  a.curve.xs === b.curve.xs &&
  a.curve.ys === b.curve.ys &&
  a.color === b.color &&
  a.width === b.width &&
  sameValue(a.dash, b.dash);

/// Strokes the curves and fills the markers, clipped to the plot area. A non-finite y breaks a
/// line and has no marker.
export function drawCurves(chart: AnyChart, looks: readonly CurveLook[]): void {
  const { ctx, chartArea: area } = chart;
  const x = chart.scales.x;
  const y = chart.scales.y;
  if (!x || !y || looks.length === 0) return;
  ctx.save();
  ctx.beginPath();
  ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
  ctx.clip();
  ctx.lineJoin = 'round';
  for (const { curve, markers, color, width, dash } of looks) {
    const n = Math.min(curve.xs.length, curve.ys.length);
    const stroke = ink(chart, color);
    if (markers) {
      // One path per marker: overlapping markers darken, as separately drawn scatter markers do.
      const radius = typeof width === 'number' ? width : 3;
      ctx.fillStyle = stroke;
      for (let i = 0; i < n; i++) {
        const xv = curve.xs[i] as number;
        const yv = curve.ys[i] as number;
        if (!Number.isFinite(xv) || !Number.isFinite(yv)) continue;
        ctx.beginPath();
        ctx.arc(x.getPixelForValue(xv), y.getPixelForValue(yv), radius, 0, 2 * Math.PI);
        ctx.fill();
      }
      continue;
    }
    ctx.strokeStyle = stroke;
    ctx.lineWidth = typeof width === 'number' ? width : 1.5;
    ctx.setLineDash(dashOf(dash));
    ctx.beginPath();
    const px = new Float64Array(n);
    const py = new Float64Array(n);
    const tolerance = SIMPLIFY_PIXELS / (chart.currentDevicePixelRatio || 1);
    let start = 0;
    for (let i = 0; i <= n; i++) {
      const xv = i < n ? (curve.xs[i] as number) : Number.NaN;
      const yv = i < n ? (curve.ys[i] as number) : Number.NaN;
      if (Number.isFinite(xv) && Number.isFinite(yv)) {
        px[i] = x.getPixelForValue(xv);
        py[i] = y.getPixelForValue(yv);
        continue;
      }
      // A run of finite points ends here: its simplified polyline.
      if (i > start) {
        const keep = simplifiedRun(px, py, start, i - 1, tolerance);
        ctx.moveTo(px[start] as number, py[start] as number);
        for (let k = start + 1; k < i; k++) if (keep[k - start]) ctx.lineTo(px[k] as number, py[k] as number);
      }
      start = i + 1;
    }
    ctx.stroke();
  }
  ctx.restore();
}

/// A dense curve's polyline is drawn with the vertices that matter at screen resolution: those
/// whose removal would move the line by more than this many device pixels stay (matplotlib
/// simplifies its paths the same way, `path.simplify_threshold` = 1/9 px). A 601-point curve
/// keeps a fraction of its vertices where it is smooth and all of them where it is not, and
/// strokes several times faster.
const SIMPLIFY_PIXELS = 1 / 9;

/// Douglas–Peucker on points first…last: which to keep (indexed from `first`), so that every
/// dropped point lies within `tolerance` of the kept polyline. The ends are always kept.
function simplifiedRun(px: Float64Array, py: Float64Array, first: number, last: number, tolerance: number): Uint8Array {
  const keep = new Uint8Array(last - first + 1);
  keep[0] = 1;
  keep[last - first] = 1;
  const stack = [first, last];
  while (stack.length > 0) {
    const b = stack.pop() as number;
    const a = stack.pop() as number;
    if (b - a < 2) continue;
    const ax = px[a] as number;
    const ay = py[a] as number;
    const dx = (px[b] as number) - ax;
    const dy = (py[b] as number) - ay;
    const length = Math.hypot(dx, dy);
    let worst = -1;
    let far = 0;
    for (let i = a + 1; i < b; i++) {
      const ex = (px[i] as number) - ax;
      const ey = (py[i] as number) - ay;
      // Distance to the chord (to the point a when the chord has no length).
      const distance = length > 0 ? Math.abs(ex * dy - ey * dx) / length : Math.hypot(ex, ey);
      if (distance > far) {
        far = distance;
        worst = i;
      }
    }
    if (worst < 0 || far <= tolerance) continue;
    keep[worst - first] = 1;
    stack.push(a, worst, worst, b);
  }
  return keep;
}

/// Draws the `curveDataset`s and `pointsDataset`s of a chart below its other datasets, in
/// drawing order (over a backdrop picture, only those the picture does not hold).
export const curveLayer: Plugin = {
  id: 'klCurveLayer',
  beforeDatasetsDraw(chart) {
    drawCurves(chart, curveLooks(chart).slice(curvesDrawn(chart)));
  },
};

/// Each dataset's own fields but its data and label (its style: colours, widths, the arrays'
/// look), and whether every dataset is an array dataset. A chart of array datasets only has no
/// Chart.js elements to update: while their styles stay, a frame only draws.
export function datasetStyles(chart: AnyChart): { styles: Record<string, unknown>[]; arraysOnly: boolean } {
  const styles: Record<string, unknown>[] = [];
  let arraysOnly = true;
  for (const dataset of chart.data.datasets) {
    const arrays = dataset as ArrayDataset;
    if ((!arrays.klCurve && !arrays.klPoints) || !Array.isArray(dataset.data) || dataset.data.length > 0) arraysOnly = false;
    const own: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(dataset)) if (!ARRAY_FIELDS.has(name)) own[name] = value;
    styles.push(own);
  }
  return { styles, arraysOnly };
}

export const sameFields = (a: readonly Record<string, unknown>[], b: readonly Record<string, unknown>[] | undefined): boolean =>
  b !== undefined &&
  a.length === b.length &&
  a.every((fields, i) => {
    const other = b[i] as Record<string, unknown>;
    const names = Object.keys(fields);
    return names.length === Object.keys(other).length && names.every((name) => sameValue(fields[name], other[name]));
  });

/// What a painted array dataset looked like: its arrays and its line (or, for markers, their
/// fill colour and radius in `color` and `width`).
export interface CurveLook {
  curve: CurveArrays;
  markers: boolean;
  color: unknown;
  width: unknown;
  dash: unknown;
}

/// Makes the chart's datasets match `looks` by editing the existing dataset objects in place
/// (and adding or dropping the difference), so an update moves elements instead of rebuilding
/// the datasets' controllers on every frame of a drag.
export function setDatasets<T extends ChartType>(chart: Chart<T>, looks: readonly Chart<T>['data']['datasets'][number][]): void {
  const datasets = chart.data.datasets;
  looks.forEach((look, i) => {
    const dataset = datasets[i];
    if (dataset) Object.assign(dataset, look);
    else datasets.push(look);
  });
  datasets.length = looks.length;
}
