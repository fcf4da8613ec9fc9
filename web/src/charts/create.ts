/// Chart.js with only the parts the figures use, and one way to make a chart: the shared
/// defaults (no animation, no parsing, fixed scales), the theme root's colours and font on every
/// axis, the project's plugins, and a first layout and a first draw in tasks of their own.
import { anyChart, optionsRecord, type AnyChart } from './adapter';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Title,
  type ChartConfiguration,
  type ChartType,
  type Plugin,
} from 'chart.js';
import { fastPath, paintBackground } from './backdrop';
import { distinctDashes } from './distinct';
import { exploreRing } from './explore';
import { chartDrew, forgetChart, hasPendingEdits, nextFrame } from './frame';
import { legend } from './legend';
import { starMarkers } from './stars';
import { tickMarksLayer, zeroWithDecimals } from './ticks';
import { onThemeChange, palette, type Palette } from '../theme/theme';

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
  Title,
);
Chart.defaults.scales.linear.ticks.callback = zeroWithDecimals;

export { Chart };

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

type Options = Record<string, unknown>;
const object = (owner: Options, key: string): Options => {
  const value = owner[key];
  if (value && typeof value === 'object') return value as Options;
  const made: Options = {};
  owner[key] = made;
  return made;
};

/// Gives every axis and the title of `chart` (or of its options, before it is made) the theme's
/// inks and font. Set field by field: spreading Chart.js' option proxies copies their symbol
/// keys, and a second recolouring (a flip back) would then fail on them.
export function themeOptions(options: Options, colors: Palette): void {
  const scales = (options.scales ?? {}) as Record<string, Options | undefined>;
  for (const axis of Object.values(scales)) {
    if (!axis) continue;
    const ticks = object(axis, 'ticks');
    ticks.color = colors.text;
    object(ticks, 'font').family = colors.font;
    const grid = object(axis, 'grid');
    grid.color = colors.grid;
    grid.tickColor = colors.grid;
    object(axis, 'border').color = colors.grid;
    const title = object(axis, 'title');
    title.color = colors.text;
    object(title, 'font').family = colors.font;
  }
  const plugins = object(options, 'plugins');
  const title = object(plugins, 'title');
  title.color = colors.text;
  object(title, 'font').family = colors.font;
}

/// An axis title whose text carries a combining mark (the hat of f̂, U+0302) gets room above it
/// (Chart.js sizes a title by its font's line height; a mark stacked over an ascender reaches past
/// it) and unhinted text: Chromium's hinted glyphs at 12 px drop the hat over f and k.
const ACCENT_PADDING = 8;
const accentText: Plugin = {
  id: 'klAccentText',
  beforeDraw(chart) {
    const context = chart.ctx as CanvasRenderingContext2D & { textRendering?: string };
    if ('textRendering' in context) context.textRendering = 'geometricPrecision';
  },
};
function roomForAccents(options: Options): boolean {
  let found = false;
  const scales = (options.scales ?? {}) as Record<string, Options | undefined>;
  for (const axis of Object.values(scales)) {
    const title = axis?.title as Options | undefined;
    const text = title?.text;
    const texts = Array.isArray(text) ? text : [text];
    if (!title || !texts.some((t) => typeof t === 'string' && /\p{Mn}/u.test(t))) continue;
    const padding = (typeof title.padding === 'object' && title.padding ? title.padding : {}) as Options;
    title.padding = { bottom: 4, ...padding, top: Math.max(Number(padding.top ?? 4), ACCENT_PADDING) };
    found = true;
  }
  return found;
}

/// A chart with the shared defaults: no animation, pre-parsed data, responsive to its box, in
/// the colours and font of the theme root its canvas is in.
export function createChart<T extends ChartType>(canvas: HTMLCanvasElement, config: ChartConfiguration<T>): Chart<T> {
  const colors = palette(canvas);
  const options: Options = {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    parsing: false,
    events: [],
    ...config.options,
    plugins: { ...config.options?.plugins },
  };
  themeOptions(options, colors);
  const accents = roomForAccents(options);
  // An opaque canvas: the compositor copies it instead of blending it over the page, and its
  // pixels need no alpha. Chart.js takes this context (getContext returns the first one made);
  // the fast path's plugin paints the background it would otherwise leave transparent.
  canvas.getContext('2d', { alpha: false });
  const chart = new Chart(canvas, {
    ...config,
    options,
    plugins: [distinctDashes, fastPath, legend, starMarkers, tickMarksLayer, exploreRing, lifetime, ...(accents ? [accentText] : []), ...(config.plugins ?? [])],
  } as ChartConfiguration<T>);
  const generic = anyChart(chart);
  themed.set(
    generic,
    onThemeChange((next) => {
      themeOptions(optionsRecord(generic), next);
    }, canvas),
  );
  if (!chart.attached) {
    // Chart.js would size and draw every chart of a figure in the task that adds the figure to
    // the page; each chart's first layout and draw gets a task of its own instead.
    chart.unbindEvents();
    queueAttach(generic);
  }
  return chart;
}

