/// The charts of the figures, on Chart.js' public API: one concept per file.
///   create.ts    Chart.js registration, `createChart`, `chartCanvas`, canvas fonts
///   frame.ts     one draw per chart per frame (`scheduleFrame`)
///   backdrop.ts  the fast path of a drag's frames (kept layout, picture of the backdrop)
///   curves.ts    curves and marker sets drawn from arrays, in-place dataset edits
///   export.ts    a chart as PNG (loaded when a reader downloads one)
///   ticks.ts     tick labels and tick marks chosen by the figure
///   explore.ts   a chart's keyboard stop, summary, point reading and data table
///   distinct.ts  distinct dash patterns for curves sharing a chart
///   legend.ts    the legend below a chart
///   stars.ts     five-pointed star markers
///   bars.ts      weight bar charts and printed bar values
///   print.ts     every chart drawn with its latest data, at the paper's width, for printing
///   heatmap.ts   matrices drawn as images (magma.ts: the colour map)
export type { Chart, LegendItem, Plugin } from 'chart.js';
export { barPoints, barValueLabels, envelopeBars, weightBarChart, weightTick, type WeightBarOptions } from './bars';
export { canvasFont, chartCanvas, chartSettled, createChart, isChart } from './create';
export type { AnyChart } from './adapter';
export { explorable, nameAxes } from './explore';
export { curveDataset, curveLayer, pointsDataset, setDatasets, type CurveArrays } from './curves';
export { onChartsDrew, scheduleFrame } from './frame';
export { boxLegend, lineLegend } from './legend';
export { recolorStars, starDataset } from './stars';
export { markedTicksAxis, setTickMarks, type TickMark } from './ticks';
