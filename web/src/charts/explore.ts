/// A chart a reader can explore without seeing it: one keyboard stop whose name carries a summary
/// of the drawn data (ranges, extremes and where, crossings, trend), arrow keys that read the
/// drawn points one by one, a ring on the canvas at the point read, and a "Show data" table of
/// every series. Everything here describes the numbers the chart was given; nothing is computed
/// that the core computes.
///
/// Points are read through a polite live region inside the chart's box that is live only while
/// the box has focus (aria-activedescendant would need one element per point: a curve has 601).
import type { Plugin } from 'chart.js';
import type { AnyChart } from './adapter';
import type { CurveArrays } from './curves';
import { significant } from '../ui/format';
import { palette } from '../theme/theme';

/// A drawn series: its name and its points (x as shown on the axis: a number or a category).
export interface Series {
  name: string;
  /// How it is drawn: its dash pattern ("-" solid, "none" no line) and marker, e.g. "8,4 circle".
  look: string;
  xs: Array<number | string>;
  ys: number[];
}

type Dataset = { label?: string; data?: unknown; klCurve?: CurveArrays; klPoints?: CurveArrays; borderDash?: unknown; showLine?: boolean; pointStyle?: unknown; pointRadius?: unknown; type?: string };

const num = (v: number): string => significant(v, 4);
const text = (v: number | string): string => (typeof v === 'number' ? num(v) : v);

/// Axis names in full for charts whose drawn titles are cut to fit (see `nameAxes`).
const wholeNames = new WeakMap<object, Partial<Record<'x' | 'y', string>>>();

/// Gives the summary, the points read and the data table of `chart` these axis names, where its
/// drawn titles are cut to the canvas.
export function nameAxes(chart: object, names: Partial<Record<'x' | 'y', string>>): void {
  wholeNames.set(chart, names);
}

function axisTitle(chart: AnyChart, axis: 'x' | 'y'): string {
  const whole = wholeNames.get(chart)?.[axis];
  if (whole) return whole;
  const title = (chart.options.scales?.[axis] as { title?: { display?: boolean; text?: unknown } } | undefined)?.title;
  const value = title?.text;
  return (Array.isArray(value) ? value.join(' ') : typeof value === 'string' ? value : '') || axis;
}

/// The visible series of `chart` with at least one finite point, in dataset order.
export function chartSeries(chart: AnyChart): Series[] {
  const labels = (chart.data.labels ?? []) as unknown[];
  const category = chart.scales.x?.type === 'category' || (chart.options.scales?.x as { type?: string } | undefined)?.type === 'category';
  const xOf = (x: number, i: number): number | string => (category ? String(labels[Math.round(x)] ?? labels[i] ?? x) : x);
  const out: Series[] = [];
  chart.data.datasets.forEach((raw, index) => {
    if (!chart.isDatasetVisible(index)) return;
    const dataset = raw as Dataset;
    const xs: Array<number | string> = [];
    const ys: number[] = [];
    const arrays = dataset.klCurve ?? dataset.klPoints;
    if (arrays) {
      for (let i = 0; i < arrays.xs.length; i++) {
        const x = arrays.xs[i] ?? Number.NaN;
        const y = arrays.ys[i] ?? Number.NaN;
        if (Number.isFinite(y)) {
          xs.push(x);
          ys.push(y);
        }
      }
    } else if (Array.isArray(dataset.data)) {
      dataset.data.forEach((point: unknown, i) => {
        const p = typeof point === 'number' ? { x: i, y: point } : (point as { x?: unknown; y?: unknown } | null);
        if (p && typeof p.y === 'number' && Number.isFinite(p.y)) {
          xs.push(typeof p.x === 'number' ? xOf(p.x, i) : String(labels[i] ?? i));
          ys.push(p.y);
        }
      });
    }
    const type = dataset.type ?? (chart.config as { type?: string }).type;
    const line = dataset.klCurve || (type === 'line' ? dataset.showLine !== false : dataset.showLine === true);
    const dash = Array.isArray(dataset.borderDash) && dataset.borderDash.length ? dataset.borderDash.join(',') : '-';
    const marker = dataset.klCurve || dataset.pointRadius === 0 ? 'none' : String(dataset.pointStyle ?? (type === 'bar' ? 'bar' : 'circle'));
    if (ys.length > 0) out.push({ name: dataset.label || `series ${index + 1}`, look: `${line ? dash : 'none'} ${marker}`, xs, ys });
  });
  return out;
}

/// The index of the smallest and of the largest y.
function extremes(ys: readonly number[]): { lo: number; hi: number } {
  let lo = 0;
  let hi = 0;
  ys.forEach((y, i) => {
    if (y < (ys[lo] ?? 0)) lo = i;
    if (y > (ys[hi] ?? 0)) hi = i;
  });
  return { lo, hi };
}

/// Rising, falling, or where the direction turns (an extreme inside the range).
function trend(s: Series): string {
  const n = s.ys.length;
  if (n < 3) return '';
  const { lo, hi } = extremes(s.ys);
  if (s.ys[lo] === s.ys[hi]) return 'flat';
  if (lo === 0 && hi === n - 1) return 'rising overall';
  if (hi === 0 && lo === n - 1) return 'falling overall';
  if (hi !== 0 && hi !== n - 1) return `rising to its maximum, then falling`;
  return `falling to its minimum, then rising`;
}

