/// A matrix drawn as an image: one canvas pixel per cell (ImageData on a canvas the size of the
/// data, scaled by CSS), the 'magma' palette on a linear or logarithmic scale, tick labels, a
/// colour bar, an optional white trace and a highlighted row. Large maps (2048 × 2048) stay one
/// image, never one element per cell. Colours are drawing only: the values come from the core.
import { exploreHeatmap, type CellReader } from './heat-explore';
export { queryKeyReader, type CellReader } from './heat-explore';
import { nextFrame } from './frame';
import { MAGMA_HEX } from './magma';
import { onThemeChange, palette } from '../theme/theme';
import './heatmap.css';

export type HeatScale = 'linear' | 'log';

/// A tick at `at` in cell coordinates (the centre of column or row i is at i).
export interface HeatmapTick {
  at: number;
  label: string;
}

/// A map the core has already coloured (its attentionMap call): RGBA pixels, top row first
/// (the last rows of the matrix), each pixel the mean of the cells it covers.
export interface HeatmapImage {
  pixels: Uint8Array<ArrayBuffer>;
  width: number;
  height: number;
  /// The range its colours span (the colour bar's ticks).
  range: ColorRange;
}

export interface HeatmapFrame {
  /// (rows, cols), row-major: coloured here. Or `image`, coloured by the core.
  values?: ArrayLike<number>;
  image?: HeatmapImage;
  rows: number;
  cols: number;
  scale: HeatScale;
  xTicks: readonly HeatmapTick[];
  yTicks: readonly HeatmapTick[];
  /// A white polyline through (trace[r], r), one column coordinate per row.
  trace?: ArrayLike<number>;
  /// Row coordinates (the trace, the y ticks) run from the bottom edge (0) to the top edge
  /// (rows − 1), as matplotlib's imshow with extent (…, first query, last query) places them;
  /// by default each row's coordinate is the middle of its cells.
  rowsEdgeToEdge?: boolean;
}

/// Where row coordinate `row` sits, as a fraction of the plot's height from the bottom.
function rowFraction(frame: HeatmapFrame, row: number): number {
  return frame.rowsEdgeToEdge && frame.rows > 1 ? row / (frame.rows - 1) : (row + 0.5) / frame.rows;
}

export interface HeatmapOptions {
  /// Accessible name of the image.
  label: string;
  xTitle: string;
  yTitle: string;
  colorbarTitle: string;
}

/// The value range a frame's colours span: [low, high]; on a log scale low is the smallest
/// positive value and `zeros` tells whether exact zeros (underflow) are present.
export interface ColorRange {
  low: number;
  high: number;
  zeros: boolean;
}

const MAGMA: Uint8Array = Uint8Array.from(MAGMA_HEX.match(/../g) ?? [], (byte) => parseInt(byte, 16));

/// RGB of magma at t ∈ [0, 1] (nearest of the 256 entries, like matplotlib's lookup table).
export function magma(t: number): [number, number, number] {
  const i = 3 * Math.min(255, Math.max(0, Math.floor(t * 256)));
  return [MAGMA[i] ?? 0, MAGMA[i + 1] ?? 0, MAGMA[i + 2] ?? 0];
}

export function colorRange(values: ArrayLike<number>, scale: HeatScale): ColorRange {
  let low = Infinity;
  let high = -Infinity;
  let zeros = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? Number.NaN;
    if (!Number.isFinite(v)) continue;
    if (v > high) high = v;
    if (scale === 'log') {
      if (v <= 0) zeros = true;
      else if (v < low) low = v;
    } else if (v < low) {
      low = v;
    }
  }
  if (!Number.isFinite(low) || !Number.isFinite(high)) return { low: 0, high: 1, zeros };
  return { low, high, zeros };
}

/// Position in [0, 1] of `v` on the colour scale; NaN for values the scale cannot place.
function position(v: number, range: ColorRange, scale: HeatScale): number {
  if (scale === 'log') {
    if (!(v > 0)) return Number.NaN;
    const span = Math.log10(range.high) - Math.log10(range.low);
    return span > 0 ? (Math.log10(v) - Math.log10(range.low)) / span : 1;
  }
  const span = range.high - range.low;
  return span > 0 ? (v - range.low) / span : 1;
}

