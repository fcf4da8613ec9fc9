/// Dragging on a chart: pointer events on a plot turned into data coordinates, grabbing what lies
/// within a radius of the pointer, and the lifecycle of a drag (press, move, let go, cancel) on
/// listeners the widget host owns. What a press takes hold of and what a move does stay the
/// widget's; the geometry and the event plumbing are here.
import type { AnyChart } from '../../charts';
import { localPoint } from '../../ui/pointer';
import type { WidgetHost } from '../../ui/host/widget';

/// The plotting area of a surface, in its element's CSS pixels.
export interface PlotArea {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/// Something drawn with data axes that a pointer can act on: a Chart.js chart (`chartSurface`) or
/// any other plot (a heat map's image) that maps its own pixels to data and back.
export interface AxisSurface {
  /// The element that hears the pointer.
  readonly element: HTMLElement;
  /// The data coordinates at a point of the element (CSS pixels); NaN along an axis it lacks.
  valueAt(px: number, py: number): { x: number; y: number };
  /// Where the data point (x, y) is drawn, in CSS pixels; NaN along an axis it lacks.
  pixelAt(x: number, y: number): { px: number; py: number };
  /// The plotting area.
  area(): PlotArea;
}

/// A pointer on a surface: its data coordinates, its place in CSS pixels, and whether it lies in
/// the plotting area.
export interface AxisPoint {
  x: number;
  y: number;
  px: number;
  py: number;
  inPlot: boolean;
}

/// A Chart.js chart as a surface, on its `x` and `y` scales.
export function chartSurface(chart: AnyChart): AxisSurface {
  return {
    element: chart.canvas,
    valueAt(px, py) {
      const { x, y } = chart.scales;
      return { x: x?.getValueForPixel(px) ?? Number.NaN, y: y?.getValueForPixel(py) ?? Number.NaN };
    },
    pixelAt(x, y) {
      const scales = chart.scales;
      return { px: scales.x?.getPixelForValue(x) ?? Number.NaN, py: scales.y?.getPixelForValue(y) ?? Number.NaN };
    },
    area: () => chart.chartArea,
  };
}

/// Where `event` falls on `surface`.
export function pointerAt(surface: AxisSurface, event: { clientX: number; clientY: number }): AxisPoint {
  const { x: px, y: py } = localPoint(surface.element, event);
  const { x, y } = surface.valueAt(px, py);
  const area = surface.area();
  return { x, y, px, py, inPlot: px >= area.left && px <= area.right && py >= area.top && py <= area.bottom };
}

/// The index of the point of `points` (data coordinates, in order of precedence) nearest to `at`
/// within `radius` CSS pixels, or -1. Of points at the same distance the earlier one wins: list the
/// one drawn on top first.
export function nearestPoint(surface: AxisSurface, at: AxisPoint, points: readonly { x: number; y: number }[], radius: number): number {
  let best = -1;
  let bestDistance = Number.POSITIVE_INFINITY;
  points.forEach((point, i) => {
    const { px, py } = surface.pixelAt(point.x, point.y);
    const distance = Math.hypot(px - at.px, py - at.py);
    if (distance <= radius && distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  });
  return best;
}

/// Whether `at` lies within `radius` CSS pixels of the vertical line at data x = `x`.
export function nearVertical(surface: AxisSurface, at: AxisPoint, x: number, radius: number): boolean {
  return Math.abs(at.px - surface.pixelAt(x, Number.NaN).px) <= radius;
}

/// What a widget does with the pointer on a surface; `G` is what a press holds (a point's index,
/// the query line, a press not yet a drag).
export interface DragSpec<G> {
  /// What a press at `at` takes hold of, or null to let the press be (no capture, the page's own
  /// handling of it kept).
  grab(at: AxisPoint, event: PointerEvent): G | null;
  /// The pointer moved while holding `held`: moves it, and returns what is held from now on when
  /// that changes (a press that became a drag).
  move(held: G, at: AxisPoint): G | void;
  /// The pointer let go of `held` (not called when the browser cancels the pointer).
  release?(held: G, at: AxisPoint): void;
  /// The pointer moved with nothing held; returns the cursor to show there, if any.
  hover?(at: AxisPoint): string | void;
}

/// Drags on `surface` as `spec` says, with listeners `host` removes when the figure goes. A press
/// that takes hold of something captures the pointer (a drag leaving the plot keeps going) and
/// keeps the page from scrolling or selecting under it.
export function dragOnAxis<G>(host: Pick<WidgetHost, 'listen'>, surface: AxisSurface, spec: DragSpec<G>): void {
  const element = surface.element;
  let held: G | null = null;
  host.listen(element, 'pointerdown', (event) => {
    held = spec.grab(pointerAt(surface, event), event);
    if (held === null) return;
    element.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  host.listen(element, 'pointermove', (event) => {
    const at = pointerAt(surface, event);
    if (held === null) {
      const cursor = spec.hover?.(at);
      if (cursor) element.style.cursor = cursor;
      return;
    }
    const next = spec.move(held, at);
    if (next !== undefined) held = next;
  });
  host.listen(element, 'pointerup', (event) => {
    const last = held;
    held = null;
    if (last !== null) spec.release?.(last, pointerAt(surface, event));
  });
  host.listen(element, 'pointercancel', () => {
    held = null;
  });
}
