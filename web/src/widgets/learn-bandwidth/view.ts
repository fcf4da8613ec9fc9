/// The learn-bandwidth figure's panels: the leave-one-out curve with the descent's steps on it,
/// the fitted curve on the chapter's sample and the attention map at the current h, and the
/// read-out of the current step.
import { chartCanvas, createChart, curveDataset, curveLayer, lineLegend, pointsDataset, scheduleFrame, setDatasets } from '../../charts';
import { evenTickIndices, Heatmap, queryKeyReader } from '../../charts/heatmap';
import { withAlpha, type Palette } from '../../theme/theme';
import { fixed, pending, significant } from '../../ui/format';
import type { WidgetHost } from '../../ui/host/widget';
import { liveReadout, setText, testNode } from '../../ui/readout';
import type { ChapterSample, DenseGrid } from '../shared/chapter-sample';
import { predictionCurve, sampleChart, sampleDatasets } from '../shared/sample-chart';

/// The chapter's sample with the attention map's queries and the leave-one-out curve.
export interface Sample extends ChapterSample {
  mapQueries: Float64Array;
  trace: Float64Array;
  curveBandwidths: Float64Array;
  curveRisks: Float64Array;
}

/// A descent run: h, R(h) and ∂R/∂log h at steps 0, 1, …
export interface Descent {
  bandwidths: Float64Array;
  risks: Float64Array;
  gradients: Float64Array;
}

export interface LearnView {
  readonly curveBox: HTMLElement;
  readonly readout: HTMLElement;
  readonly fitBox: HTMLElement;
  readonly mapElement: HTMLElement;
  /// Sets the risk axis' top so that it holds the whole leave-one-out curve.
  fitRiskAxis(risks: Float64Array): void;
  /// Draws every panel at the descent's last step; without `fit` and `weights`, the last ones drawn.
  paint(sample: Sample, descent: Descent, colors: Palette, fit?: Float64Array, weights?: Float64Array): void;
}

/// The panels over the dense grid `grid` and `minH`…`maxH` on the bandwidth axis, owned by `host`.
export function learnView(host: Pick<WidgetHost, 'own'>, grid: DenseGrid, minH: number, maxH: number): LearnView {
  const curveBox = chartCanvas('The leave-one-out risk of the Gaussian rule against the bandwidth, with the steps of gradient descent on it', 'kl-chart');
  const fitBox = chartCanvas('The chapter sample, the truth and the Nadaraya–Watson curve at the current learned bandwidth', 'kl-chart');
  const riskChart = host.own(
    createChart<'scatter'>(curveBox.canvas, {
      type: 'scatter',
      data: { datasets: [] },
      options: {
        plugins: { legend: lineLegend() },
        scales: {
          x: { type: 'logarithmic', min: minH, max: maxH, title: { display: true, text: 'bandwidth h (log scale)' } },
          y: { type: 'linear', min: 0, max: 0.6, title: { display: true, text: 'risk R(h)' } },
        },
      },
      plugins: [curveLayer],
    }),
  );
  const fitChart = host.own(sampleChart(fitBox.canvas, grid));
  const map = host.own(
    new Heatmap({
      label: 'The attention matrix at the current learned bandwidth: 31 queries by 60 sorted keys',
      xTitle: 'key location kᵢ (sorted)',
      yTitle: 'query q',
      colorbarTitle: 'weight',
    }),
  );
  const stepText = testNode('strong', 'learn-step');
  const hText = testNode('strong', 'learn-bandwidth');
  const riskText = testNode('strong', 'learn-risk');
  const gradientText = testNode('strong', 'learn-gradient');
  const readout = liveReadout('kl-readout', 'Step ', stepText, ': h = ', hText, ', leave-one-out risk ', riskText, ', ∂R/∂log h = ', gradientText, '.');
  // Until the first step is computed, the read-out's blanks are about its numbers' widths.
  setText(stepText, pending('0'));
  setText(hText, pending('0.000'));
  setText(riskText, pending('0.0000'));
  setText(gradientText, pending('−0.0000'));
  let lastFit: Float64Array | undefined;
  let lastMap: Float64Array | undefined;

  return {
    curveBox: curveBox.box,
    readout,
    fitBox: fitBox.box,
    mapElement: map.element,

    fitRiskAxis(risks) {
      // The risk axis holds the whole curve: its top is the first of 0.2, 0.4, … above the largest risk.
      const y = riskChart.options.scales?.y;
      const largest = risks.reduce((top, r) => (Number.isFinite(r) ? Math.max(top, r) : top), 0);
      if (y) y.max = Math.max(0.2, Math.ceil((largest * 1.05) / 0.2) * 0.2);
    },

    paint(s, d, colors, fit = lastFit, weights = lastMap) {
      lastFit = fit;
      lastMap = weights;
      const t = d.bandwidths.length - 1;
      const h = d.bandwidths[t] ?? Number.NaN;
      const accent = colors.orange;
      const path = colors.series[1] ?? colors.navy;
      scheduleFrame(riskChart, () => {
        setDatasets(riskChart, [
          predictionCurve('leave-one-out risk', colors.truth, s.curveBandwidths, s.curveRisks),
          curveDataset({ label: 'descent steps', borderColor: withAlpha(path, 0.8), backgroundColor: path, borderWidth: 1.5, pointRadius: 0 }, { xs: d.bandwidths, ys: d.risks }),
          pointsDataset({ label: '', backgroundColor: path, borderColor: path, pointRadius: 3 }, { xs: d.bandwidths, ys: d.risks }),
          pointsDataset({ label: 'current h', backgroundColor: accent, borderColor: accent, pointRadius: 6 }, { xs: [h], ys: [d.risks[t] ?? Number.NaN] }),
        ]);
      });
      if (fit) {
        scheduleFrame(fitChart, () => {
          setDatasets(fitChart, [...sampleDatasets(colors, s, 'the chapter’s sample'), predictionCurve(`h = ${significant(h, 3)}`, accent, s.dense, fit)]);
        });
      }
      if (weights) {
        map.reader = queryKeyReader(map, () => ({ queries: s.mapQueries, keys: s.keys }));
        map.draw({
          values: weights,
          rows: s.mapQueries.length,
          cols: s.keys.length,
          scale: 'linear',
          xTicks: evenTickIndices(s.keys.length).map((i) => ({ at: i, label: fixed(s.keys[i] ?? Number.NaN, 1) })),
          yTicks: evenTickIndices(s.mapQueries.length).map((r) => ({ at: r, label: fixed(s.mapQueries[r] ?? Number.NaN, 1) })),
          trace: s.trace,
        });
      }
      setText(stepText, String(t));
      setText(hText, significant(h, 4));
      setText(riskText, fixed(d.risks[t] ?? Number.NaN, 4));
      setText(gradientText, fixed(d.gradients[t] ?? Number.NaN, 4));
    },
  };
}
