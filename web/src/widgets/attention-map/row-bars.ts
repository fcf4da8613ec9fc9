/// The linked row view beside the map: the highlighted query's prediction, its weights over the
/// sorted keys as bars, and its largest weights in a table.
import { chartCanvas, createChart, envelopeBars, scheduleFrame, type Chart } from '../../charts';
import { evenTickIndices } from '../../charts/heatmap';
import type { Palette } from '../../theme/theme';
import { dataTable } from '../../ui/controls';
import { fixed, indexed, pending } from '../../ui/format';
import { liveReadout, setText, testNode } from '../../ui/readout';
import type { MapFrame } from './frame';

/// The most bars the row's chart draws (one per key up to this many keys).
const MAX_BARS = 256;
/// Rows listed in the linked table: the largest weights of the highlighted row.
const LISTED_WEIGHTS = 5;

export interface RowView {
  readonly element: HTMLElement;
  readonly chart: Chart<'bar'>;
  /// Shows `frame`'s highlighted row in `colors`.
  draw(frame: MapFrame, colors: Palette): void;
}

export function rowView(colors: Palette): RowView {
  const { box, canvas } = chartCanvas('Weights of the highlighted query over the sorted keys, on the map’s key axis');
  /// The map's key ticks (its columns are the sorted keys, labelled by location): bar → label.
  let keyTicks = new Map<number, string>();
  const chart = createChart<'bar'>(canvas, {
    type: 'bar',
    data: { labels: [], datasets: [{ label: 'weight', data: [], backgroundColor: colors.orange, barPercentage: 1, categoryPercentage: 1 }] },
    options: {
      scales: {
        x: {
          type: 'category',
          title: { display: true, text: 'key location kᵢ (sorted)' },
          ticks: { autoSkip: false, maxRotation: 0, callback: (_value, index) => keyTicks.get(index) ?? null },
          grid: { display: false },
        },
        y: { type: 'linear', min: 0, max: 1, title: { display: true, text: 'weight' } },
      },
    },
  });

  const query = testNode('strong', 'row-query');
  const prediction = testNode('strong', 'row-prediction');
  const readout = liveReadout('kl-readout', 'query q = ', query, ': prediction (AV) = ', prediction);
  const table = dataTable('Largest weights of the highlighted query', ['key', 'location kᵢ', 'value vᵢ', 'weight']);
  // Until the core answers, blanks of about the numbers' widths: their arrival moves nothing.
  setText(query, pending('0.0000'));
  setText(prediction, pending('0.0000'));

  const element = document.createElement('div');
  element.className = 'kl-map__column';
  element.append(readout, box, table.element);

  function draw(frame: MapFrame, palette: Palette): void {
    const r = frame.row;
    const weights = frame.rowWeights;
    setText(query, fixed(frame.data.queries[r] ?? Number.NaN, 4));
    setText(prediction, fixed(frame.outputs[r] ?? Number.NaN, 4));
    const order = Array.from(weights.keys())
      .sort((a, b) => (weights[b] ?? 0) - (weights[a] ?? 0))
      .slice(0, LISTED_WEIGHTS);
    table.setRows(
      order.map((i) => [
        indexed('k', i + 1),
        fixed(frame.data.keys[i] ?? Number.NaN, 4),
        fixed(frame.data.values[i] ?? Number.NaN, 4),
        fixed(weights[i] ?? Number.NaN, 4),
      ]),
    );
    const top = weights[order[0] ?? 0] ?? 1;
    scheduleFrame(chart, () => {
      const dataset = chart.data.datasets[0];
      if (!dataset) return;
      // 2048 bars would be 0.2 px each and cost a Chart.js element apiece: past MAX_BARS each
      // bar is the largest weight of a group of keys.
      const { labels, points, group } = envelopeBars(weights, MAX_BARS);
      if (chart.data.labels?.length !== labels.length) chart.data.labels = labels;
      // The heat map's ticks: the same sorted keys, labelled by their locations.
      keyTicks = new Map(evenTickIndices(frame.data.keys.length).map((i) => [Math.floor(i / group), fixed(frame.data.keys[i] ?? Number.NaN, 1)]));
      const title = chart.options.scales?.x?.title;
      if (title) title.text = group === 1 ? 'key location kᵢ (sorted)' : `key location kᵢ (sorted; each bar the largest weight of ${group} keys)`;
      dataset.data = points;
      dataset.backgroundColor = palette.orange;
      const y = chart.options.scales?.y;
      if (y) y.max = top > 0.5 ? 1 : Math.ceil(top * 10) / 10 || 0.1;
    });
  }

  return { element, chart, draw };
}