/// Where two series on the same numeric xs change order: "between x = a and b".
function crossings(a: Series, b: Series, xName: string): string[] {
  if (a.xs.length !== b.xs.length || a.xs.length < 2 || typeof a.xs[0] !== 'number') return [];
  const found: string[] = [];
  let previous = 0;
  for (let i = 0; i < a.xs.length; i++) {
    if (a.xs[i] !== b.xs[i]) return [];
    const sign = Math.sign((a.ys[i] ?? 0) - (b.ys[i] ?? 0));
    if (sign !== 0 && previous !== 0 && sign !== previous) found.push(`${xName} ${text(a.xs[i - 1] ?? 0)}–${text(a.xs[i] ?? 0)}`);
    if (sign !== 0) previous = sign;
  }
  return found.length > 4 ? [`${found.length} places`] : found;
}

/// A few sentences describing the drawn data of `chart`.
export function summarize(chart: AnyChart, series = chartSeries(chart)): string {
  if (series.length === 0) return 'No data drawn.';
  const xName = axisTitle(chart, 'x');
  const yName = axisTitle(chart, 'y');
  const parts = [`${series.length} series; ${xName} against ${yName}.`];
  for (const s of series) {
    const { lo, hi } = extremes(s.ys);
    const first = s.xs[0] ?? '';
    const last = s.xs[s.xs.length - 1] ?? '';
    const span = s.ys.length > 1 ? `${s.ys.length} points, ${xName} ${text(first)} to ${text(last)}; ` : '';
    const reach =
      s.ys.length > 1
        ? `minimum ${num(s.ys[lo] ?? 0)} at ${text(s.xs[lo] ?? '')}, maximum ${num(s.ys[hi] ?? 0)} at ${text(s.xs[hi] ?? '')}`
        : `${text(first)}, ${num(s.ys[0] ?? 0)}`;
    const direction = trend(s);
    parts.push(`${s.name}: ${span}${reach}${direction ? `, ${direction}` : ''}.`);
  }
  for (let i = 0; i < series.length; i++) {
    for (let j = i + 1; j < series.length; j++) {
      const a = series[i];
      const b = series[j];
      const where = a && b ? crossings(a, b, xName) : [];
      if (a && b && where.length) parts.push(`${a.name} and ${b.name} cross at ${where.join(', ')}.`);
    }
  }
  return parts.join(' ');
}

/// The point being read on each explored chart (series index, point index).
const cursors = new WeakMap<AnyChart, { s: number; i: number }>();