/// Each chart's theme subscription.
const themed = new WeakMap<AnyChart, () => void>();

/// What a chart leaves behind when it is destroyed: its theme subscription, its place in the
/// attach queue, and (through `forgetChart`) its pending frames and backdrop. It also holds the
/// draw of a chart's attach (see `attachOne`).
const lifetime: Plugin = {
  id: 'klLifetime',
  afterUpdate(chart) {
    if (attaching.has(chart)) attaching.set(chart, true);
  },
  beforeRender(chart) {
    if (attaching.has(chart)) return false;
  },
  afterDraw(chart) {
    undrawn.delete(chart);
    chartDrew();
  },
  afterDestroy(chart) {
    themed.get(chart)?.();
    themed.delete(chart);
    waiting.delete(chart);
    forgetChart(chart);
  },
};

/// A canvas font in the charts' family, e.g. `canvasFont(13, 600, chart)`: the family of the
/// theme root `chart` is drawn in (read once per theme, never in the middle of a frame).
export function canvasFont(size: number, weight?: number, chart?: { canvas: HTMLCanvasElement | null }): string {
  return `${weight ? `${weight} ` : ''}${size}px ${palette(chart).font}`;
}

/// Charts created detached, waiting to be attached once their canvas is in the page, with the
/// frames each may still wait (a canvas that never arrives stops being watched).
const waiting = new Map<AnyChart, number>();
let attachPending = false;

function queueAttach(chart: AnyChart): void {
  waiting.set(chart, 600);
  scheduleAttach(false);
}

function scheduleAttach(afterFrame: boolean): void {
  if (attachPending || waiting.size === 0) return;
  attachPending = true;
  const run = (): void => {
    attachPending = false;
    attachOne();
  };
  if (afterFrame) nextFrame(() => setTimeout(run, 0));
  else setTimeout(run, 0);
}

/// The chart being attached, and whether Chart.js updated it while it was.
const attaching = new Map<AnyChart, boolean>();
/// Attached charts not drawn since.
const undrawn = new WeakSet<AnyChart>();

/// Attaches a chart whose canvas is in the page: it sizes itself, is laid out, and from then on
/// follows its box. Binding again also covers canvases inside a shadow root
/// (<kernel-lens-figure>), which Chart.js' document-wide MutationObserver never sees.
function attach(chart: AnyChart): void {
  waiting.delete(chart);
  attaching.set(chart, false);
  try {
    chart.bindEvents();
    // A canvas already at its size is not laid out by Chart.js' attach.
    if (attaching.get(chart) === false) chart.update();
  } finally {
    attaching.delete(chart);
  }
  // Sizing cleared the canvas (to black: it is opaque); until the draw, it shows the background.
  paintBackground(chart);
  undrawn.add(chart);
}

/// Draws a chart laid out by its attach, unless a frame (charts/frame.ts) has drawn it since.
function drawAttached(chart: AnyChart): void {
  if (chart.canvas && chart.attached && undrawn.has(chart)) chart.render();
  undrawn.delete(chart);
}

/// Attaches and draws every connected chart still waiting, now: for a printout, taken before
/// the attach queue's next turn (which, in an iframe out of view, waits for a frame that the
/// browser does not run).
export function attachWaitingNow(): void {
  for (const [chart] of waiting) {
    if (chart.canvas?.isConnected && !chart.attached) {
      attach(chart);
      drawAttached(chart);
    }
  }
}

/// Whether `chart` shows everything it was given: attached, drawn since, no edits waiting. A chart
/// whose canvas is not in the page (a figure removed) counts as settled: it waits for nothing.
export function chartSettled(chart: AnyChart): boolean {
  if (!chart.canvas?.isConnected) return true;
  return !waiting.has(chart) && !undrawn.has(chart) && !attaching.has(chart) && !hasPendingEdits(chart);
}

/// Whether `thing` is a chart (made by `createChart`).
export const isChart = (thing: unknown): thing is AnyChart => thing instanceof Chart;

/// Charts whose box the page has laid out for their attach.
const laidOut = new WeakSet<AnyChart>();

/// Attaches one connected chart; it is drawn in the next task (the first layout and the first
/// draw of a chart each take a good part of a frame). The task before, the page lays out the
/// chart's box (a figure just added makes that a layout of the page): three tasks of a few
/// milliseconds each rather than one long one.
function attachOne(): void {
  let attachedOne = false;
  for (const [chart, framesLeft] of waiting) {
    if (!chart.canvas || chart.attached || framesLeft <= 0) {
      waiting.delete(chart);
    } else if (!attachedOne && chart.canvas.isConnected && !laidOut.has(chart)) {
      laidOut.add(chart);
      chart.canvas.getBoundingClientRect();
      attachedOne = true;
    } else if (!attachedOne && chart.canvas.isConnected) {
      attach(chart);
      setTimeout(() => drawAttached(chart), 0);
      attachedOne = true;
    } else if (!attachedOne) {
      waiting.set(chart, framesLeft - 1);
    }
  }
  scheduleAttach(!attachedOne);
}
