/// Dragging the bandwidth marker on the audit's chart: a press inside the plot area puts the
/// marker there, and it follows the pointer (clamped to the plot area) until released.
import type { Chart } from '../../charts';
import { localPoint } from '../../ui/pointer';
import type { WidgetHost } from '../../ui/host/widget';

export function dragMarker(host: Pick<WidgetHost, 'listen'>, chart: Chart<'scatter'>, move: (h: number) => void): void {
  const canvas = chart.canvas;
  let dragging = false;
  const hAt = (event: PointerEvent): number | null => {
    const { x: px, y: py } = localPoint(canvas, event);
    const area = chart.chartArea;
    if (!dragging && (px < area.left || px > area.right || py < area.top || py > area.bottom)) return null;
    const x = chart.scales.x;
    if (!x) return null;
    const clamped = Math.min(Math.max(px, area.left), area.right);
    return Number(x.getValueForPixel(clamped)?.toPrecision(3));
  };
  host.listen(canvas, 'pointerdown', (event) => {
    const h = hAt(event);
    if (h === null || !(h > 0)) return;
    dragging = true;
    canvas.setPointerCapture(event.pointerId);
    event.preventDefault();
    move(h);
  });
  host.listen(canvas, 'pointermove', (event) => {
    if (!dragging) return;
    const h = hAt(event);
    if (h !== null && h > 0) move(h);
  });
  const stopDrag = (): void => {
    dragging = false;
  };
  host.listen(canvas, 'pointerup', stopDrag);
  host.listen(canvas, 'pointercancel', stopDrag);
}
