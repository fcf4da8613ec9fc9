/// Which parts of a chart the draw in progress includes. While the backdrop's picture is painted
/// (backdrop.ts), the parts that change with the data (datasets, legend, tick marks) stay out;
/// while a frame is drawn over the picture, the curves the picture holds are not drawn again.
import type { Chart } from 'chart.js';

type ChartLike = Chart | { canvas: HTMLCanvasElement | null };

const painting = new WeakSet<object>();
const curvesInPicture = new WeakMap<object, number>();

/// True while `chart`'s backdrop picture is being painted.
export const isPaintingPicture = (chart: ChartLike): boolean => painting.has(chart);

export function setPaintingPicture(chart: ChartLike, on: boolean): void {
  if (on) painting.add(chart);
  else painting.delete(chart);
}

/// How many leading array curves the draw in progress finds already drawn (in the picture).
export const curvesDrawn = (chart: ChartLike): number => curvesInPicture.get(chart) ?? 0;

export function setCurvesDrawn(chart: ChartLike, count: number): void {
  if (count > 0) curvesInPicture.set(chart, count);
  else curvesInPicture.delete(chart);
}