/// A ring at the point being read, drawn while the chart's box has focus.
export const exploreRing: Plugin = {
  id: 'klExploreRing',
  afterDraw(chart) {
    const cursor = cursors.get(chart as AnyChart);
    if (!cursor || !chart.canvas.parentElement?.matches(':focus')) return;
    const s = chartSeries(chart as AnyChart)[cursor.s];
    const x = s?.xs[cursor.i];
    const y = s?.ys[cursor.i];
    const xScale = chart.scales.x;
    const yScale = chart.scales.y;
    if (x === undefined || y === undefined || !xScale || !yScale) return;
    const labels = (chart.data.labels ?? []) as unknown[];
    const px = xScale.getPixelForValue(typeof x === 'number' ? x : Math.max(0, labels.indexOf(x)));
    const py = yScale.getPixelForValue(y);
    const ctx = chart.ctx;
    const colors = palette(chart);
    ctx.save();
    ctx.lineWidth = 3;
    ctx.strokeStyle = colors.background;
    ctx.beginPath();
    ctx.arc(px, py, 7, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.lineWidth = 2;
    ctx.strokeStyle = colors.text;
    ctx.stroke();
    ctx.restore();
  },
};

/// A "Show data" disclosure after `anchor` whose table (`rows`: the first cell of each row is its
/// header) is built when opened; `rows` may return a sentence instead. Returns its renewal.
export function dataTable(anchor: Element, label: string, head: () => string[], rows: () => string[][] | string): () => void {
  const details = document.createElement('details');
  details.className = 'kl-chart-data kl-no-print';
  const summary = document.createElement('summary');
  summary.textContent = 'Show data';
  details.append(summary);
  const fill = (): void => {
    // The summary stays in place (re-inserting it would drop its focus to the page's body).
    while (details.lastChild && details.lastChild !== summary) details.lastChild.remove();
    if (!details.open) return;
    const body = rows();
    if (typeof body === 'string') {
      details.append(body);
      return;
    }
    const table = document.createElement('table');
    table.createCaption().textContent = label;
    const cell = (row: HTMLTableRowElement, text: string, scope: string): void => {
      const th = document.createElement(scope ? 'th' : 'td');
      if (th instanceof HTMLTableCellElement && scope) th.scope = scope;
      th.textContent = text;
      row.append(th);
    };
    const top = table.createTHead().insertRow();
    for (const name of head()) cell(top, name, name ? 'col' : '');
    const tbody = table.createTBody();
    for (const values of body) {
      const row = tbody.insertRow();
      values.forEach((text, i) => cell(row, text, i ? '' : 'row'));
    }
    const scroll = document.createElement('div');
    scroll.className = 'kl-chart-data__scroll';
    scroll.tabIndex = 0;
    scroll.setAttribute('role', 'region');
    scroll.setAttribute('aria-label', `data of ${label}`);
    scroll.append(table);
    details.append(scroll);
  };
  details.addEventListener('toggle', fill);
  // Placed once the anchor is in the figure (a chart is made before its box is placed). In a grid
  // of charts side by side the chart and its disclosure share one cell: as two grid items the
  // disclosure would take the column beside its chart and push the next chart to a new row.
  return () => {
    if (!details.isConnected) {
      if (anchor.parentElement?.classList.contains('kl-charts')) {
        const cell = document.createElement('div');
        cell.className = 'kl-chart-cell';
        anchor.replaceWith(cell);
        cell.append(anchor, details);
      } else {
        anchor.after(details);
      }
    }
    if (details.open) fill();
  };
}

/// Makes `box` one keyboard stop named as `kind` (its name set later), with a polite live region
/// live only while it has focus; `focusChanged` redraws the cursor. Returns the region.
export function keyboardStop(box: HTMLElement, kind: string, focusChanged: () => void): HTMLElement {
  box.tabIndex = 0;
  box.setAttribute('role', 'application');
  box.setAttribute('aria-roledescription', kind);
  box.setAttribute('data-kl-explore', '');
  const live = document.createElement('div');
  live.className = 'kl-visually-hidden';
  live.setAttribute('aria-atomic', 'true');
  box.append(live);
  box.addEventListener('focus', () => {
    live.setAttribute('aria-live', 'polite');
    focusChanged();
  });
  box.addEventListener('blur', () => {
    live.removeAttribute('aria-live');
    focusChanged();
  });
  return live;
}

/// Gives `chart`'s box its keyboard stop, summary, live region and data table; `redraw` draws the
/// chart again (the ring moved). Returns `refresh`, which renews the summary from the drawn data.
export function explorable(chart: AnyChart, redraw: () => void): () => void {
  const canvas = chart.canvas;
  const box = canvas?.parentElement;
  if (!canvas || !box || box.hasAttribute('data-kl-explore')) return () => undefined;
  const label = canvas.getAttribute('aria-label') ?? 'chart';
  const live = keyboardStop(box, 'chart', redraw);

  let series: Series[] = [];
  let shown = '';
  const cursor = { s: 0, i: 0 };
  cursors.set(chart, cursor);

  const read = (): string => {
    const s = series[cursor.s];
    if (!s) return 'No data drawn.';
    return `${axisTitle(chart, 'x')} ${text(s.xs[cursor.i] ?? '')}, ${axisTitle(chart, 'y')} ${num(s.ys[cursor.i] ?? 0)}, ${s.name}; point ${cursor.i + 1} of ${s.ys.length}`;
  };

  const renewTable = dataTable(
    box,
    label,
    () => ['series', axisTitle(chart, 'x'), axisTitle(chart, 'y')],
    () => series.flatMap((s) => s.ys.map((y, i) => [s.name, text(s.xs[i] ?? ''), num(y)])),
  );

  const refresh = (): void => {
    series = chartSeries(chart);
    const described = `${label}. ${summarize(chart, series)}`;
    if (described === shown) return;
    shown = described;
    canvas.setAttribute('aria-label', described);
    // What tells the series apart besides hue (read by the browser tests).
    box.dataset.klLooks = series.map((s) => s.look).join('|');
    box.setAttribute('aria-label', `${described} Arrow keys read the points; Up and Down change series.`);
    cursor.s = Math.min(cursor.s, Math.max(0, series.length - 1));
    cursor.i = Math.min(cursor.i, Math.max(0, (series[cursor.s]?.ys.length ?? 1) - 1));
    renewTable();
  };

  box.addEventListener('keydown', (event) => {
    const s = series[cursor.s];
    if (!s) return;
    const n = s.ys.length;
    const page = Math.max(1, Math.round(n / 10));
    const moves: Record<string, () => void> = {
      ArrowRight: () => (cursor.i = Math.min(n - 1, cursor.i + 1)),
      ArrowLeft: () => (cursor.i = Math.max(0, cursor.i - 1)),
      PageUp: () => (cursor.i = Math.min(n - 1, cursor.i + page)),
      PageDown: () => (cursor.i = Math.max(0, cursor.i - page)),
      Home: () => (cursor.i = 0),
      End: () => (cursor.i = n - 1),
      ArrowUp: () => (cursor.s = (cursor.s + series.length - 1) % series.length),
      ArrowDown: () => (cursor.s = (cursor.s + 1) % series.length),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
    const next = series[cursor.s];
    if (next && cursor.i >= next.ys.length) cursor.i = next.ys.length - 1;
    live.textContent = read();
    box.dataset.klRead = live.textContent;
    redraw();
  });
  return refresh;
}
