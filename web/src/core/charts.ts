/// Chart.js with only the parts the figures use, shared defaults (no animation, no parsing,
/// fixed scales), theme-aware colours read from CSS variables, and one update per frame.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Ticks,
  Title,
  type ChartConfiguration,
  type ChartType,
  type FontSpec,
  type Plugin,
  type Scale,
  type Tick,
} from 'chart.js';
import { drawPoint, toFont } from 'chart.js/helpers';
import { sharedBridge } from './bridge';
import { fixed } from './format';
import { markTiming, timingEnabled } from './timing';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LogarithmicScale,
  LineController,
  LineElement,
  PointElement,
  ScatterController,
  Legend,
  Title,
);

export { Chart };

/// Linear axes label zero with the decimals of their other ticks, as matplotlib does ("0.0"
/// under "0.5"; Chart.js' own formatter writes a bare "0"), and negatives with a minus sign.
Chart.defaults.scales.linear.ticks.callback = function (this: Scale, value: number | string, index: number, ticks: Tick[]) {
  // A true minus sign, as matplotlib's tick labels and the figures' read-outs print it.
  const label = Ticks.formatters.numeric.call(this, Number(value), index, ticks).replace('-', '−');
  const neighbour = index === 0 ? 1 : index - 1;
  const other = ticks[neighbour];
  if (value !== 0 || !other) return label;
  // Chart.js formats with Intl in the chart's locale: its decimal mark, not a grouping comma.
  const point = new Intl.NumberFormat(this.chart.options.locale).formatToParts(0.5).find((part) => part.type === 'decimal')?.value ?? '.';
  const [, fraction = ''] = Ticks.formatters.numeric.call(this, other.value, neighbour, ticks).split(point);
  const digits = /^\d*/.exec(fraction)?.[0].length ?? 0;
  return digits > 0 ? `0${point}${'0'.repeat(digits)}` : label;
};

/// The chapter's palette plus the theme's ink, resolved from the CSS variables in styles.css.
export interface Palette {
  text: string;
  muted: string;
  grid: string;
  background: string;
  navy: string;
  orange: string;
  brown: string;
  grey: string;
  truth: string;
  sample: string;
  /// Okabe–Ito colours for curve series (the chapter's 0.05 / 0.18 / 0.65 curves first).
  series: string[];
}

function cssVariable(style: CSSStyleDeclaration, name: string, fallback: string): string {
  return style.getPropertyValue(name).trim() || fallback;
}

/// The element whose computed CSS variables give the theme: the document by default, a figure's
/// container inside a <kernel-lens-figure> shadow root (where :host carries the variables).
let themeSource: Element | null = null;

export function setThemeSource(element: Element): void {
  themeSource = element;
}

const themeElement = (): Element => (themeSource?.isConnected ? themeSource : document.documentElement);

/// Palettes read so far, per theme element; emptied when the colour scheme flips. Reading
/// computed styles in the middle of a frame's drawing would make the browser recompute styles.
let palettes = new WeakMap<Element, Palette>();

export function palette(): Palette {
  const element = themeElement();
  let colors = palettes.get(element);
  if (!colors) {
    colors = readPalette(element);
    palettes.set(element, colors);
  }
  return colors;
}

function readPalette(element: Element): Palette {
  const style = getComputedStyle(element);
  const v = (name: string, fallback: string): string => cssVariable(style, name, fallback);
  return {
    text: v('--kl-text', '#1d2333'),
    muted: v('--kl-muted', '#5b6272'),
    grid: v('--kl-grid', 'rgba(0,0,0,0.1)'),
    background: v('--kl-surface', '#ffffff'),
    navy: v('--kl-navy', '#232D4B'),
    orange: v('--kl-orange', '#E57200'),
    brown: v('--kl-brown', '#B45309'),
    grey: v('--kl-grey', '#B0B7C3'),
    truth: v('--kl-truth', '#000000'),
    sample: v('--kl-sample', '#555555'),
    series: [1, 2, 3, 4, 5, 6].map((i) => v(`--kl-series-${i}`, '#0072B2')),
  };
}

