/// The chapter's one noisy sample (the laboratory data), as the smoothing figures load it: the
/// keys and their noisy and true values, a dense grid of queries and the truth on it. Every
/// number is the core's (chapterDataset, linspace, truth).
import { call } from '../../engine';
import type { WidgetHost } from '../../ui/host/widget';

export interface ChapterSample {
  keys: Float64Array;
  observed: Float64Array;
  truthAtKeys: Float64Array;
  /// The dense queries and the truth f(q) at them.
  dense: Float64Array;
  truth: Float64Array;
}

/// The dense query grid: `count` evenly spaced queries from `start` to `stop`.
export interface DenseGrid {
  start: number;
  stop: number;
  count: number;
}

/// Loads the sample with the truth on `grid` (two requests: the truth needs the grid).
export async function loadChapterSample(host: Pick<WidgetHost, 'run'>, grid: DenseGrid): Promise<ChapterSample> {
  const [dataset, dense] = await host.run([call('chapterDataset'), call('linspace', grid.start, grid.stop, grid.count)] as const);
  const [truth] = await host.run([call('truth', dense)] as const);
  return { keys: dataset.keys, observed: dataset.observedValues, truthAtKeys: dataset.truthAtKeys, dense, truth };
}
