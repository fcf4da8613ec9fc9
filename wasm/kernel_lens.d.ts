/// Types of build/wasm/kernel_lens.mjs, the embind module of the Kernel Lens core.
/// Matrices are flat, row-major Float64Arrays; inputs may also be plain number arrays.
/// Every invalid call throws a TypeError (wrong argument type) or a RangeError (bad value,
/// shape or size) whose message is the core's.

export type Numbers = Float64Array | ArrayLike<number>;
export type KernelName = 'gaussian' | 'laplacian' | 'epanechnikov' | 'tricube';
export type EmptyRowPolicy = 'error' | 'nearest';

export interface AttentionResult {
  /// A, (m, n), every row sums to one.
  weights: Float64Array;
  /// A V, (m, p).
  outputs: Float64Array;
}

export interface OlsResult {
  /// λ(q) per query, (m, n); rows sum to one but entries may be negative.
  weights: Float64Array;
  /// λ(q)ᵀ y, (m).
  predictions: Float64Array;
}

export interface UnderflowReport {
  logScores: Float64Array;
  kernelValues: Float64Array;
  naiveDenominator: number;
  naiveWeights: Float64Array;
  naiveAllFinite: boolean;
  stableWeights: Float64Array;
  stableSum: number;
  nearestIndex: number;
  maxAbsDifference: number | null;
}

export interface Limits {
  maxCells: number;
  maxRows: number;
  maxDimension: number;
  maxWorlds: number;
  maxDraws: number;
  maxBandwidths: number;
}

export interface ChapterConfig {
  keySeed: number;
  observedSeed: number;
  monteCarloSeed: number;
  keys: number;
  queries: number;
  worlds: number;
  noise: number;
  bandwidths: number[];
  keyLow: number;
  keyHigh: number;
  queryLow: number;
  queryHigh: number;
}

export interface ChapterDataset {
  /// Sorted uniform key locations, (keys).
  keys: Float64Array;
  /// f(keys) + noise, (keys).
  observedValues: Float64Array;
  /// linspace(queryLow, queryHigh, queries).
  queries: Float64Array;
  truthAtKeys: Float64Array;
  truthAtQueries: Float64Array;
}

export interface RiskRow {
  bandwidth: number;
  /// τ = 2h².
  tau: number;
  bias2: number;
  variance: number;
  mse: number;
}

export declare class NumpyRandom {
  constructor(seed: number);
  random(count: number): Float64Array;
  uniform(low: number, high: number, count: number): Float64Array;
  standardNormal(count: number): Float64Array;
  normal(loc: number, scale: number, count: number): Float64Array;
  delete(): void;
}

export interface KernelLensModule {
  /// A = rowsoftmax(S), outputs = A V for Q:(m,d), K:(n,d), V:(n,p).
  attention(
    queries: Numbers,
    keys: Numbers,
    values: Numbers,
    d: number,
    p: number,
    bandwidth: number,
    kernel?: KernelName,
    emptyRows?: EmptyRowPolicy,
  ): AttentionResult;
  /// λ(q) = X̃ (X̃ᵀX̃)⁻¹ q̃, (n).
  olsWeights(keys: Numbers, query: Numbers, d: number): Float64Array;
  olsPredict(keys: Numbers, targets: Numbers, queries: Numbers, d: number): OlsResult;
  /// log κ_h(q_r, k_i), (m, n); −Infinity outside a compact kernel's support.
  logScores(queries: Numbers, keys: Numbers, d: number, bandwidth: number, kernel?: KernelName): Float64Array;
  /// ‖q_r − k_i‖², (m, n).
  squaredDistances(queries: Numbers, keys: Numbers, d: number): Float64Array;
  /// q_rᵀ k_i, (m, n).
  dotProductScores(queries: Numbers, keys: Numbers, d: number): Float64Array;
  rowSoftmax(scores: Numbers, n: number): Float64Array;
  /// rowsoftmax(scores / τ).
  softmaxWithTemperature(scores: Numbers, n: number, temperature: number): Float64Array;
  naiveNormalize(logScores: Numbers, n: number): Float64Array;
  /// τ = 2h².
  temperatureFromBandwidth(bandwidth: number): number;
  /// h = √(τ/2).
  bandwidthFromTemperature(temperature: number): number;
  /// The h → 0⁺ limit: mass split equally over the nearest key(s), (n).
  nearestKeyLimit(query: Numbers, keys: Numbers, d: number): Float64Array;
  /// The h → ∞ limit: every weight 1/n, (n).
  uniformLimit(n: number): Float64Array;
  maxRowSumError(weights: Numbers, n: number): number;
  underflowReport(query: Numbers, keys: Numbers, d: number, bandwidth: number): UnderflowReport;
  kernelNames(): string[];
  limits(): Limits;

  NumpyRandom: typeof NumpyRandom;
  chapterConfig(): ChapterConfig;
  chapterDataset(config?: Partial<ChapterConfig>): ChapterDataset;
  /// f(x) = sin(1.5x) + 0.3 cos(4x).
  truth(xs: Numbers): Float64Array;
  linspace(start: number, stop: number, count: number): Float64Array;
  biasVarianceSweep(config?: Partial<ChapterConfig>): RiskRow[];
  exactRisk(config?: Partial<ChapterConfig>): RiskRow[];
  looCurve(keys: Numbers, values: Numbers, d: number, bandwidths: Numbers, kernel?: KernelName): Float64Array;
  bandwidthSelection(config?: Partial<ChapterConfig>): unknown;
  standardizeExercise(config?: Partial<ChapterConfig>): unknown;
}

export interface KernelLensOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, scriptDirectory: string) => string;
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance) => void,
  ) => WebAssembly.Exports | Record<string, never>;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
}

declare function createKernelLens(options?: KernelLensOptions): Promise<KernelLensModule>;
export default createKernelLens;
