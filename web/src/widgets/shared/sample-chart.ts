/// The chart of the chapter's sample: query q across the dense grid, prediction from −2 to 2,
/// the truth curve and the noisy points beneath the prediction curves a figure draws over them.
import { createChart, curveDataset, curveLayer, lineLegend, pointsDataset, type Chart } from '../../charts';
import { withAlpha, type Palette } from '../../theme/theme';
import type { ChapterSample, DenseGrid } from './chapter-sample';

/// The empty chart over `grid`'s query range (its datasets come with `sampleDatasets`).
export function sampleChart(canvas: HTMLCanvasElement, grid: DenseGrid): Chart<'scatter'> {
  return createChart<'scatter'>(canvas, {
    type: 'scatter',
    data: { datasets: [] },
    options: {
      plugins: { legend: lineLegend() },
      scales: {
        x: { type: 'linear', min: grid.start, max: grid.stop, title: { display: true, text: 'query q' } },
        y: { type: 'linear', min: -2, max: 2, title: { display: true, text: 'prediction' } },
      },
    },
    // The truth and the prediction curves: hundreds of points each, drawn from the core's arrays.
    plugins: [curveLayer],
  });
}

/// The truth curve on the dense grid and the sample's points, labelled `label`.
export function sampleDatasets(colors: Palette, sample: ChapterSample, label: string) {
  const dots = withAlpha(colors.sample, 0.72);
  return [
    curveDataset({ label: 'truth', borderColor: colors.truth, backgroundColor: colors.truth, borderWidth: 2, pointRadius: 0 }, { xs: sample.dense, ys: sample.truth }),
    pointsDataset({ label, backgroundColor: dots, borderColor: dots, pointRadius: 3 }, { xs: sample.keys, ys: sample.observed }),
  ];
}

/// A prediction curve over `xs` in `color`.
export function predictionCurve(label: string, color: string, xs: Float64Array, ys: Float64Array, width = 2) {
  return curveDataset({ label, borderColor: color, backgroundColor: color, borderWidth: width, pointRadius: 0 }, { xs, ys });
}

/// A curve's ±2 sd band as its two dashed edges, curve ± 2 sd (the lower one unlabelled, so the
/// legend lists the band once); nothing while the curve or its sd is missing.
export function bandEdges(xs: Float64Array, curve: Float64Array | null | undefined, sd: Float64Array | null | undefined, color: string, label: string, alpha: number) {
  if (!curve || !sd || sd.length !== curve.length) return [];
  const ink = withAlpha(color, alpha);
  return ([1, -1] as const).map((sign) =>
    curveDataset(
      { label: sign === 1 ? label : '', borderColor: ink, backgroundColor: ink, borderWidth: 1, borderDash: [3, 3], pointRadius: 0 },
      { xs, ys: curve.map((y, j) => y + sign * 2 * (sd[j] ?? Number.NaN)) },
    ),
  );
}
