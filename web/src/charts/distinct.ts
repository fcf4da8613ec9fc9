/// No series told apart by hue alone: when two curves of a chart share a dash pattern, the later
/// one takes the next pattern not yet used in the chart (set on its dataset's `borderDash`, so
/// the legend shows it too).
import type { Plugin } from 'chart.js';

/// Patterns given in turn to curves whose own pattern another curve of the chart already has.
const PATTERNS: number[][] = [[], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [1, 3], [12, 4, 2, 4, 2, 4]];

type Dataset = { klCurve?: unknown; showLine?: boolean; type?: string; borderDash?: unknown; data?: unknown };

/// Whether the dataset is drawn as a line.
function isLine(dataset: Dataset, chartType: string): boolean {
  if (dataset.klCurve) return true;
  const type = dataset.type ?? chartType;
  const points = Array.isArray(dataset.data) ? dataset.data.length : 0;
  if (points < 2) return false;
  return type === 'line' ? dataset.showLine !== false : type === 'scatter' && dataset.showLine === true;
}

export const distinctDashes: Plugin = {
  id: 'klDistinctDashes',
  beforeUpdate(chart) {
    const type = (chart.config as { type?: string }).type ?? 'line';
    const lines = (chart.data.datasets as Dataset[]).filter((dataset) => isLine(dataset, type));
    if (lines.length < 2) return;
    const used = new Set<string>();
    for (const dataset of lines) {
      const own = JSON.stringify(Array.isArray(dataset.borderDash) ? dataset.borderDash : []);
      if (!used.has(own)) {
        used.add(own);
        continue;
      }
      const free = PATTERNS.find((pattern) => !used.has(JSON.stringify(pattern)));
      if (!free) continue;
      dataset.borderDash = free;
      used.add(JSON.stringify(free));
    }
  },
};
