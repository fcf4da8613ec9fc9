/// The charts of the figures, on Chart.js' public API: one concept per file.
///   theme.ts     palettes per theme root, `applyTheme`, theme-change subscriptions
///   create.ts    Chart.js registration, `createChart`, `chartCanvas`, canvas fonts
///   frame.ts     one draw per chart per frame (`scheduleFrame`)
///   backdrop.ts  the fast path of a drag's frames (kept layout, picture of the backdrop)
///   curves.ts    curves and marker sets drawn from arrays, in-place dataset edits
///   ticks.ts     tick labels and tick marks chosen by the figure
///   legend.ts    the legend below a chart
///   stars.ts     five-pointed star markers
///   bars.ts      weight bar charts and printed bar values
///   heatmap.ts   matrices drawn as images (magma.ts: the colour map)
export type { Chart, Plugin } from 'chart.js';
export { barPoints, barValueLabels, envelopeBars, weightBarChart, weightTick, type WeightBarOptions } from './bars';
export { canvasFont, chartCanvas, createChart } from './create';
export { curveDataset, curveLayer, pointsDataset, setDatasets, type CurveArrays } from './curves';
export { scheduleFrame } from './frame';
export { boxLegend, lineLegend } from './legend';
export { recolorStars, starDataset } from './stars';
export { applyTheme, onThemeChange, palette, setThemeSource, themeMode, withAlpha, type Palette, type ThemeMode } from './theme';
export { markedTicksAxis, setTickMarks, type TickMark } from './ticks';
