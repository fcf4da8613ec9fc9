/// One draw per chart per frame: figures edit a chart's data through `scheduleFrame`, and the
/// edits of a task are drawn together, in the frame being prepared when possible, else in the
/// next animation frame. A destroyed chart's pending edits are dropped with it.
import type { AnyChart } from './adapter';
import type { Chart } from 'chart.js';
import { lastDeliveredIssuedAt, markTiming, timingEnabled } from '../base/timing';
import { drawOverBackdrop, fastPathCounts, forgetBackdrop, keepsLayout, layoutKey, updateHeld } from './backdrop';
import { datasetStyles, sameFields } from './curves';

/// The update modes of a redraw. Chart.js keeps the style a dataset's elements first shared and,
/// in the 'none' mode, never takes a new one: a dataset given new colours (a theme flip) would
/// keep drawing in the old ones. With animations off, the default mode applies them at once.
const SAME_STYLE = 'none';
const NEW_STYLE = 'default';

/// Whether drawing waits for animation frames. A page drawn for paper may be an iframe out of
/// the window, where the browser runs no animation frame until it is scrolled to; its charts are
/// then drawn in tasks instead (`setFramesOff`, from charts/print.ts), so its figure draws and
/// says so.
let framesOff = false;

/// A callback waiting for the next frame: its animation frame request, and its task once frames
/// went off (whichever comes first runs it).
interface FrameWait {
  run(): void;
  request: number;
  timer: ReturnType<typeof setTimeout> | null;
}
const frameWaits = new Set<FrameWait>();

/// Calls `callback` in the next animation frame (in the next task while frames are off); returns
/// its canceller.
export function nextFrame(callback: () => void): () => void {
  const wait: FrameWait = {
    run: () => {
      if (frameWaits.delete(wait)) callback();
    },
    request: 0,
    timer: null,
  };
  frameWaits.add(wait);
  if (framesOff) wait.timer = setTimeout(wait.run, 0);
  else wait.request = requestAnimationFrame(wait.run);
  return () => {
    frameWaits.delete(wait);
    cancelAnimationFrame(wait.request);
    if (wait.timer !== null) clearTimeout(wait.timer);
  };
}

/// Draws in tasks instead of animation frames (`on`), or in frames again. What waits for a frame
/// when they go off runs in the next task.
export function setFramesOff(on: boolean): void {
  framesOff = on;
  if (on) for (const wait of frameWaits) wait.timer ??= setTimeout(wait.run, 0);
}

const scheduled = new Map<AnyChart, Array<() => void>>();
let flushQueued = false;
let cancelFrame: (() => void) | null = null;
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
  cancelFrame = null;
  if (scheduled.size === 0) return;
  // A draw inside an animation frame is rendered by that frame; one outside waits for the next.
  // Either way, charts left over wait for the next frame: a flush queued from this one as a
  // microtask would still run in this frame's task, on top of its budget and rendering.
  if (!drewThisFrame) {
    drewThisFrame = true;
    nextFrame(() => {
      drewThisFrame = false;
    });
  }
  const issuedAt = lastDeliveredIssuedAt();
  const start = performance.now();
  for (const [chart, edits] of scheduled) {
    if (performance.now() - start > FRAME_BUDGET) break;
    applyAndRedraw(chart, edits);
  }
  if (scheduled.size > 0) queueFlush();
  markPainted(issuedAt, inFrame);
}

function queueFlush(): void {
  if (flushQueued) return;
  flushQueued = true;
  if (drewThisFrame) cancelFrame = nextFrame(() => flush(true));
  else queueMicrotask(() => flush(false));
}

/// Takes a chart's pending edits off the schedule, applies them and redraws it.
function applyAndRedraw(chart: AnyChart, edits: Array<() => void>): void {
  scheduled.delete(chart);
  for (const edit of edits) edit();
  redraw(chart);
  chartDrew();
}

/// Whether `chart` has edits waiting for a frame.
export const hasPendingEdits = (chart: AnyChart): boolean => scheduled.has(chart);

const drewListeners = new Set<() => void>();

/// Calls `listener` after charts were drawn (a frame's edits, a chart's first draw); returns the
/// remover.
export function onChartsDrew(listener: () => void): () => void {
  drewListeners.add(listener);
  return () => drewListeners.delete(listener);
}

/// Tells the listeners that charts were drawn.
export function chartDrew(): void {
  for (const listener of [...drewListeners]) listener();
}

/// The datasets' styles at each chart's last update.
const updatedStyles = new WeakMap<AnyChart, Record<string, unknown>[]>();

function redraw(chart: AnyChart): void {
  if (!chart.canvas) return;
  if (!timingEnabled) {
    redrawChart(chart);
    return;
  }
  // With timing enabled, each redraw leaves a mark saying whether it laid the chart out and
  // whether it was drawn over the backdrop's picture (the browser tests check the fast path).
  const before = { ...fastPathCounts(chart) };
  redrawChart(chart);
  const after = fastPathCounts(chart);
  performance.mark('kernel-lens:chart-frame', {
    detail: { chart: chart.canvas?.getAttribute('aria-label') ?? '', layouts: after.layouts - before.layouts, fast: after.fastFrames - before.fastFrames },
  });
}

/// Redraws a chart after its data changed. On fixed axes whose layout still holds, the frame is
/// drawn over the backdrop's picture; when only array curves changed (no Chart.js element did),
/// Chart.js' update is skipped too. Otherwise Chart.js updates and draws as usual.
function redrawChart(chart: AnyChart): void {
  const key = layoutKey(chart);
  const { styles, arraysOnly } = datasetStyles(chart);
  const sameStyle = sameFields(styles, updatedStyles.get(chart));
  const mode = sameStyle ? SAME_STYLE : NEW_STYLE;
  if (!chart.attached) {
    // Waiting for its attach (create.ts), which lays it out and draws it with these edits: an
    // update now would lay out a canvas that is not in the page yet, for nothing.
    updatedStyles.delete(chart);
    return;
  }
  updatedStyles.set(chart, styles);
  if (key === null) {
    chart.update(mode);
    return;
  }
  if (!(arraysOnly && sameStyle && keepsLayout(chart, key))) updateHeld(chart, mode, key);
  drawOverBackdrop(chart);
}

/// Applies `edit` to the chart's data and redraws it as soon as the current task's edits are in
/// (the frame being prepared shows it) or, when charts were already drawn for this frame, in
/// the next animation frame. Several edits before a draw share one update.
export function scheduleFrame(chart: AnyChart, edit: () => void): void {
  if (!chart.canvas) return;
  const edits = scheduled.get(chart);
  if (edits) edits.push(edit);
  else scheduled.set(chart, [edit]);
  queueFlush();
}

/// Applies every chart's pending edits and draws them now, whatever the budget: for a printout,
/// which is taken before any animation frame (and in an iframe out of view, where the browser
/// runs none, the next frame may never come).
export function drawPendingNow(): void {
  cancelFrame?.();
  cancelFrame = null;
  flushQueued = false;
  for (const [chart, edits] of scheduled) applyAndRedraw(chart, edits);
}

/// Drops a destroyed chart's pending edits and what its redraws kept.
export function forgetChart(chart: AnyChart): void {
  scheduled.delete(chart);
  updatedStyles.delete(chart);
  forgetBackdrop(chart);
  if (scheduled.size === 0 && cancelFrame) {
    cancelFrame();
    cancelFrame = null;
    flushQueued = false;
  }
}