/// Round tick values covering [low, high] on the colour bar.
function colorbarTicks(range: ColorRange, scale: HeatScale): HeatmapTick[] {
  const ticks: HeatmapTick[] = [];
  if (scale === 'log') {
    const lo = Math.ceil(Math.log10(range.low) - 1e-9);
    const hi = Math.floor(Math.log10(range.high) + 1e-9);
    const stride = Math.round(niceStep(Math.max(1, (hi - lo) / 5)));
    for (let k = Math.floor(hi / stride) * stride; k >= lo; k -= stride) {
      ticks.push({ at: position(10 ** k, range, scale), label: powerOfTen(k) });
    }
    return ticks;
  }
  const span = range.high - range.low;
  if (!(span > 0)) return [{ at: 1, label: tickText(range.high, 1) }];
  const step = niceStep(span / 5);
  for (let v = Math.ceil(range.low / step - 1e-6) * step; v <= range.high + step * 1e-9; v += step) {
    ticks.push({ at: position(v, range, scale), label: tickText(v, step) });
  }
  return ticks;
}

/// The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `raw`.
function niceStep(raw: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((step) => step >= raw * (1 - 1e-12)) ?? raw;
}

/// One format for every tick of a bar, as matplotlib's: the step's decimals (0.1 → "0.1", 0.25 →
/// "0.25"), zero included ("0.0", "0.2", …).
function tickText(v: number, step: number): string {
  const decimals = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9) + (String(step).includes('25') ? 1 : 0));
  return (Math.abs(v) < step * 1e-6 ? 0 : v).toFixed(decimals).replace('-', '−');
}

const SUPERSCRIPT: Record<string, string> = {
  '-': '⁻',
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
};

/// "10⁻¹⁶" for k = −16.
export function powerOfTen(k: number): string {
  return `10${[...String(k)].map((c) => SUPERSCRIPT[c] ?? c).join('')}`;
}

/// Matplotlib-style index ticks for n columns: 0, s, 2s, 3s and n − 1 with s = round(n / 4)
/// (0, 15, 30, 45, 59 for the chapter's 60 keys).
export function evenTickIndices(n: number): number[] {
  const step = Math.max(1, Math.round(n / 4));
  const ticks = [0, step, 2 * step, 3 * step].filter((i) => i < n - 1 - step / 2);
  return [...ticks, n - 1];
}

function div(className: string): HTMLDivElement {
  const node = document.createElement('div');
  node.className = className;
  return node;
}

/// What each tick container shows now: a drag redraws the map every frame, and ticks that did
/// not change keep their elements (new ones would cost a style and layout pass per frame).
const placedTicks = new WeakMap<HTMLElement, string>();

function placeTicks(
  container: HTMLElement,
  ticks: readonly HeatmapTick[],
  fraction: (tick: HeatmapTick) => number,
  vertical: boolean,
): void {
  const placed = ticks.map((tick) => ({ label: tick.label, percent: `${(100 * fraction(tick)).toFixed(3)}%` }));
  const key = placed.map(({ label, percent }) => `${label}@${percent}`).join('|');
  if (placedTicks.get(container) === key) return;
  placedTicks.set(container, key);
  container.replaceChildren(
    ...placed.map(({ label, percent }) => {
      const span = document.createElement('span');
      span.className = 'kl-heatmap__tick';
      span.textContent = label;
      if (vertical) span.style.top = percent;
      else span.style.left = percent;
      return span;
    }),
  );
}

/// The heatmap figure. `element` holds the plot, its ticks and the colour bar; `plot` is the
/// image area (pointer events); rows are drawn with origin lower (row 0 at the bottom).
export class Heatmap {
  readonly element: HTMLDivElement;
  readonly plot: HTMLDivElement;
  readonly canvas: HTMLCanvasElement;
  private readonly overlay: HTMLCanvasElement;
  private readonly xTicks: HTMLDivElement;
  private readonly yTicks: HTMLDivElement;
  private readonly bar: HTMLCanvasElement;
  private readonly barTicks: HTMLDivElement;
  private readonly zeroSwatch: HTMLDivElement;
  private readonly resize: ResizeObserver;
  private frame: HeatmapFrame | null = null;
  /// The plot's content box (CSS pixels), from the ResizeObserver.
  private plotSize = { width: 0, height: 0 };
  /// The colour bar's strip is the palette alone: drawn once.
  private barDrawn = false;
  private highlighted: number | null = null;
  private pending: (() => void) | null = null;
  private overlayPending: (() => void) | null = null;
  /// The grey of exact zeros, read from the theme once and again after a theme change.
  private zero: [number, number, number] | null = null;
  private range: ColorRange = { low: 0, high: 1, zeros: false };
  private readonly stopTheme: () => void;
  /// The cell being read from the keyboard (row, column), outlined on the overlay.
  cursor: { r: number; c: number } | null = null;
  /// Names of rows and columns and each cell's value, for reading the map cell by cell; by
  /// default row and column numbers and the frame's own values.
  reader: CellReader | null = null;
  readonly label: string;

