/// The charts' legend: one row or more of entries below the plot, each a handle and the dataset's
/// label. It takes the place (and the option key, `plugins.legend`) of Chart.js' own legend and is
/// a layout box of its own: Chart.js sizes and places it when the chart is laid out, and its
/// entries are built from the datasets whenever it is drawn, so a frame of a drag that keeps the
/// layout still shows the labels' new digits ("h=0.18") and colours.
//
// Handles: `lineLegend()` entries show a dataset as matplotlib's legend does, a short line in its
// colour, width and dash (with a marker in its middle when the line has markers) or a lone marker
// for a set of points; other legends show a filled box in the dataset's colour.
import type { AnyChart } from './adapter';
import { layouts, type Chart, type Plugin } from 'chart.js';
import { drawPoint } from 'chart.js/helpers';
import { dashOf, ink } from './ink';
import { isPaintingPicture } from './layers';
import { palette } from '../theme/theme';

/// The length of a line handle, in CSS pixels.
const HANDLE_WIDTH = 26;
/// The width of a box handle, in CSS pixels.
const BOX_WIDTH = 30;
/// Room around and between entries, in CSS pixels.
const PADDING = 10;
const DEFAULT_SIZE = 12;

/// An entry of the legend (the fields Chart.js' LegendItem shares, for `sort`).
export interface LegendEntry {
  datasetIndex: number;
  text: string;
}

interface LegendOptions {
  display?: boolean;
  labels?: {
    /// Line handles (`lineLegend`) instead of boxes.
    usePointStyle?: boolean;
    font?: { size?: number };
    sort?: (a: LegendEntry, b: LegendEntry) => number;
  };
}

/// Options of a legend below the chart with line handles; `labels` adds to or overrides the
/// label options (font size, sort).
export function lineLegend(labels: Record<string, unknown> = {}) {
  return { display: true, position: 'bottom' as const, labels: { usePointStyle: true, ...labels } };
}

/// Options of a legend below the chart with box handles (bar charts).
export function boxLegend() {
  return { display: true, position: 'bottom' as const };
}

/// The dataset fields a handle is drawn from: an array dataset's, or a Chart.js line's or bar's.
interface HandleLook {
  klCurve?: unknown;
  klPoints?: unknown;
  label?: unknown;
  showLine?: boolean;
  pointStyle?: unknown;
  pointRadius?: unknown;
  borderColor?: unknown;
  borderWidth?: unknown;
  borderDash?: unknown;
  backgroundColor?: unknown;
}

/// The legend box of each chart.
const boxes = new WeakMap<AnyChart, LegendBox>();

class LegendBox {
  position = 'bottom' as const;
  fullSize = true;
  weight = 1000;
  left = 0;
  top = 0;
  right = 0;
  bottom = 0;
  width = 0;
  height = 0;
  options: LegendOptions = {};
  /// Entry counts of the rows laid out (the entries after a layout keep these rows).
  private rows: number[] = [];

  constructor(private readonly chart: AnyChart) {}

  isHorizontal(): boolean {
    return true;
  }

  private get size(): number {
    return this.options.labels?.font?.size ?? DEFAULT_SIZE;
  }

  private get lineHeight(): number {
    return Math.round(this.size * 1.2);
  }

  private get handleWidth(): number {
    return this.options.labels?.usePointStyle ? HANDLE_WIDTH : BOX_WIDTH;
  }

  private font(): string {
    return `${this.size}px ${palette(this.chart).font}`;
  }

  entries(): LegendEntry[] {
    const entries: LegendEntry[] = [];
    this.chart.data.datasets.forEach((dataset, datasetIndex) => {
      if (typeof dataset.label === 'string' && dataset.label !== '') entries.push({ datasetIndex, text: dataset.label });
    });
    const sort = this.options.labels?.sort;
    return sort ? entries.sort(sort) : entries;
  }

  private itemWidth(ctx: CanvasRenderingContext2D, entry: LegendEntry): number {
    return this.handleWidth + this.size / 2 + ctx.measureText(entry.text).width;
  }

  /// Chart.js' layout: the box spans `maxWidth`; its height holds the rows the entries need.
  update(maxWidth: number): void {
    this.width = maxWidth;
    this.rows = [];
    if (!this.options.display) {
      this.height = 0;
      return;
    }
    const { ctx } = this.chart;
    ctx.save();
    ctx.font = this.font();
    let used = 0;
    for (const entry of this.entries()) {
      const width = this.itemWidth(ctx, entry);
      const last = this.rows.length - 1;
      if (last >= 0 && used + PADDING + width <= maxWidth - 2 * PADDING) {
        this.rows[last] = (this.rows[last] ?? 0) + 1;
        used += PADDING + width;
      } else {
        this.rows.push(1);
        used = width;
      }
    }
    ctx.restore();
    this.height = this.rows.length > 0 ? this.rows.length * (this.lineHeight + PADDING) + PADDING : 0;
  }

