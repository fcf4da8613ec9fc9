/// The type every chart helper takes. Chart.js' `Chart` is generic in the chart's type, data and
/// labels, and TypeScript does not take a `Chart<'scatter'>` where the default `Chart` is asked
/// for: helpers that serve charts of every type take `AnyChart` instead.
import type { Chart, ChartType } from 'chart.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyChart = Chart<ChartType, any, any>;

/// The one place a chart of a generic type `T` is taken as `AnyChart` (inside `createChart`, whose
/// `T` TypeScript cannot match against every chart type at once). A chart of a known type needs
/// no adapter: it is an `AnyChart` as it is.
export function anyChart<T extends ChartType>(chart: Chart<T>): AnyChart {
  return chart as unknown as AnyChart;
}