  constructor(options: HeatmapOptions) {
    this.label = options.label;
    this.element = div('kl-heatmap');
    const yTitle = div('kl-heatmap__y-title');
    yTitle.textContent = options.yTitle;
    this.yTicks = div('kl-heatmap__y-ticks');
    this.plot = div('kl-heatmap__plot');
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'kl-heatmap__image';
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', options.label);
    this.overlay = document.createElement('canvas');
    this.overlay.className = 'kl-heatmap__overlay';
    this.overlay.setAttribute('role', 'img');
    this.overlay.setAttribute('aria-label', 'overlay: the white k = q trace and the highlighted row');
    this.plot.append(this.canvas, this.overlay);
    this.xTicks = div('kl-heatmap__x-ticks');
    const xTitle = div('kl-heatmap__x-title');
    xTitle.textContent = options.xTitle;

    const barBox = div('kl-heatmap__bar');
    this.bar = document.createElement('canvas');
    this.bar.width = 1;
    this.bar.height = 256;
    this.bar.setAttribute('role', 'img');
    this.bar.setAttribute('aria-label', `colour bar: ${options.colorbarTitle}, dark (low) to bright (high); the tick labels give the values`);
    this.zeroSwatch = div('kl-heatmap__zero');
    this.zeroSwatch.title = 'exactly 0 (underflow)';
    barBox.append(this.bar, this.zeroSwatch);
    this.barTicks = div('kl-heatmap__bar-ticks');
    const barTitle = div('kl-heatmap__bar-title');
    barTitle.textContent = options.colorbarTitle;
    this.element.append(yTitle, this.yTicks, this.plot, barBox, this.barTicks, barTitle, this.xTicks, xTitle);
    // The plot's size as the last layout left it: reading clientWidth in a frame whose input
    // already changed read-outs would force a second layout pass per frame.
    this.resize = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect;
      if (box) this.plotSize = { width: box.width, height: box.height };
      this.drawOverlay();
      this.onResize?.();
    });
    this.resize.observe(this.plot);
    // The map's own theme root (the element is placed in it later): zeros take its grey.
    this.stopTheme = onThemeChange(() => {
      this.zero = null;
      if (this.frame) this.draw(this.frame);
    }, this.element);
  }

  /// The frame drawn or about to be.
  get shown(): HeatmapFrame | null {
    return this.frame;
  }

  /// The colour range of the frame drawn or about to be.
  get shownRange(): ColorRange | null {
    const frame = this.frame;
    return frame ? (frame.image?.range ?? colorRange(frame.values ?? [], frame.scale)) : null;
  }

  /// Makes the map one keyboard stop read cell by cell, with a data table; returns the renewal
  /// of its summary and of the cell read (the host runs it at every drawn signal).
  explore(): () => void {
    return exploreHeatmap(this);
  }

  /// Redraws the overlay (the cursor moved) in the next animation frame.
  redrawOverlay(): void {
    this.highlight(this.highlighted);
  }

  /// The cell under a pointer at (`clientX`, `clientY`), or null outside the image.
  cellAt(clientX: number, clientY: number): { r: number; c: number } | null {
    const r = this.rowAt(clientY);
    if (r === null || !this.frame) return null;
    const rect = this.plot.getBoundingClientRect();
    const fraction = (clientX - rect.left) / rect.width;
    if (!(fraction >= 0 && fraction < 1)) return null;
    return { r, c: Math.min(this.frame.cols - 1, Math.floor(fraction * this.frame.cols)) };
  }

  /// The colour range of the drawn frame (for read-outs beside the map).
  get colors(): ColorRange {
    return this.range;
  }

  /// The palette for the core's attentionMap: magma's 256 colours (RGBA), then the grey of
  /// exact zeros on a log scale (this theme's).
  paletteBytes(): Uint8Array {
    const bytes = new Uint8Array(257 * 4);
    for (let k = 0; k < 256; k++) {
      bytes.set([MAGMA[3 * k] ?? 0, MAGMA[3 * k + 1] ?? 0, MAGMA[3 * k + 2] ?? 0, 255], 4 * k);
    }
    bytes.set([...this.zeroColor(), 255], 4 * 256);
    return bytes;
  }

  /// The plot's size in device pixels as the last layout left it (0 before the first layout):
  /// the most pixels an image needs.
  get devicePixels(): { width: number; height: number } {
    const ratio = typeof devicePixelRatio === 'number' ? devicePixelRatio : 1;
    return { width: Math.round(this.plotSize.width * ratio), height: Math.round(this.plotSize.height * ratio) };
  }

  /// Called after the plot's size changed (the ResizeObserver's report).
  onResize: (() => void) | null = null;

  /// Draws `frame` in the next animation frame (a newer frame replaces a pending one).
  draw(frame: HeatmapFrame): void {
    this.frame = frame;
    if (this.highlighted !== null && this.highlighted >= frame.rows) this.highlighted = null;
    if (this.pending) return;
    this.pending = nextFrame(() => {
      this.pending = null;
      if (this.frame) this.paint(this.frame);
    });
  }

  /// Outlines row `row` (null: none) in the next animation frame.
  highlight(row: number | null): void {
    this.highlighted = row;
    if (this.overlayPending) return;
    this.overlayPending = nextFrame(() => {
      this.overlayPending = null;
      this.drawOverlay();
    });
  }


  /// The row under a pointer at `clientY`, or null outside the image.
  rowAt(clientY: number): number | null {
    if (!this.frame) return null;
    const rect = this.plot.getBoundingClientRect();
    const fraction = (rect.bottom - clientY) / rect.height;
    if (!(fraction >= 0 && fraction < 1)) return null;
    return Math.min(this.frame.rows - 1, Math.floor(fraction * this.frame.rows));
  }

  destroy(): void {
    this.pending?.();
    this.overlayPending?.();
    this.stopTheme();
    this.resize.disconnect();
    this.element.remove();
  }

  private paint(frame: HeatmapFrame): void {
    const { rows, cols, scale } = frame;
    const zero = this.zeroColor();
    const range = frame.image ? this.paintImage(frame.image) : this.paintValues(frame.values ?? [], rows, cols, scale, zero);
    if (!range) return;
    this.range = range;

    const barContext = this.barDrawn ? null : this.bar.getContext('2d');
    if (barContext) {
      this.barDrawn = true;
      const strip = barContext.createImageData(1, 256);
      for (let k = 0; k < 256; k++) {
        const o = (255 - k) * 4;
        strip.data[o] = MAGMA[3 * k] ?? 0;
        strip.data[o + 1] = MAGMA[3 * k + 1] ?? 0;
        strip.data[o + 2] = MAGMA[3 * k + 2] ?? 0;
        strip.data[o + 3] = 255;
      }
      barContext.putImageData(strip, 0, 0);
    }
    this.drawOverlay();
    this.zeroSwatch.hidden = !(scale === 'log' && range.zeros);
    const swatch = `rgb(${zero.join(', ')})`;
    if (this.zeroSwatch.style.background !== swatch) this.zeroSwatch.style.background = swatch;
    const barLabels = colorbarTicks(range, scale);
    if (!this.zeroSwatch.hidden) barLabels.push({ at: Number.NaN, label: '0' });
    placeTicks(this.barTicks, barLabels, (tick) => (Number.isNaN(tick.at) ? 1.06 : 1 - tick.at), true);
    this.element.classList.toggle('kl-heatmap--zeros', !this.zeroSwatch.hidden);
    placeTicks(this.xTicks, frame.xTicks, (tick) => (tick.at + 0.5) / cols, false);
    placeTicks(this.yTicks, frame.yTicks, (tick) => 1 - rowFraction(frame, tick.at), true);
  }

  /// The canvas as `width` x `height` pixels; null when it has no 2D context.
  private context(width: number, height: number): CanvasRenderingContext2D | null {
    if (this.canvas.width !== width) this.canvas.width = width;
    if (this.canvas.height !== height) this.canvas.height = height;
    return this.canvas.getContext('2d');
  }

  /// One pixel per cell, coloured here; returns the colour range.
  private paintValues(values: ArrayLike<number>, rows: number, cols: number, scale: HeatScale, zero: readonly number[]): ColorRange | null {
    const range = colorRange(values, scale);
    const context = this.context(cols, rows);
    if (!context) return null;
    const image = context.createImageData(cols, rows);
    const pixels = image.data;
    for (let r = 0; r < rows; r++) {
      const out = (rows - 1 - r) * cols * 4;
      for (let c = 0; c < cols; c++) {
        const t = position(values[r * cols + c] ?? Number.NaN, range, scale);
        const o = out + c * 4;
        const i = Number.isNaN(t) ? -1 : 3 * Math.min(255, Math.max(0, Math.floor(t * 256)));
        pixels[o] = i < 0 ? (zero[0] ?? 0) : (MAGMA[i] ?? 0);
        pixels[o + 1] = i < 0 ? (zero[1] ?? 0) : (MAGMA[i + 1] ?? 0);
        pixels[o + 2] = i < 0 ? (zero[2] ?? 0) : (MAGMA[i + 2] ?? 0);
        pixels[o + 3] = 255;
      }
    }
    context.putImageData(image, 0, 0);
    return range;
  }

  /// The core's pixels as they are (no per-cell work on the page); returns their colour range.
  private paintImage(image: HeatmapImage): ColorRange | null {
    const context = this.context(image.width, image.height);
    if (!context) return null;
    const pixels = new Uint8ClampedArray(image.pixels.buffer, image.pixels.byteOffset, image.width * image.height * 4);
    context.putImageData(new ImageData(pixels, image.width, image.height), 0, 0);
    return image.range;
  }

  /// Cells that a log scale cannot place (exact zeros) take the palette's grey.
  private zeroColor(): [number, number, number] {
    if (this.zero) return this.zero;
    const hex = /^#([0-9a-f]{6})$/i.exec(palette(this.element).grey)?.[1] ?? 'b0b7c3';
    const n = parseInt(hex, 16);
    this.zero = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
    return this.zero;
  }

  private drawOverlay(): void {
    const frame = this.frame;
    const { width, height } = this.plotSize;
    const ratio = typeof devicePixelRatio === 'number' ? devicePixelRatio : 1;
    // Assigning a canvas size reallocates its backing store even when unchanged: only on resize.
    const pixelWidth = Math.max(1, Math.round(width * ratio));
    const pixelHeight = Math.max(1, Math.round(height * ratio));
    if (this.overlay.width !== pixelWidth) this.overlay.width = pixelWidth;
    if (this.overlay.height !== pixelHeight) this.overlay.height = pixelHeight;
    const context = this.overlay.getContext('2d');
    if (!context || !frame || width === 0) return;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    const x = (column: number): number => ((column + 0.5) / frame.cols) * width;
    const y = (row: number): number => height - rowFraction(frame, row) * height;
    if (frame.trace && frame.trace.length === frame.rows) {
      context.strokeStyle = 'rgba(255, 255, 255, 0.8)';
      context.lineWidth = 1;
      context.beginPath();
      for (let r = 0; r < frame.rows; r++) {
        const px = x(frame.trace[r] ?? 0);
        if (r === 0) context.moveTo(px, y(r));
        else context.lineTo(px, y(r));
      }
      context.stroke();
    }
    if (this.highlighted !== null) {
      const top = height - ((this.highlighted + 1) / frame.rows) * height;
      const band = Math.max(height / frame.rows, 2);
      context.strokeStyle = palette(this.element).orange;
      context.lineWidth = 2;
      context.strokeRect(1, top - (band - height / frame.rows) / 2, width - 2, band);
    }
    if (this.cursor && this.plot.matches(':focus')) {
      const colors = palette(this.element);
      const w = Math.max(width / frame.cols, 6);
      const h = Math.max(height / frame.rows, 6);
      const cx = ((this.cursor.c + 0.5) / frame.cols) * width;
      const cy = height - ((this.cursor.r + 0.5) / frame.rows) * height;
      for (const [ink, line] of [[colors.background, 4], [colors.text, 2]] as const) {
        context.strokeStyle = ink;
        context.lineWidth = line;
        context.strokeRect(cx - w / 2, cy - h / 2, w, h);
      }
    }
  }
}