  draw(): void {
    if (!isPaintingPicture(this.chart)) this.paint();
  }

  /// Draws the entries in the rows of the last layout, each row centred.
  paint(): void {
    if (!this.options.display || this.rows.length === 0) return;
    const { ctx } = this.chart;
    const entries = this.entries();
    ctx.save();
    ctx.font = this.font();
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    let next = 0;
    this.rows.forEach((count, row) => {
      const items = entries.slice(next, next + count);
      next += count;
      const widths = items.map((entry) => this.itemWidth(ctx, entry));
      const total = widths.reduce((sum, width) => sum + width, 0) + PADDING * (items.length - 1);
      let x = this.left + (this.width - total) / 2;
      const middle = this.top + PADDING + row * (this.lineHeight + PADDING) + this.lineHeight / 2;
      items.forEach((entry, i) => {
        const dataset = this.chart.data.datasets[entry.datasetIndex] as HandleLook | undefined;
        if (dataset) this.handle(ctx, dataset, x, middle);
        ctx.fillStyle = palette(this.chart).text;
        ctx.fillText(entry.text, x + this.handleWidth + this.size / 2, middle);
        x += (widths[i] ?? 0) + PADDING;
      });
    });
    ctx.restore();
  }

  private handle(ctx: CanvasRenderingContext2D, dataset: HandleLook, left: number, y: number): void {
    const chart = this.chart;
    ctx.save();
    if (!this.options.labels?.usePointStyle) {
      const fill = Array.isArray(dataset.backgroundColor) ? dataset.backgroundColor[0] : dataset.backgroundColor;
      ctx.fillStyle = ink(chart, fill, 'grey');
      ctx.fillRect(left, y - this.size / 2, BOX_WIDTH, this.size);
      const border = Array.isArray(dataset.borderColor) ? dataset.borderColor[0] : dataset.borderColor;
      if (typeof dataset.borderWidth === 'number' && dataset.borderWidth > 0 && typeof border === 'string') {
        ctx.strokeStyle = border;
        ctx.lineWidth = Math.min(dataset.borderWidth, 2);
        ctx.strokeRect(left + 0.5, y - this.size / 2 + 0.5, BOX_WIDTH - 1, this.size - 1);
      }
      ctx.restore();
      return;
    }
    const line = dataset.klCurve !== undefined || (dataset.klPoints === undefined && dataset.showLine === true);
    const radius = typeof dataset.pointRadius === 'number' ? dataset.pointRadius : 3;
    const marker = dataset.klPoints !== undefined || (dataset.klCurve === undefined && radius > 0);
    if (line) {
      ctx.strokeStyle = ink(chart, dataset.borderColor);
      ctx.lineWidth = typeof dataset.borderWidth === 'number' ? Math.min(dataset.borderWidth, 4) : 2;
      ctx.setLineDash(dashOf(dataset.borderDash));
      ctx.beginPath();
      ctx.moveTo(left, y);
      ctx.lineTo(left + HANDLE_WIDTH, y);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (marker) {
      ctx.fillStyle = ink(chart, dataset.backgroundColor ?? dataset.borderColor);
      ctx.strokeStyle = ink(chart, dataset.borderColor ?? dataset.backgroundColor);
      const pointStyle = typeof dataset.pointStyle === 'string' ? dataset.pointStyle : 'circle';
      drawPoint(ctx, { pointStyle: pointStyle as 'circle', radius: Math.min(Math.max(radius, 2.5), 4.5), borderWidth: 1, rotation: 0 }, left + HANDLE_WIDTH / 2, y);
    }
    ctx.restore();
  }
}

/// Draws `chart`'s legend entries where its last layout put them (the fast path's frames, drawn
/// over a picture without them).
export function drawLegend(chart: AnyChart): void {
  boxes.get(chart)?.paint();
}

/// The legend plugin: its box joins the chart's layout while the chart lives.
export const legend: Plugin = {
  id: 'legend',
  defaults: { display: false },
  start(chart) {
    const box = new LegendBox(chart);
    boxes.set(chart, box);
    layouts.addBox(chart, box as never);
  },
  stop(chart) {
    const box = boxes.get(chart);
    if (box) layouts.removeBox(chart, box as never);
    boxes.delete(chart);
  },
  beforeUpdate(chart, _args, options) {
    const box = boxes.get(chart);
    if (box) box.options = options as LegendOptions;
  },
};
