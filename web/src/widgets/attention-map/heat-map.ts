/// The map's column: its title, the heat map the core coloured (with the k = q trace and the
/// highlighted row), the colour range, and the shapes and row-sum error under it.
import { evenTickIndices, Heatmap, type HeatmapTick, type HeatScale } from '../../charts/heatmap';
import { fixed, pending, scientific } from '../../ui/format';
import { liveReadout, setSentence, setText, testNode } from '../../ui/readout';
import type { MapFrame } from './frame';

/// The most image pixels per side asked of the core before the plot has been laid out.
const FIRST_IMAGE_PIXELS = 512;

/// Ticks at the whole query values inside [first, last], placed by row (row r sits at query r).
function queryTicks(queries: Float64Array): HeatmapTick[] {
  const first = queries[0] ?? 0;
  const last = queries[queries.length - 1] ?? 0;
  const rows = queries.length;
  if (rows < 2 || last === first) return [{ at: 0, label: fixed(first, 1) }];
  const ticks: HeatmapTick[] = [];
  for (let v = Math.ceil(first); v <= Math.floor(last); v++) {
    ticks.push({ at: ((v - first) / (last - first)) * (rows - 1), label: fixed(v, 0) });
  }
  return ticks;
}

/// "(31, 1)": the shape of a flat row-major array with `cols` columns.
const shape = (array: ArrayLike<number>, cols: number): string => `(${array.length / cols}, ${cols})`;

export interface MapView {
  readonly element: HTMLElement;
  readonly heatmap: Heatmap;
  /// The image's size in pixels for `rows` × `cols` cells: at most one pixel per cell, and at most
  /// the plot's device pixels.
  imageSize(rows: number, cols: number): { width: number; height: number };
  draw(frame: MapFrame): void;
}

export function mapView(initial: { h: number; scale: HeatScale }): MapView {
  const heatmap = new Heatmap({
    label: 'Fixed attention matrix: one row per query (first query at the bottom), one column per sorted key, brighter cells carry more weight; a white trace marks k = q',
    xTitle: 'key location kᵢ (sorted)',
    yTitle: 'query q',
    colorbarTitle: 'weight',
  });
  const title = document.createElement('p');
  title.className = 'kl-map__title';
  const range = document.createElement('p');
  range.className = 'kl-map__range';
  const shapes = testNode('code', 'shapes');
  const rowSumError = testNode('strong', 'row-sum-error');
  const errorLine = document.createElement('span');
  errorLine.append('maximum row-sum error: ', rowSumError);
  const summary = liveReadout('kl-readout kl-map__summary', shapes, document.createElement('br'), errorLine);

  const element = document.createElement('div');
  element.className = 'kl-map__column';
  // The shapes and the row-sum error sit under the map, beside the taller row view.
  element.append(title, heatmap.element, range, summary);
  // Until the core answers, every line is there with blanks of about its numbers' widths: their
  // arrival moves nothing (no layout shift).
  setText(title, `Fixed attention matrix, h = ${fixed(initial.h, 2)}`);
  setSentence(range, pending('Linear colour scale: black = 0.00e-000, the smallest weight (0 to four decimals); brightest = 0.0000, the largest. Each row’s weights sum to 1. At h = 0.00 no weight underflows: the smallest is 0.00e-000 > 0.'));
  setText(shapes, pending('Q (00, 0), K (00, 0), V (00, 0), A (00, 00), AV (00, 0)'));
  setText(rowSumError, pending('0.00e-00'));

  /// Image pixels for `cells` keys or queries along a side the plot shows in `shown` device pixels.
  const imagePixels = (cells: number, shown: number): number => Math.min(cells, shown > 0 ? shown : FIRST_IMAGE_PIXELS);

  function imageSize(rows: number, cols: number): { width: number; height: number } {
    const shown = heatmap.devicePixels;
    return { width: imagePixels(cols, shown.width), height: imagePixels(rows, shown.height) };
  }

  function draw(frame: MapFrame): void {
    const { queries, keys, values } = frame.data;
    setText(shapes, `Q ${shape(queries, 1)}, K ${shape(keys, 1)}, V ${shape(values, 1)}, A (${queries.length}, ${keys.length}), AV ${shape(frame.outputs, 1)}`);
    setText(rowSumError, scientific(frame.rowSumError));
    heatmap.draw({
      image: frame.image,
      rows: queries.length,
      cols: keys.length,
      scale: frame.scale,
      xTicks: evenTickIndices(keys.length).map((i) => ({ at: i, label: fixed(keys[i] ?? Number.NaN, 1) })),
      yTicks: queryTicks(queries),
      trace: frame.data.trace,
      // The chapter's imshow extent spans the first to the last query: the k = q trace runs
      // from edge to edge and the query ticks sit at their values.
      rowsEdgeToEdge: true,
    });
    setText(title, `Fixed attention matrix, h = ${fixed(frame.h, 2)}`);
    const { low, high, zeros } = frame.image.range;
    // What the colours mean, and whether any weight underflowed at this h (the core says).
    const colours =
      frame.scale === 'log'
        ? `Log colour scale: black = ${scientific(low)}, the smallest positive weight; brightest = ${fixed(high, 4)}, the largest; equal colour steps multiply the weight by equal factors.`
        : `Linear colour scale: black = ${scientific(low)}, the smallest weight (0 to four decimals); brightest = ${fixed(high, 4)}, the largest. Each row’s weights sum to 1.`;
    const underflow = zeros
      ? ` At h = ${fixed(frame.h, 2)} some weights underflow to exactly 0${frame.scale === 'log' ? ' (grey cells)' : ' (switch to the log scale to see them grey)'}.`
      : ` At h = ${fixed(frame.h, 2)} no weight underflows: the smallest is ${scientific(low)} > 0.`;
    setSentence(range, colours + underflow);
  }

  return { element, heatmap, imageSize, draw };
}
