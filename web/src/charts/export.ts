/// A chart as PNG at twice its CSS size, on the theme's surface colour.
import { Chart } from 'chart.js';
import { palette } from '../theme/theme';
import { download } from '../ui/download';

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
