/// The fast path of a drag's frames, on Chart.js' public plugin hooks. While nothing a chart's
/// layout depends on changes (new weights and curves on the same axes), `beforeLayout` keeps the
/// layout it has (measuring and placing every axis again is the larger part of an update), and
/// the frame is drawn as a picture of the chart's backdrop (axes, grid, tick labels, titles and
/// the curves that did not change) with the legend and the datasets over it: `beforeDraw` paints
/// them through the datasets' controllers and cancels the rest of Chart.js' draw.
import type { AnyChart } from './adapter';
import type { Chart, ChartMeta, Plugin } from 'chart.js';
import { clipArea, getDatasetClipArea, unclipArea } from 'chart.js/helpers';
import { curveLooks, drawCurves, sameLook, type CurveLook } from './curves';
import { setCurvesDrawn, setPaintingPicture, isPaintingPicture } from './layers';
import { drawLegend } from './legend';
import { palette } from '../theme/theme';

interface Backdrop {
  picture: HTMLCanvasElement | null;
  /// Set after every layout: the next fast frame paints the picture again.
  stale: boolean;
  /// Set after every layout: the next frame is drawn as Chart.js draws it, without a picture. A
  /// layout drawn once (a figure's load, a resize) never needs one; a drag's second frame on
  /// the same layout paints it.
  plain: boolean;
  /// The next draw may stand on the picture (set by `drawFrame`, for one draw).
  use: boolean;
  /// The leading array curves painted into the picture (a drag changes one curve: those below
  /// it stay in the picture, it and those above are drawn on every frame).
  curves: CurveLook[];
}

const backdrops = new WeakMap<AnyChart, Backdrop>();

const backdropOf = (chart: AnyChart): Backdrop => {
  let backdrop = backdrops.get(chart);
  if (!backdrop) {
    backdrop = { picture: null, stale: true, plain: true, use: false, curves: [] };
    backdrops.set(chart, backdrop);
  }
  return backdrop;
};

/// The layout each chart was last laid out for (see `layoutKey`).
const laidOut = new WeakMap<AnyChart, string>();
/// Charts whose update must not draw (the frame draws once the picture is ready), with the
/// layout key of the frame.
const holding = new WeakMap<AnyChart, string | null>();
/// Counts, per chart, the layouts run and the fast frames drawn (read by the browser tests).
const counts = new WeakMap<AnyChart, { layouts: number; fastFrames: number }>();

/// What a chart's layout (axes, ticks, legend, chart area) depends on, as a string: its size,
/// labels, datasets' names, types and visibility, and options. Null when the data itself moves
/// the layout: an axis without a fixed range follows the data.
export function layoutKey(chart: AnyChart): string | null {
  for (const scale of Object.values(chart.scales)) {
    if (scale.type === 'category') continue;
    if (!Number.isFinite(scale.options.min) || !Number.isFinite(scale.options.max)) return null;
  }
  try {
    // A label's digits change as a slider moves (the legend's "h=0.18"); in the charts' fonts
    // digits are all one width, so the legend keeps its size and only its text is redrawn.
    const datasets = chart.data.datasets.map((dataset, i) => [dataset.type, dataset.label?.replace(/\d/g, '0'), chart.isDatasetVisible(i)]);
    return JSON.stringify([chart.width, chart.height, chart.data.labels, datasets, chart.config.options]);
  } catch {
    return null;
  }
}

/// True when `chart` keeps its layout for `key` (the layout was made for it).
export const keepsLayout = (chart: AnyChart, key: string | null): boolean => key !== null && laidOut.get(chart) === key;

/// Updates `chart` for a frame whose layout key is `key`, without drawing it (the caller draws).
export function updateHeld(chart: AnyChart, mode: Parameters<Chart['update']>[0], key: string | null): void {
  holding.set(chart, key);
  try {
    chart.update(mode);
  } finally {
    holding.delete(chart);
  }
}

/// Draws a frame of `chart` over its backdrop's picture, painting the picture first when the
/// layout or a curve in it changed; the first frame after a layout is drawn without one.
export function drawOverBackdrop(chart: AnyChart): void {
  const backdrop = backdropOf(chart);
  if (backdrop.plain) {
    backdrop.plain = false;
    backdrop.use = false;
    chart.draw();
    return;
  }
  const looks = curveLooks(chart);
  const canvas = chart.canvas;
  const fits = backdrop.picture !== null && backdrop.picture.width === canvas.width && backdrop.picture.height === canvas.height;
  if (backdrop.stale || !fits) paintBackdrop(chart, looks.length);
  else {
    const changed = backdrop.curves.findIndex((look, i) => !sameLook(look, looks[i]));
    if (changed >= 0) paintBackdrop(chart, changed);
  }
  backdrop.use = true;
  chart.draw();
}

