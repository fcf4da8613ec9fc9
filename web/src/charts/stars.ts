/// Filled five-pointed star markers (the chapter's prediction star), drawn as paths in the
/// chart's own coordinates.
import type { Plugin } from 'chart.js';

/// What `starMarkers` reads from a dataset: the stars' fill colour and outer radius (CSS pixels).
interface StarLook {
  klStar?: { color: string; radius: number };
}

/// Marks a scatter dataset's points as filled five-pointed stars (Chart.js' own 'star' is an
/// asterisk) of outer radius `radius` in `color`. `starMarkers` draws them as paths in the
/// chart's own coordinates, so they are as sharp and as large on a 2× screen as on a 1× one
/// (a picture given to Chart.js as a point style is drawn at its size in device pixels). Chart.js
/// itself draws nothing for these points (radius 0).
export function starDataset<T extends object>(look: T, color: string, radius: number): T & { pointRadius: number } {
  return { ...look, pointRadius: 0, klStar: { color, radius } };
}

/// Gives a `starDataset` a new colour (a colour-scheme flip).
export function recolorStars(dataset: object | undefined, color: string): void {
  const star = (dataset as StarLook | undefined)?.klStar;
  if (star) star.color = color;
}

/// Adds a five-pointed star of outer radius `radius` centred on (x, y) to the current path.
function starPath(ctx: CanvasRenderingContext2D, x: number, y: number, radius: number): void {
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? radius : radius * 0.45;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    ctx.lineTo(x + r * Math.cos(angle), y + r * Math.sin(angle));
  }
  ctx.closePath();
}

/// Draws the stars of every `starDataset` right after its dataset (so it keeps its place among
/// the datasets' drawing order), for the points whose star reaches into the plot area.
export const starMarkers: Plugin = {
  id: 'klStarMarkers',
  afterDatasetDraw(chart, { index, meta }) {
    const star = (chart.data.datasets[index] as StarLook | undefined)?.klStar;
    if (!star || !(star.radius > 0)) return;
    const { ctx, chartArea: area } = chart;
    const r = star.radius;
    ctx.save();
    ctx.fillStyle = star.color;
    ctx.beginPath();
    for (const element of meta.data) {
      const { x, y } = element.getProps(['x', 'y'], true) as { x: number; y: number };
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      if (x < area.left - r || x > area.right + r || y < area.top - r || y > area.bottom + r) continue;
      ctx.moveTo(x, y - r);
      starPath(ctx, x, y, r);
    }
    ctx.fill();
    ctx.restore();
  },
};
