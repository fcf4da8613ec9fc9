/// What the attention map holds between answers: the loaded data and one computed map.
import type { HeatmapImage, HeatScale } from '../../charts/heatmap';

/// The laboratory's data at one size, with the k = q trace over its sorted keys.
export interface Dataset {
  /// "<queries>x<keys>": the size it was loaded for.
  size: string;
  queries: Float64Array;
  keys: Float64Array;
  values: Float64Array;
  trace: Float64Array;
}

/// One computed map: what the core sent for the figure (never the m × n weights themselves).
export interface MapFrame {
  data: Dataset;
  h: number;
  scale: HeatScale;
  image: HeatmapImage;
  outputs: Float64Array;
  rowSumError: number;
  /// The highlighted row's weights, in full precision, and which row they are.
  row: number;
  rowWeights: Float64Array;
}

/// The size key of a state's (or a dataset's) queries and keys.
export const sizeOf = (counts: { queries: number; keys: number }): string => `${counts.queries}x${counts.keys}`;
