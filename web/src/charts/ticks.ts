/// Tick labels and tick marks: linear axes label zero with their ticks' decimals, and a marked
/// x axis shows ticks at chosen values with chosen labels (matplotlib's `set_xticks`), drawn on
/// every frame so that a mark moving with a drag costs no new layout.
import { axisOptions, type AnyChart } from './adapter';
import { Ticks, type Chart, type FontSpec, type Plugin, type Scale, type Tick } from 'chart.js';
import { toFont } from 'chart.js/helpers';
import { isPaintingPicture } from './layers';
import { defaultLocaleIsEnglish, englishTickLabel } from './tick-format';
import { ink } from './ink';

/// Whether the charts' labels in the browser's default locale read as `englishTickLabel` writes
/// them (read once: the language does not change under a page).
let english: boolean | null = null;

/// Chart.js' numeric label of the tick at `index`: without Intl where the chart formats in an
/// English default locale (see tick-format.ts), else Chart.js' own formatter.
function numericLabel(scale: Scale, value: number, index: number, ticks: Tick[]): string {
  english ??= defaultLocaleIsEnglish(globalThis.navigator?.language);
  const plain = english && scale.chart.options.locale === undefined && !(scale.options as { ticks?: { format?: unknown } }).ticks?.format;
  return (plain ? englishTickLabel(value, ticks) : null) ?? Ticks.formatters.numeric.call(scale, value, index, ticks);
}

/// The decimal mark of each locale a chart formats in (an Intl formatter is slow to make).
const decimalMarks = new Map<string | undefined, string>();

function decimalMark(scale: Scale): string {
  const { locale } = scale.chart.options;
  let mark = english && locale === undefined ? '.' : decimalMarks.get(locale);
  if (mark === undefined) {
    mark = new Intl.NumberFormat(locale).formatToParts(0.5).find((part) => part.type === 'decimal')?.value ?? '.';
    decimalMarks.set(locale, mark);
  }
  return mark;
}

/// Linear axes label zero with the decimals of their other ticks, as matplotlib does ("0.0"
/// under "0.5"; Chart.js' own formatter writes a bare "0"), and negatives with a minus sign.
export function zeroWithDecimals(this: Scale, value: number | string, index: number, ticks: Tick[]): string {
  // A true minus sign, as matplotlib's tick labels and the figures' read-outs print it.
  const label = numericLabel(this, Number(value), index, ticks).replace('-', '−');
  const neighbour = index === 0 ? 1 : index - 1;
  const other = ticks[neighbour];
  if (value !== 0 || !other) return label;
  // Chart.js formats in the chart's locale: its decimal mark, not a grouping comma.
  const point = decimalMark(this);
  const [, fraction = ''] = numericLabel(this, other.value, neighbour, ticks).split(point);
  const digits = /^\d*/.exec(fraction)?.[0].length ?? 0;
  return digits > 0 ? `0${point}${'0'.repeat(digits)}` : label;
}

/// A tick at a chosen value with a chosen label, as matplotlib's `set_xticks(values, labels)`.
export interface TickMark {
  value: number;
  label: string;
}

/// The marks each chart's marked x axis shows now (set by `setTickMarks`).
const tickMarks = new WeakMap<AnyChart, readonly TickMark[]>();

/// Gap in CSS pixels kept between two tick labels.
const TICK_LABEL_GAP = 6;

/// The marks whose labels fit: in the order given, a mark (placed at pixel `at`) is kept when its
/// label clears every label kept before it. So the first marks win a crowded stretch (the query's
/// "q=3.5" over a key beside it). Returned in axis order.
function fittingMarks(
  marks: readonly { mark: TickMark; at: number }[],
  width: (label: string) => number,
): { mark: TickMark; at: number; width: number }[] {
  const kept: { mark: TickMark; at: number; width: number }[] = [];
  for (const { mark, at } of marks) {
    const labelWidth = width(mark.label);
    const clear = kept.every((other) => Math.abs(other.at - at) >= (labelWidth + other.width) / 2 + TICK_LABEL_GAP);
    if (clear) kept.push({ mark, at, width: labelWidth });
  }
  return kept.sort((a, b) => a.at - b.at);
}

interface MarkedAxisOptions {
  grid: { color?: unknown; tickLength: number };
  ticks: { color?: unknown; font: Partial<FontSpec>; padding: number };
}

/// Options for a chart's x axis whose ticks are the marks last given to `setTickMarks`. Chart.js
/// lays the axis out with room for one row of labels but draws no ticks, labels or vertical grid
/// lines; `tickMarksLayer` draws them on every frame, beneath the datasets.
export function markedTicksAxis() {
  return {
    grid: { display: false },
    ticks: { display: false },
    afterFit(scale: Scale): void {
      const { ticks } = axisOptions<MarkedAxisOptions>(scale);
      scale.height += toFont(ticks.font).lineHeight + 2 * ticks.padding;
    },
  };
}

/// Gives a chart's marked axis (see `markedTicksAxis`) these ticks from its next draw on.
export function setTickMarks(chart: AnyChart, marks: readonly TickMark[]): void {
  tickMarks.set(chart, marks);
}

/// Draws the marks of a marked x axis: a grid line and a tick mark at each, and the labels that
/// fit (`fittingMarks`). Left out of the backdrop's picture: the marks move with the data.
export const tickMarksLayer: Plugin = {
  id: 'klTickMarks',
  beforeDatasetsDraw(chart) {
    const marks = tickMarks.get(chart);
    const scale = chart.scales.x;
    if (!marks || !scale || isPaintingPicture(chart)) return;
    const { grid, ticks } = axisOptions<MarkedAxisOptions>(scale);
    const { ctx, chartArea } = chart;
    const font = toFont(ticks.font);
    ctx.save();
    ctx.font = font.string;
    const onAxis = marks
      .map((mark) => ({ mark, at: scale.getPixelForValue(mark.value) }))
      .filter(({ at }) => at >= chartArea.left - 0.5 && at <= chartArea.right + 0.5);
    const fitting = fittingMarks(onAxis, (label) => ctx.measureText(label).width);
    // Every mark on the axis has its grid line and tick mark; only a crowded label is left out.
    ctx.strokeStyle = ink(chart, grid.color, 'grid');
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const { at } of onAxis) {
      const x = Math.round(at) + 0.5;
      ctx.moveTo(x, chartArea.top);
      ctx.lineTo(x, chartArea.bottom + grid.tickLength);
    }
    ctx.stroke();
    ctx.fillStyle = ink(chart, ticks.color);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const y = scale.top + grid.tickLength + ticks.padding + font.lineHeight / 2;
    for (const { mark, at, width } of fitting) {
      ctx.fillText(mark.label, Math.min(Math.max(at, width / 2), chart.width - width / 2), y);
    }
    ctx.restore();
  },
};
