/// The one adapter between our charts and Chart.js' TypeScript types: every place where those
/// types say less than Chart.js does at run time is here, each with why. Nothing else in web/src
/// casts through `unknown`.
import type { Chart, ChartType, Scale } from 'chart.js';

/// The type every chart helper takes. Chart.js' `Chart` is generic in the chart's type, data and
/// labels, and TypeScript does not take a `Chart<'scatter'>` where the default `Chart` is asked
/// for: helpers that serve charts of every type take `AnyChart` instead.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyChart = Chart<ChartType, any, any>;

/// A chart of a generic type `T` taken as `AnyChart` (inside `createChart`, whose `T` TypeScript
/// cannot match against every chart type at once). A chart of a known type needs no adapter.
export function anyChart<T extends ChartType>(chart: Chart<T>): AnyChart {
  return chart as unknown as AnyChart;
}

/// Bar data in Chart.js' pre-parsed form ({ x: category index, y: value }), which a chart with
/// `parsing: false` reads as it is; the bar dataset's type names only plain numbers.
export function parsedBars(points: Array<{ x: number; y: number }>): number[] {
  return points as unknown as number[];
}

/// An axis' resolved options with the fields a plugin set on it (Chart.js types them as the
/// built-in axis options only).
export function axisOptions<T>(scale: Scale): T {
  return scale.options as unknown as T;
}

/// A chart's options as a plain record, for recolouring field by field (see create.ts
/// `themeOptions`); Chart.js types them as its option proxies.
export function optionsRecord(chart: AnyChart): Record<string, unknown> {
  return chart.options as unknown as Record<string, unknown>;
}