/// `#rrggbb` (or any CSS colour) with an alpha, for Chart.js.
export function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (!hex?.[1]) return color;
  const n = parseInt(hex[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha.toFixed(3)})`;
}

const themeQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
// Registered before any figure's listener, so figures redraw with the new scheme's colours.
themeQuery?.addEventListener('change', () => {
  palettes = new WeakMap();
  // The inks Chart.js falls back on (axis and legend texts, grid lines) follow the scheme; each
  // axis gets them too, as Chart.js copied the old ones into its options when it made the chart;
  // and every chart's next redraw is a full update (which also paints its backdrop again), since
  // the data-only redraw would keep the options resolved in the old scheme. Figures only give
  // their datasets the new colours.
  const colors = palette();
  Chart.defaults.color = colors.text;
  Chart.defaults.borderColor = colors.grid;
  for (const instance of Object.values(Chart.instances)) {
    const chart = instance as unknown as Chart;
    recolorAxes(chart, colors);
    laidOut.delete(chart);
  }
});

/// Calls `redraw` whenever the colour scheme flips; returns the unsubscriber.
export function onThemeChange(redraw: (colors: Palette) => void): () => void {
  const listener = (): void => redraw(palette());
  themeQuery?.addEventListener('change', listener);
  return () => themeQuery?.removeEventListener('change', listener);
}

/// A sized box with a canvas that has `role="img"` and an accessible label.
export function chartCanvas(label: string, className = 'kl-chart'): { box: HTMLDivElement; canvas: HTMLCanvasElement } {
  const box = document.createElement('div');
  box.className = className;
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  box.append(canvas);
  return { box, canvas };
}

/// A chart with the shared defaults: no animation, pre-parsed data, responsive to its box.
export function createChart<T extends ChartType>(
  canvas: HTMLCanvasElement,
  config: ChartConfiguration<T>,
): Chart<T> {
  const colors = palette();
  Chart.defaults.color = colors.text;
  Chart.defaults.borderColor = colors.grid;
  Chart.defaults.font.family = getComputedStyle(themeElement()).fontFamily;
  const options = {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    parsing: false,
    events: [],
    ...config.options,
    plugins: { legend: { display: false }, ...config.options?.plugins },
  };
  // An opaque canvas: the compositor copies it instead of blending it over the page, and its
  // pixels need no alpha. Chart.js takes this context (getContext returns the first one made);
  // `surface` paints the background it would otherwise leave transparent.
  canvas.getContext('2d', { alpha: false });
  const chart = new Chart(canvas, {
    ...config,
    options,
    plugins: [surface, starMarkers, legendHandles, tickMarksLayer, ...(config.plugins ?? [])],
  } as ChartConfiguration<T>);
  if (!chart.attached) {
    // Chart.js would size and draw every chart of a figure in the task that adds the figure to
    // the page; each chart's first layout and draw gets a task of its own instead.
    chart.unbindEvents();
    queueAttach(chart as unknown as Chart);
  }
  return chart;
}

/// A chart's backdrop: its axes, grid, tick labels and titles (everything but the datasets and
/// the legend), kept as a picture while the layout stays, so a frame of a drag draws the picture
/// and the datasets instead of every axis again.
interface Backdrop {
  picture: HTMLCanvasElement | null;
  /// Set after any Chart.js update (a new layout or colour scheme); the next fast redraw paints
  /// the picture again.
  stale: boolean;
  /// A picture is being painted: the datasets and the legend are left out.
  painting: boolean;
  /// The next draw may use the picture (set by `updateData`, for one draw).
  use: boolean;
  /// The leading `curveDataset`s painted into the picture (a drag changes one curve: those
  /// below it stay in the picture, it and those above are drawn on every frame).
  curves: CurveLook[];
  /// The draw in progress stands on the picture.
  over: boolean;
}

/// What a painted array dataset looked like: its arrays and its line (or, for markers, their
/// fill colour and radius in `color` and `width`).
interface CurveLook {
  curve: CurveArrays;
  markers: boolean;
  color: unknown;
  width: unknown;
  dash: unknown;
}

const backdrops = new WeakMap<Chart, Backdrop>();

const backdropOf = (chart: Chart): Backdrop => {
  let backdrop = backdrops.get(chart);
  if (!backdrop) {
    backdrop = { picture: null, stale: true, painting: false, use: false, curves: [], over: false };
    backdrops.set(chart, backdrop);
  }
  return backdrop;
};

interface ChartInternals {
  _drawDatasets?: () => void;
  legend?: { draw?: (area?: unknown) => void };
}

/// Fills an opaque chart's canvas with the theme's surface colour, and on the frames of a drag
/// draws the backdrop's picture, the legend and the datasets in place of Chart.js' full draw.
const surface: Plugin = {
  id: 'klSurface',
  afterUpdate(chart) {
    backdropOf(chart as unknown as Chart).stale = true;
    // A full update brought every element up to date with fields not recorded here.
    updatedFields.delete(chart as unknown as Chart);
  },
  beforeDraw(chart) {
    const { ctx, canvas } = chart;
    const backdrop = backdropOf(chart as unknown as Chart);
    const picture = backdrop.picture;
    const internals = chart as unknown as ChartInternals;
    // `updateData` painted the picture again if the layout or the colour scheme changed.
    const usable =
      backdrop.use &&
      !backdrop.stale &&
      picture !== null &&
      picture.width === canvas.width &&
      picture.height === canvas.height &&
      typeof internals._drawDatasets === 'function';
    backdrop.use = false;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (!usable) {
      ctx.fillStyle = palette().background;
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.restore();
      return;
    }
    ctx.drawImage(picture, 0, 0);
    ctx.restore();
    internals.legend?.draw?.(chart.chartArea);
    backdrop.over = true;
    try {
      internals._drawDatasets?.();
    } finally {
      backdrop.over = false;
    }
    chart.notifyPlugins('afterDraw');
    return false;
  },
  beforeDatasetsDraw(chart) {
    if (backdropOf(chart as unknown as Chart).painting) return false;
  },
};

/// Paints the backdrop's picture of `chart`: a draw without the datasets and the legend, with
/// its first `curves` curve datasets, copied.
function paintBackdrop(chart: Chart, curves: number): void {
  const backdrop = backdropOf(chart);
  const legend = (chart as unknown as ChartInternals).legend;
  const legendDraw = legend?.draw;
  backdrop.painting = true;
  if (legend && legendDraw) legend.draw = () => undefined;
  try {
    chart.draw();
  } finally {
    backdrop.painting = false;
    if (legend && legendDraw) legend.draw = legendDraw;
  }
  const looks = curveLooks(chart).slice(0, curves);
  drawCurves(chart, looks);
  backdrop.curves = looks;
  const picture = backdrop.picture ?? document.createElement('canvas');
  picture.width = chart.canvas.width;
  picture.height = chart.canvas.height;
  picture.getContext('2d')?.drawImage(chart.canvas, 0, 0);
  backdrop.picture = picture;
  backdrop.stale = false;
}

/// Charts created detached, waiting to be attached once their canvas is in the page, with the
/// frames each may still wait (a canvas that never arrives stops being watched).
const waiting = new Map<Chart, number>();
let attachPending = false;

function queueAttach(chart: Chart): void {
  waiting.set(chart, 600);
  scheduleAttach(false);
}

function scheduleAttach(nextFrame: boolean): void {
  if (attachPending || waiting.size === 0) return;
  attachPending = true;
  const run = (): void => {
    attachPending = false;
    attachOne();
  };
  if (nextFrame) requestAnimationFrame(() => setTimeout(run, 0));
  else setTimeout(run, 0);
}

/// Attaches one connected chart (it sizes itself, draws, and from then on follows its box);
/// binding again also covers canvases inside a shadow root (<kernel-lens-figure>), which
/// Chart.js' document-wide MutationObserver never sees.
function attachOne(): void {
  let attachedOne = false;
  for (const [chart, framesLeft] of waiting) {
    if (!chart.canvas || chart.attached || framesLeft <= 0) {
      waiting.delete(chart);
    } else if (!attachedOne && chart.canvas.isConnected) {
      waiting.delete(chart);
      chart.bindEvents();
      attachedOne = true;
    } else if (!attachedOne) {
      waiting.set(chart, framesLeft - 1);
    }
  }
  scheduleAttach(!attachedOne);
}

/// Bar values in Chart.js' pre-parsed form ({ x: category index, y: value }).
export function barPoints(values: ArrayLike<number>): number[] {
  return Array.from(values, (y, x) => ({ x, y })) as unknown as number[];
}

/// Options of a weight bar chart: y from 0 to `max` with ticks every `step` up to 1.
export interface WeightBarOptions {
  labels?: string[];
  datasets?: ChartConfiguration<'bar'>['data']['datasets'];
  /// A legend below the chart (several datasets side by side).
  legend?: boolean;
  max?: number;
  step?: number;
  title?: string;
  /// A title above the chart (matplotlib's axes title).
  heading?: string;
  /// The x axis: its title and how many key ticks it may show.
  xTitle?: string;
  xTicks?: number;
  /// The datasets whose bar values are printed (4 decimals) above the bars: all by default.
  printed?: readonly number[];
  plugins?: Plugin<'bar'>[];
}

/// Weight-axis tick labels with `digits` decimals, none above 1 (the axis runs a little past 1 so
/// that a bar of weight 1 has room for its printed value).
export const weightTick = (digits: number) => (value: number | string): string =>
  Number(value) <= 1 ? fixed(Number(value), digits) : '';

/// A bar chart of weights in [0, 1] (the shared look of the lookup, temperature, ties and
/// underflow figures): fixed y range, ticks hidden above 1, the values printed above the bars.
export function weightBarChart(canvas: HTMLCanvasElement, options: WeightBarOptions = {}): Chart<'bar'> {
  const { labels = [], datasets = [], legend = false, max = 1.05, step = 0.2, title = 'weight', heading, xTitle, xTicks, printed, plugins = [] } = options;
  const digits = step < 0.1 || Math.round(step * 10) !== step * 10 ? 2 : 1;
  return createChart<'bar'>(canvas, {
    type: 'bar',
    data: { labels, datasets },
    options: {
      plugins: {
        ...(legend ? { legend: { display: true, position: 'bottom' as const } } : {}),
        ...(heading ? { title: { display: true, text: heading } } : {}),
      },
      scales: {
        x: {
          type: 'category',
          ...(xTitle ? { title: { display: true, text: xTitle } } : {}),
          ...(xTicks ? { ticks: { maxTicksLimit: xTicks, maxRotation: 0 } } : {}),
        },
        y: {
          type: 'linear',
          min: 0,
          max,
          title: { display: true, text: title },
          ticks: { stepSize: step, callback: weightTick(digits) },
        },
      },
    },
    plugins: printed?.length === 0 ? plugins : [barValueLabels((w) => fixed(w, 4), printed), ...plugins],
  });
}

/// A curve given as two arrays (x in increasing order, y), drawn by `curveLayer` straight from
/// the arrays: a dense curve (601 queries) would otherwise be 601 Chart.js point elements to
/// place, style and draw on every frame of a drag. The same two arrays also give the markers of
/// a `pointsDataset`.
export interface CurveArrays {
  xs: ArrayLike<number>;
  ys: ArrayLike<number>;
}

/// A colour field (a dataset's or an axis') as a canvas ink: a colour string, else `fallback`
/// (the theme's text colour).
const ink = (value: unknown, fallback?: string): string => (typeof value === 'string' ? value : (fallback ?? palette().text));

/// A dataset dash field as a canvas dash pattern (none unless it is an array).
const dashOf = (value: unknown): number[] => (Array.isArray(value) ? (value as number[]) : []);

type ArrayDataset = {
  klCurve?: CurveArrays;
  klPoints?: CurveArrays;
  borderColor?: unknown;
  borderWidth?: unknown;
  borderDash?: unknown;
  backgroundColor?: unknown;
  pointRadius?: unknown;
};

/// Dataset fields `curveLayer` reads its drawing from; the rest is Chart.js' (legend entry).
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
function curveLooks(chart: Chart): CurveLook[] {
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

const sameLook = (a: CurveLook, b: CurveLook | undefined): boolean =>
  b !== undefined &&
  a.markers === b.markers &&
  a.curve.xs === b.curve.xs &&
  a.curve.ys === b.curve.ys &&
  a.color === b.color &&
  a.width === b.width &&
  sameValue(a.dash, b.dash);

/// Strokes the curves and fills the markers, clipped to the plot area. A non-finite y breaks a
/// line and has no marker.
function drawCurves(chart: Chart, looks: readonly CurveLook[]): void {
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
    const stroke = ink(color);
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
    const backdrop = backdrops.get(chart as unknown as Chart);
    const painted = backdrop?.over ? backdrop.curves.length : 0;
    drawCurves(chart as unknown as Chart, curveLooks(chart as unknown as Chart).slice(painted));
  },
};

/// A chart whose datasets are all array datasets has no Chart.js elements to update: when none
/// of their Chart.js fields changed but the label (a legend entry's text), a frame only draws.
/// Returns the datasets' fields as they are now when that holds for every dataset, else null.
function arrayOnlyFields(chart: Chart): Record<string, unknown>[] | null {
  const fields: Record<string, unknown>[] = [];
  for (const dataset of chart.data.datasets) {
    const arrays = dataset as ArrayDataset;
    if (!arrays.klCurve && !arrays.klPoints) return null;
    if (!Array.isArray(dataset.data) || dataset.data.length > 0) return null;
    const own: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(dataset)) if (!ARRAY_FIELDS.has(name)) own[name] = value;
    fields.push(own);
  }
  return fields;
}

const sameFields = (a: readonly Record<string, unknown>[], b: readonly Record<string, unknown>[] | undefined): boolean =>
  b !== undefined &&
  a.length === b.length &&
  a.every((fields, i) => {
    const other = b[i] as Record<string, unknown>;
    const names = Object.keys(fields);
    return names.length === Object.keys(other).length && names.every((name) => sameValue(fields[name], other[name]));
  });

/// The array datasets' Chart.js fields at each chart's last element update.
const updatedFields = new WeakMap<Chart, Record<string, unknown>[]>();

/// A canvas font in the charts' family, e.g. `canvasFont(13, 600)`. The family is the one
/// `createChart` read from the theme, so drawing a label never reads computed styles (which in
/// the middle of a frame's drawing would make the browser recompute them).
export function canvasFont(size: number, weight?: number): string {
  return `${weight ? `${weight} ` : ''}${size}px ${Chart.defaults.font.family ?? 'sans-serif'}`;
}

/// Prints each bar's value (formatted by `format`) above it, for the datasets in `datasets`.
export function barValueLabels(format: (value: number) => string, datasets?: readonly number[]): Plugin<'bar'> {
  return {
    id: 'klBarValueLabels',
    afterDatasetsDraw(chart) {
      const { ctx } = chart;
      ctx.save();
      ctx.fillStyle = palette().text;
      ctx.font = canvasFont(12);
      ctx.textAlign = 'center';
      chart.data.datasets.forEach((dataset, index) => {
        if (datasets && !datasets.includes(index)) return;
        const meta = chart.getDatasetMeta(index);
        if (meta.hidden) return;
        meta.data.forEach((bar, i) => {
          const point = dataset.data[i] as number | { y: number } | null | undefined;
          const value = typeof point === 'number' ? point : point?.y;
          if (typeof value !== 'number' || !Number.isFinite(value)) return;
          const { x, y } = bar.getProps(['x', 'y'], true) as { x: number; y: number };
          // By the sign of the value: a bar of (nearly) zero height has y and base a rounding apart.
          const above = value >= 0;
          ctx.textBaseline = above ? 'bottom' : 'top';
          ctx.fillText(format(value), x, above ? y - 3 : y + 3);
        });
      });
      ctx.restore();
    },
  };
}

/// The length of a `lineLegend` entry's line, in CSS pixels.
const HANDLE_WIDTH = 26;

/// Options of a legend below the chart whose entries show each dataset as matplotlib's legend
/// does: a short line in the dataset's colour, width and dash (with a marker in its middle when
/// the line has markers), or a lone marker for a set of points. Chart.js lays the entries out
/// and keeps the room (a point-style box of height 0, which it leaves empty); `legendHandles`
/// draws them. `labels` adds to or overrides the label options (font, sort…).
export function lineLegend(labels: Record<string, unknown> = {}) {
  return {
    display: true,
    position: 'bottom' as const,
    labels: { usePointStyle: true, pointStyleWidth: HANDLE_WIDTH, boxHeight: 0, ...labels },
  };
}

/// The dataset fields a legend handle is drawn from: an array dataset's, or a Chart.js line's.
type HandleLook = ArrayDataset & { showLine?: boolean; pointStyle?: unknown };

/// What `legendHandles` reads from Chart.js' legend (its laid-out entries; Chart.js 4 internals).
interface LegendInternals {
  options?: { display?: boolean; labels?: { usePointStyle?: boolean; boxHeight?: number; pointStyleWidth?: number; font?: { size?: number } } };
  legendItems?: { datasetIndex?: number }[];
  legendHitBoxes?: { left: number; top: number }[];
}

/// Draws the entries' lines and markers of a `lineLegend`, after the chart (and its legend) are
/// drawn, in the room Chart.js left for them. Not while a backdrop picture is painted: the
/// legend is drawn over the picture on every frame.
const legendHandles: Plugin = {
  id: 'klLegendHandles',
  afterDraw(chart) {
    if (backdropOf(chart as unknown as Chart).painting) return;
    const legend = (chart as unknown as { legend?: LegendInternals }).legend;
    const labels = legend?.options?.labels;
    if (!legend?.options?.display || !labels?.usePointStyle || labels.boxHeight !== 0) return;
    const items = legend.legendItems ?? [];
    const boxes = legend.legendHitBoxes ?? [];
    const width = labels.pointStyleWidth ?? HANDLE_WIDTH;
    const half = (labels.font?.size ?? Chart.defaults.font.size ?? 12) / 2;
    const { ctx } = chart;
    items.forEach((item, i) => {
      const box = boxes[i];
      const dataset = chart.data.datasets[item.datasetIndex ?? -1] as HandleLook | undefined;
      if (!box || !dataset) return;
      const y = box.top + half;
      const middle = box.left + width / 2;
      const line = dataset.klCurve !== undefined || (dataset.klPoints === undefined && dataset.showLine === true);
      const radius = typeof dataset.pointRadius === 'number' ? dataset.pointRadius : 3;
      const marker = dataset.klPoints !== undefined || (dataset.klCurve === undefined && radius > 0);
      ctx.save();
      if (line) {
        ctx.strokeStyle = ink(dataset.borderColor);
        ctx.lineWidth = typeof dataset.borderWidth === 'number' ? Math.min(dataset.borderWidth, 4) : 2;
        ctx.setLineDash(dashOf(dataset.borderDash));
        ctx.beginPath();
        ctx.moveTo(box.left, y);
        ctx.lineTo(box.left + width, y);
        ctx.stroke();
        ctx.setLineDash([]);
      }
      if (marker) {
        ctx.fillStyle = ink(dataset.backgroundColor ?? dataset.borderColor);
        ctx.strokeStyle = ink(dataset.borderColor ?? dataset.backgroundColor);
        const pointStyle = typeof dataset.pointStyle === 'string' ? dataset.pointStyle : 'circle';
        drawPoint(ctx, { pointStyle: pointStyle as 'circle', radius: Math.min(Math.max(radius, 2.5), 4.5), borderWidth: 1, rotation: 0 }, middle, y);
      }
      ctx.restore();
    });
  },
};

/// What `starMarkers` reads from a dataset: the stars' fill colour and outer radius (CSS pixels).
interface StarLook {
  klStar?: { color: string; radius: number };
}

/// Marks a scatter dataset's points as filled five-pointed stars (Chart.js' own 'star' is an
/// asterisk) of outer radius `radius` in `color`. `starMarkers` draws them as paths in the
/// chart's own coordinates, so they are as sharp and as large on a 2× screen as on a 1× one
/// (a picture given to Chart.js as a point style is drawn at its size in device pixels). Chart.js
/// itself draws nothing for these points (radius 0).
export function starDataset<T extends object>(look: T, color: string, radius: number): T & { pointRadius: number } {
  return { ...look, pointRadius: 0, klStar: { color, radius } };
}

/// Gives a `starDataset` a new colour (a colour-scheme flip).
export function recolorStars(dataset: object | undefined, color: string): void {
  const star = (dataset as StarLook | undefined)?.klStar;
  if (star) star.color = color;
}

/// Adds a five-pointed star of outer radius `radius` centred on (x, y) to the current path.
function starPath(ctx: CanvasRenderingContext2D, x: number, y: number, radius: number): void {
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? radius : radius * 0.45;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    ctx.lineTo(x + r * Math.cos(angle), y + r * Math.sin(angle));
  }
  ctx.closePath();
}

/// Draws the stars of every `starDataset` right after its dataset (so it keeps its place among
/// the datasets' drawing order), for the points whose star reaches into the plot area.
const starMarkers: Plugin = {
  id: 'klStarMarkers',
  afterDatasetDraw(chart, { index, meta }) {
    const star = (chart.data.datasets[index] as StarLook | undefined)?.klStar;
    if (!star || !(star.radius > 0)) return;
    const { ctx, chartArea: area } = chart;
    const r = star.radius;
    ctx.save();
    ctx.fillStyle = star.color;
    ctx.beginPath();
    for (const element of meta.data) {
      const { x, y } = element.getProps(['x', 'y'], true) as { x: number; y: number };
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      if (x < area.left - r || x > area.right + r || y < area.top - r || y > area.bottom + r) continue;
      ctx.moveTo(x, y - r);
      starPath(ctx, x, y, r);
    }
    ctx.fill();
    ctx.restore();
  },
};

const scheduled = new Map<Chart, Array<() => void>>();
let flushQueued = false;
/// Charts were drawn between two animation frames (after the last rendering): further draws in
/// that interval wait for the next frame, so no chart is drawn twice for one rendering.
let drewThisFrame = false;

/// With timing enabled, marks `kernel-lens:frame` once the browser has rendered what was just
/// drawn (a task posted from requestAnimationFrame runs after that frame's rendering);
/// `detail.issuedAt` is when the drawn data was requested.
function markPainted(issuedAt: number, inFrame: boolean): void {
  if (!timingEnabled) return;
  const afterRendering = (): void => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      markTiming('kernel-lens:frame', issuedAt);
      channel.port1.close();
    };
    channel.port2.postMessage(null);
  };
  if (inFrame) afterRendering();
  else requestAnimationFrame(afterRendering);
}

/// Milliseconds of chart updates per flush; the charts left over are drawn in the next frame.
const FRAME_BUDGET = 12;

function flush(inFrame: boolean): void {
  flushQueued = false;
  // A draw inside an animation frame is rendered by that frame; one outside waits for the next.
  if (!inFrame && !drewThisFrame) {
    drewThisFrame = true;
    requestAnimationFrame(() => {
      drewThisFrame = false;
    });
  }
  const issuedAt = sharedBridge().lastDeliveredIssuedAt;
  const start = performance.now();
  for (const [chart, edits] of scheduled) {
    if (performance.now() - start > FRAME_BUDGET) break;
    scheduled.delete(chart);
    for (const edit of edits) edit();
    redraw(chart);
  }
  if (scheduled.size > 0) queueFlush();
  markPainted(issuedAt, inFrame);
}

function queueFlush(): void {
  if (flushQueued) return;
  flushQueued = true;
  if (drewThisFrame) requestAnimationFrame(() => flush(true));
  else queueMicrotask(() => flush(false));
}

/// The layout each chart was last laid out for (see layoutKey).
const laidOut = new WeakMap<Chart, string>();

/// What a chart's layout (axes, ticks, legend, chart area) depends on, as a string: its size,
/// labels, datasets' names, types and visibility, and options. Null when the data itself moves
/// the layout: an axis without a fixed range follows the data.
function layoutKey(chart: Chart): string | null {
  for (const scale of Object.values(chart.scales)) {
    if (scale.type === 'category') continue;
    if (!Number.isFinite(scale.options.min) || !Number.isFinite(scale.options.max)) return null;
  }
  try {
    // A label's digits change as a slider moves (the legend's "h=0.18"); in the charts' fonts
    // digits are all one width, so the legend keeps its size and only its text is rebuilt.
    const datasets = chart.data.datasets.map((dataset, i) => [dataset.type, dataset.label?.replace(/\d/g, '0'), chart.isDatasetVisible(i)]);
    return JSON.stringify([chart.width, chart.height, chart.data.labels, datasets, chart.config.options]);
  } catch {
    return null;
  }
}

/// Chart.js' update without the layout: the datasets take their new data and styles and the
/// chart is drawn on the axes it has. These are Chart.js internals (4.x): when they are missing,
/// false, and the caller runs the full update.
function updateData(chart: Chart): boolean {
  const internal = chart as unknown as { _updateDatasets?: (mode: string) => void; _updateHiddenIndices?: () => void };
  if (typeof internal._updateDatasets !== 'function' || typeof internal._updateHiddenIndices !== 'function') return false;
  const controllers = chart.data.datasets.map((_, i) => chart.getDatasetMeta(i).controller as unknown as {
    buildOrUpdateElements?: (reset: boolean) => void;
  } | undefined);
  if (!controllers.every((controller) => typeof controller?.buildOrUpdateElements === 'function')) return false;
  const config = chart.config as unknown as { clearCache?: () => void };
  if (typeof config.clearCache !== 'function') return false;
  // What update() does first and the datasets' update relies on: the option caches are emptied
  // (each dataset's options are resolved afresh, and the old entries would pile up) and the
  // record of in-place data edits (push, splice…) is taken.
  const fields = arrayOnlyFields(chart);
  if (fields === null || !sameFields(fields, updatedFields.get(chart))) {
    config.clearCache();
    renewSharedOptions(chart);
    internal._updateHiddenIndices();
    for (const controller of controllers) controller?.buildOrUpdateElements?.(false);
    internal._updateDatasets('none');
    if (fields === null) updatedFields.delete(chart);
    else updatedFields.set(chart, fields);
  }
  // What the legend does after an update: its entries follow the datasets' labels and colours.
  // (Its boxes keep their places: the layout is unchanged. Chart.js' adjustHitBoxes would move
  // them again, as it adds offsets to the places its layout pass computed.)
  const legend = (chart as unknown as { legend?: { buildLabels?: () => void } }).legend;
  legend?.buildLabels?.();
  const backdrop = backdropOf(chart);
  // The picture is painted again after a new layout or colour scheme, and when a curve in it
  // changed: then it keeps only the curves below the first one that changed.
  const looks = curveLooks(chart);
  const same = backdrop.curves.findIndex((look, i) => !sameLook(look, looks[i]));
  if (backdrop.stale) paintBackdrop(chart, looks.length);
  else if (same >= 0) paintBackdrop(chart, same);
  backdrop.use = true;
  chart.render();
  return true;
}

/// Chart.js keeps the first options a dataset's elements shared (their colours, widths…) and,
/// in the 'none' update mode every redraw here uses, never takes new ones: a dataset whose colour
/// changed (a colour-scheme flip) would keep drawing in the old one. Dropping them before an
/// update makes it share the dataset's current options. (Chart.js internals, 4.x; skipped when
/// missing.)
function renewSharedOptions(chart: Chart): void {
  chart.data.datasets.forEach((_, i) => {
    const controller = chart.getDatasetMeta(i).controller as unknown as { _sharedOptions?: unknown } | undefined;
    if (controller && '_sharedOptions' in controller) controller._sharedOptions = undefined;
  });
}

/// Redraws a chart after its data changed. While nothing its layout depends on changed (a
/// slider drag: new weights and curves on the same axes), only the datasets are updated; Chart.js'
/// full update would measure and place every axis again, the larger part of an update's time.
function redraw(chart: Chart): void {
  const key = layoutKey(chart);
  if (key !== null && chart.attached && laidOut.get(chart) === key && updateData(chart)) return;
  renewSharedOptions(chart);
  chart.update('none');
  if (key === null) laidOut.delete(chart);
  else laidOut.set(chart, key);
}

/// Applies `edit` to the chart's data and redraws it as soon as the current task's edits are in
/// (the frame being prepared shows it) or, when charts were already drawn for this frame, in
/// the next animation frame. Several edits before a draw share one `chart.update('none')`.
export function scheduleFrame(chart: Chart, edit: () => void): void {
  const edits = scheduled.get(chart);
  if (edits) edits.push(edit);
  else scheduled.set(chart, [edit]);
  queueFlush();
}

/// A tick at a chosen value with a chosen label, as matplotlib's `set_xticks(values, labels)`.
export interface TickMark {
  value: number;
  label: string;
}

/// The marks each chart's marked x axis shows now (set by `setTickMarks`).
const tickMarks = new WeakMap<Chart, readonly TickMark[]>();

/// Gap in CSS pixels kept between two tick labels.
const TICK_LABEL_GAP = 6;

/// The marks whose labels fit: in the order given, a mark (placed at pixel `at`) is kept when its
/// label clears every label kept before it. So the first marks win a crowded stretch (the query's
/// "q=3.5" over a key beside it). Returned in axis order.
function fittingMarks(
  marks: readonly { mark: TickMark; at: number }[],
  width: (label: string) => number,
): { mark: TickMark; at: number; width: number }[] {
  const kept: { mark: TickMark; at: number; width: number }[] = [];
  for (const { mark, at } of marks) {
    const labelWidth = width(mark.label);
    const clear = kept.every((other) => Math.abs(other.at - at) >= (labelWidth + other.width) / 2 + TICK_LABEL_GAP);
    if (clear) kept.push({ mark, at, width: labelWidth });
  }
  return kept.sort((a, b) => a.at - b.at);
}

interface MarkedAxisOptions {
  grid: { color?: unknown; tickLength: number };
  ticks: { color?: unknown; font: Partial<FontSpec>; padding: number };
}

/// Options for a chart's x axis whose ticks are the marks last given to `setTickMarks`. Chart.js
/// lays the axis out with room for one row of labels but draws no ticks, labels or vertical grid
/// lines; `tickMarksLayer` draws them on every frame, beneath the datasets. So a mark that
/// moves with a drag (the query's tick) costs no new layout of the chart.
export function markedTicksAxis() {
  return {
    grid: { display: false },
    ticks: { display: false },
    afterFit(scale: Scale): void {
      const { ticks } = scale.options as unknown as MarkedAxisOptions;
      scale.height += toFont(ticks.font).lineHeight + 2 * ticks.padding;
    },
  };
}

/// Gives a chart's marked axis (see `markedTicksAxis`) these ticks from its next draw on.
export function setTickMarks(chart: Chart, marks: readonly TickMark[]): void {
  tickMarks.set(chart, marks);
}

/// Draws the marks of a marked x axis: a grid line and a tick mark at each, and the labels that
/// fit (`fittingMarks`). Left out of the backdrop's picture: the marks move with the data.
const tickMarksLayer: Plugin = {
  id: 'klTickMarks',
  beforeDatasetsDraw(chart) {
    const marks = tickMarks.get(chart as unknown as Chart);
    const scale = chart.scales.x;
    if (!marks || !scale || backdropOf(chart as unknown as Chart).painting) return;
    const { grid, ticks } = scale.options as unknown as MarkedAxisOptions;
    const { ctx, chartArea } = chart;
    const font = toFont(ticks.font);
    ctx.save();
    ctx.font = font.string;
    const onAxis = marks
      .map((mark) => ({ mark, at: scale.getPixelForValue(mark.value) }))
      .filter(({ at }) => at >= chartArea.left - 0.5 && at <= chartArea.right + 0.5);
    const fitting = fittingMarks(onAxis, (label) => ctx.measureText(label).width);
    // Every mark on the axis has its grid line and tick mark; only a crowded label is left out.
    ctx.strokeStyle = ink(grid.color, palette().grid);
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const { at } of onAxis) {
      const x = Math.round(at) + 0.5;
      ctx.moveTo(x, chartArea.top);
      ctx.lineTo(x, chartArea.bottom + grid.tickLength);
    }
    ctx.stroke();
    ctx.fillStyle = ink(ticks.color);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const y = scale.top + grid.tickLength + ticks.padding + font.lineHeight / 2;
    for (const { mark, at, width } of fitting) {
      ctx.fillText(mark.label, Math.min(Math.max(at, width / 2), chart.width - width / 2), y);
    }
    ctx.restore();
  },
};

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

/// Gives every axis of `chart` the theme's tick, grid and title colours (after a theme flip).
function recolorAxes(chart: Chart, colors: Palette): void {
  for (const axis of Object.values(chart.options.scales ?? {})) {
    if (!axis) continue;
    // Set field by field: spreading Chart.js' option proxies copies their symbol keys, and a
    // second recolouring (a flip back) would then fail on them.
    if (axis.ticks) axis.ticks.color = colors.text;
    if (axis.grid) {
      axis.grid.color = colors.grid;
      axis.grid.tickColor = colors.grid;
    }
    if ('border' in axis && axis.border) axis.border.color = colors.grid;
    if ('title' in axis && axis.title) axis.title.color = colors.text;
  }
}
