/// Figure 12.1's two panels: the points with the query, the prediction star and the weighted
/// connecting lines (left), and the weight bars with their values (right).
import { barPoints, canvasFont, chartCanvas, createChart, scheduleFrame, setDatasets, recolorStars, markedTicksAxis, setTickMarks, starDataset, weightBarChart, type Chart } from '../../charts';
import { palette, withAlpha, type Palette } from '../../theme/theme';
import { fixed, indexed, significant } from '../../ui/format';
import type { Plugin } from '../../charts';

export const X_RANGE = { min: 0, max: 6 } as const;
export const Y_RANGE = { min: 0, max: 4 } as const;

export interface LookupFrame {
  keys: readonly number[];
  values: readonly number[];
  query: number;
  prediction: number;
  weights: Float64Array;
}

type XY = { x: number; y: number };

/// Bar colours of the chapter's k1, k2, k3, repeated for further keys.
function barColors(colors: Palette, n: number): string[] {
  const cycle = [colors.grey, colors.orange, colors.brown];
  return Array.from({ length: n }, (_, i) => cycle[i % 3] ?? colors.grey);
}

/// Writes "f̂(q) = 2.74" beside the star, as the chapter's annotation does. The hat is drawn as a
/// small chevron over the "f": a combining circumflex (U+0302) after "f" is dropped or misplaced
/// by common sans-serif fonts at this size on a canvas.
const predictionLabel: Plugin<'scatter'> = {
  id: 'klPredictionLabel',
  afterDatasetsDraw(chart) {
    const star = chart.getDatasetMeta(1).data[0];
    const value = (chart.data.datasets[1]?.data[0] as XY | undefined)?.y;
    if (!star || value === undefined || !Number.isFinite(value)) return;
    const { ctx } = chart;
    ctx.save();
    const ink = palette(chart).brown;
    ctx.fillStyle = ink;
    ctx.strokeStyle = ink;
    ctx.font = canvasFont(13, undefined, chart);
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    const text = `f(q) = ${fixed(value, 2)}`;
    const right = star.x > chart.chartArea.right - 90;
    const left = right ? star.x - 8 - ctx.measureText(text).width : star.x + 8;
    const baseline = star.y + 22;
    ctx.fillText(text, left, baseline);
    const f = ctx.measureText('f');
    const middle = left + f.width / 2 + 0.5;
    const top = baseline - f.actualBoundingBoxAscent - 1.5;
    ctx.lineWidth = 1.1;
    ctx.beginPath();
    ctx.moveTo(middle - 2.6, top);
    ctx.lineTo(middle, top - 2.8);
    ctx.lineTo(middle + 2.6, top);
    ctx.stroke();
    ctx.restore();
  },
};

export class LookupView {
  readonly scatterBox: HTMLDivElement;
  readonly barBox: HTMLDivElement;
  readonly scatter: Chart<'scatter'>;
  readonly bars: Chart<'bar'>;
  private colors = palette();

  constructor() {
    const left = chartCanvas(
      'Query nearby evidence: the observed points, the query line, the prediction star and connecting lines whose width follows each weight',
      'kl-chart kl-chart--interactive',
    );
    const right = chartCanvas('Similarity decides the mix: the normalized weight of each key as a bar');
    this.scatterBox = left.box;
    this.barBox = right.box;
    const c = this.colors;
    this.scatter = createChart(left.canvas, {
      type: 'scatter',
      data: {
        datasets: [
          { label: 'observations', data: [], backgroundColor: c.navy, borderColor: c.navy, pointRadius: 6, order: 0 },
          // Above the points, as the chapter's star (zorder 4 over the points' 3).
          starDataset({ label: 'prediction', data: [], order: -1 }, c.orange, 10),
          {
            label: 'query',
            showLine: true,
            data: [],
            borderColor: c.orange,
            borderDash: [6, 4],
            borderWidth: 1.4,
            pointRadius: 0,
            order: 3,
          },
        ],
      },
      options: {
        plugins: { title: { display: true, text: 'Query nearby evidence' } },
        scales: {
          // As the chapter's set_xticks: a tick at each key and one at the query ("q=3.5").
          x: { type: 'linear', ...X_RANGE, title: { display: true, text: 'location' }, ...markedTicksAxis() },
          y: { type: 'linear', ...Y_RANGE, title: { display: true, text: 'value' } },
        },
      },
      plugins: [predictionLabel],
    });
    this.bars = weightBarChart(right.canvas, {
      datasets: [{ label: 'weight', data: [], backgroundColor: [] }],
      title: 'normalized weight',
      heading: 'Similarity decides the mix',
    });
  }

  draw(frame: LookupFrame): void {
    scheduleFrame(this.scatter, () => this.fillScatter(frame));
    scheduleFrame(this.bars, () => this.fillBars(frame));
  }

  recolor(colors: Palette, frame: LookupFrame | null): void {
    this.colors = colors;
    const [points, star, query] = this.scatter.data.datasets;
    if (points) points.backgroundColor = points.borderColor = colors.navy;
    recolorStars(star, colors.orange);
    if (query) query.borderColor = colors.orange;
    if (frame) this.draw(frame);
    else for (const chart of [this.scatter, this.bars] as Chart[]) scheduleFrame(chart, () => undefined);
  }

  private fillScatter(frame: LookupFrame): void {
    const c = this.colors;
    const datasets = this.scatter.data.datasets;
    const [points, star, query] = datasets;
    if (!points || !star || !query) return;
    points.data = frame.keys.map((x, i) => ({ x, y: frame.values[i] ?? 0 }));
    star.data = [{ x: frame.query, y: frame.prediction }];
    query.data = [
      { x: frame.query, y: Y_RANGE.min },
      { x: frame.query, y: Y_RANGE.max },
    ];
    const links = frame.keys.map((x, i) => {
      const weight = frame.weights[i] ?? 0;
      return {
        label: `link ${i + 1}`,
        showLine: true,
        data: [
          { x: frame.query, y: frame.prediction },
          { x, y: frame.values[i] ?? 0 },
        ],
        borderColor: withAlpha(c.brown, 0.25 + 0.7 * weight),
        borderWidth: 0.8 + 5 * weight,
        pointRadius: 0,
        order: 2,
      };
    });
    setDatasets(this.scatter, [points, star, query, ...links] as typeof datasets);
    setTickMarks(this.scatter, [
      { value: frame.query, label: `q=${significant(frame.query, 3)}` },
      ...frame.keys.map((key) => ({ value: key, label: significant(key, 3) })),
    ]);
  }

  private fillBars(frame: LookupFrame): void {
    const dataset = this.bars.data.datasets[0];
    if (!dataset) return;
    this.bars.data.labels = frame.keys.map((_, i) => indexed('k', i + 1));
    dataset.data = barPoints(frame.weights);
    dataset.backgroundColor = barColors(this.colors, frame.keys.length);
  }
}
