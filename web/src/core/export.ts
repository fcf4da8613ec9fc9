/// Downloads: a chart as PNG at twice its CSS size, and the numbers behind a figure as CSV.
import { Chart } from 'chart.js';
import { palette } from '../charts/theme';

/// One CSV cell: numbers keep the core's full precision (shortest round-trip form), text is quoted
/// when it holds a comma, quote or line break.
export type CsvCell = string | number | boolean | null;
export type CsvRows = readonly (readonly CsvCell[])[];

function csvCell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/// RFC 4180 text: rows joined by CRLF, ending with one.
export function toCsv(rows: CsvRows): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/// Saves `blob` as `fileName` through a temporary link.
export function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadCsv(rows: CsvRows, fileName: string): void {
  download(new Blob([toCsv(rows)], { type: 'text/csv;charset=utf-8' }), fileName);
}

/// The canvas redrawn at `scale` × its CSS size on the theme's surface colour. Chart.js charts are
/// re-rendered at that pixel ratio (sharp text and lines); other canvases are scaled pixel by pixel.
export function renderAtScale(canvas: HTMLCanvasElement, scale = 2): HTMLCanvasElement {
  const width = canvas.clientWidth || canvas.width;
  const height = canvas.clientHeight || canvas.height;
  const out = document.createElement('canvas');
  out.width = Math.round(width * scale);
  out.height = Math.round(height * scale);
  const ctx = out.getContext('2d');
  if (!ctx) return out;
  ctx.fillStyle = palette(canvas).background;
  ctx.fillRect(0, 0, out.width, out.height);
  const chart = Chart.getChart(canvas);
  if (chart) {
    const ratio = chart.options.devicePixelRatio;
    chart.options.devicePixelRatio = scale;
    chart.resize();
    chart.render();
    ctx.drawImage(canvas, 0, 0, out.width, out.height);
    chart.options.devicePixelRatio = ratio;
    chart.resize();
    chart.render();
  } else {
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(canvas, 0, 0, out.width, out.height);
  }
  return out;
}

export async function downloadPng(canvas: HTMLCanvasElement, fileName: string, scale = 2): Promise<void> {
  const image = renderAtScale(canvas, scale);
  const blob = await new Promise<Blob | null>((done) => image.toBlob(done, 'image/png'));
  if (!blob) throw new Error('the browser could not encode the chart as PNG');
  download(blob, fileName);
}