/// Paints the picture of `chart`: a draw without the datasets, legend and tick marks, with its
/// first `curves` array curves, copied.
function paintBackdrop(chart: AnyChart, curves: number): void {
  const backdrop = backdropOf(chart);
  backdrop.use = false;
  setPaintingPicture(chart, true);
  try {
    chart.draw();
  } finally {
    setPaintingPicture(chart, false);
  }
  const looks = curveLooks(chart).slice(0, curves);
  drawCurves(chart, looks);
  backdrop.curves = looks;
  // A chart in a hidden box (display: none, an inactive slide) has a canvas of no pixels: no
  // picture is taken of it (a canvas of width or height 0 cannot be drawn from), and its next
  // frame after it is shown draws in full.
  if (chart.canvas.width === 0 || chart.canvas.height === 0) {
    backdrop.stale = true;
    return;
  }
  const picture = backdrop.picture ?? document.createElement('canvas');
  if (picture.width !== chart.canvas.width) picture.width = chart.canvas.width;
  if (picture.height !== chart.canvas.height) picture.height = chart.canvas.height;
  picture.getContext('2d')?.drawImage(chart.canvas, 0, 0);
  backdrop.picture = picture;
  backdrop.stale = false;
}

/// Draws the visible datasets as Chart.js does, in its order and clipping, with its dataset hooks.
function drawDatasets(chart: AnyChart): void {
  if (chart.notifyPlugins('beforeDatasetsDraw', { cancelable: true }) === false) return;
  const metas: ChartMeta[] = chart.getSortedVisibleDatasetMetas();
  for (let i = metas.length - 1; i >= 0; --i) {
    const meta = metas[i] as ChartMeta;
    const args = { meta, index: meta.index, cancelable: true };
    if (chart.notifyPlugins('beforeDatasetDraw', args) === false) continue;
    const clip = getDatasetClipArea(chart, meta);
    if (clip) clipArea(chart.ctx, clip);
    meta.controller.draw();
    if (clip) unclipArea(chart.ctx);
    args.cancelable = false;
    chart.notifyPlugins('afterDatasetDraw', args);
  }
  chart.notifyPlugins('afterDatasetsDraw');
}

/// How many layouts `chart` ran and how many frames it drew over its picture.
export const fastPathCounts = (chart: AnyChart): { layouts: number; fastFrames: number } => counts.get(chart) ?? { layouts: 0, fastFrames: 0 };

function count(chart: AnyChart, field: 'layouts' | 'fastFrames'): void {
  const entry = counts.get(chart) ?? { layouts: 0, fastFrames: 0 };
  entry[field]++;
  counts.set(chart, entry);
}

/// Forgets everything kept for a destroyed chart.
export function forgetBackdrop(chart: AnyChart): void {
  backdrops.delete(chart);
  laidOut.delete(chart);
}

/// Fills the whole canvas with the theme's background: an opaque canvas starts black.
export function paintBackground(chart: AnyChart): void {
  const { ctx, canvas } = chart;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = palette(chart).background;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.restore();
}

/// The plugin: keeps layouts, paints the opaque canvas' background, draws fast frames.
export const fastPath: Plugin = {
  id: 'klFastPath',
  beforeLayout(chart) {
    // Only a frame's update keeps or records a layout: one laid out for other reasons (the first
    // draw before any data, a resize) depends on more than the key (the data's overflow).
    const key = holding.get(chart) ?? null;
    if (keepsLayout(chart, key) && chart.chartArea && chart.chartArea.width > 0) return false;
    if (key === null) laidOut.delete(chart);
    else laidOut.set(chart, key);
  },
  afterLayout(chart) {
    const backdrop = backdropOf(chart);
    backdrop.stale = true;
    backdrop.plain = true;
    count(chart, 'layouts');
  },
  beforeRender(chart) {
    if (holding.has(chart)) return false;
  },
  beforeDraw(chart) {
    const { ctx, canvas } = chart;
    const backdrop = backdropOf(chart);
    const picture = backdrop.picture;
    const usable =
      backdrop.use && !backdrop.stale && picture !== null && picture.width > 0 && picture.height > 0 && picture.width === canvas.width && picture.height === canvas.height;
    backdrop.use = false;
    if (!usable) {
      paintBackground(chart);
      return;
    }
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(picture, 0, 0);
    ctx.restore();
    drawLegend(chart);
    setCurvesDrawn(chart, backdrop.curves.length);
    try {
      drawDatasets(chart);
    } finally {
      setCurvesDrawn(chart, 0);
    }
    count(chart, 'fastFrames');
    chart.notifyPlugins('afterDraw');
    return false;
  },
  beforeDatasetsDraw(chart) {
    if (isPaintingPicture(chart)) return false;
  },
};
