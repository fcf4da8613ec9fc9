/// Types of the Kernel Lens wasm modules in build/wasm: the two embind modules
/// kernel_lens_core.mjs (createKernelLensCore) and kernel_lens_lab.mjs (createKernelLensLab), and
/// the wrapper kernel_lens.mjs (createKernelLens), which merges both into one object.
/// Matrices are flat, row-major Float64Arrays; inputs may also be plain number arrays.
/// Every invalid call throws a TypeError (wrong argument type or number of arguments, a plain
/// array entry that is not a number, a BigInt array, a typed array whose ArrayBuffer was detached
/// or resized below it, a config or view that is not a plain object, a getter or Proxy trap that
/// threw, with that error as `cause`) or a RangeError (bad value, shape or size, a count or a list
/// beyond its limit) whose message is the core's, with the API's names (wasm/boundary.js).

export type Numbers = Float64Array | ArrayLike<number>;
export type KernelName = 'gaussian' | 'laplacian' | 'epanechnikov' | 'tricube';
export type EmptyRowPolicy = 'error' | 'nearest';

export interface AttentionResult {
  /// A, (m, n), every row sums to one.
  weights: Float64Array;
  /// A V, (m, p).
  outputs: Float64Array;
}

/// Where attention's results go: a Float64Array to fill (returned), `false` to leave that result
/// out, or nothing for a new array.
export interface AttentionInto {
  weights?: Float64Array | false;
  outputs?: Float64Array | false;
}

/// attention's answer for an `into`: every result but those set to `false`.
export type AttentionAnswer<Into extends AttentionInto> = {
  [K in keyof AttentionResult as Into extends { [P in K]: false } ? never : K]: Float64Array;
};

/// What the attention-map figure draws of A (attentionMap's `view`).
export interface AttentionMapView {
  /// Colour scale of the image ("linear" by default).
  scale?: 'linear' | 'log';
  /// The highlighted query row, returned in full precision (0 by default).
  row?: number;
  /// Image size in pixels, at most n × m; 0 or absent: one pixel per key (query).
  width?: number;
  height?: number;
  /// 257 RGBA colours (1,028 bytes): 256 from the lowest to the highest value, then the colour of
  /// exact zeros on a log scale.
  palette: Numbers;
}

export interface AttentionMap {
  /// height × width RGBA pixels, top row first (the last queries: the first query is at the
  /// bottom); each pixel has the colour of the mean weight of the cells it covers.
  image: Uint8Array<ArrayBuffer>;
  width: number;
  height: number;
  /// A V, (m, p).
  outputs: Float64Array;
  /// Row `view.row` of A, (n).
  rowWeights: Float64Array;
  /// max over rows of |Σᵢ Aᵣᵢ − 1| (pairwise sums, as NumPy's).
  maxRowSumError: number;
  /// The colours' range over the cells: linear, min and max of A; log, its smallest positive
  /// weight and its max.
  low: number;
  high: number;
  /// Some weight is exactly 0 (it underflowed).
  zeros: boolean;
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
  /// The work budget of one call (kernel evaluations plus multiply-adds; see workOf).
  maxWork: number;
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

/// Exercise 5's settings; missing fields take these defaults.
export interface StandardizeConfig {
  seed: number;
  keys: number;
  queries: number;
  noise: number;
  /// The same h in both unit systems.
  bandwidth: number;
  /// Reported units x_j = u_j · scale_j, (2).
  featureScales: number[];
}

/// Exercise 5: 2-D keys in mixed units, attention before and after standardising with the
/// training (key) statistics. Keys (keyCount, 2), queries (queryCount, 2), weights (queryCount, keyCount).
export interface StandardizeExercise {
  keyCount: number;
  queryCount: number;
  bandwidth: number;
  featureScales: Float64Array;
  rawKeys: Float64Array;
  rawQueries: Float64Array;
  standardizedKeys: Float64Array;
  standardizedQueries: Float64Array;
  values: Float64Array;
  /// Training means and ddof-0 standard deviations per feature, (2).
  mean: Float64Array;
  scale: Float64Array;
  rawWeights: Float64Array;
  standardizedWeights: Float64Array;
  truthAtQueries: Float64Array;
  rawPredictions: Float64Array;
  standardizedPredictions: Float64Array;
  rawMse: number;
  standardizedMse: number;
  /// Share of the summed squared query-key distance owed to each feature, (2).
  rawDistanceShare: Float64Array;
  standardizedDistanceShare: Float64Array;
}

export interface RiskRow {
  bandwidth: number;
  /// τ = 2h².
  tau: number;
  bias2: number;
  variance: number;
  mse: number;
}

/// Exercise 3: a fresh sample split into training, validation and a sealed test set; the
/// selection curves over the bandwidth grid, both choices, their test MSE, and the fits drawn
/// at `curveQueries`.
export interface BandwidthSelection {
  trainKeys: Float64Array;
  trainValues: Float64Array;
  validationKeys: Float64Array;
  validationValues: Float64Array;
  testKeys: Float64Array;
  testValues: Float64Array;
  bandwidths: Float64Array;
  trainingMse: Float64Array;
  validationMse: Float64Array;
  looMse: Float64Array;
  selectedIndex: number;
  selectedBandwidth: number;
  testMse: number;
  looSelectedIndex: number;
  looBandwidth: number;
  looTestMse: number;
  /// The synthetic-truth grid minimum (the 1,000-world audit) and its test MSE.
  truthGridMinimum: { index: number; bandwidth: number; mse: number; testMse: number };
  curveQueries: Float64Array;
  truthCurve: Float64Array;
  selectedCurve: Float64Array;
  looCurve: Float64Array;
  truthGridCurve: Float64Array;
}

export interface GridMinimum {
  /// argmin over the grid (the first on ties).
  index: number;
  bandwidth: number;
  risk: number;
}

export declare class NumpyRandom {
  constructor(seed: number);
  random(count: number): Float64Array;
  uniform(low: number, high: number, count: number): Float64Array;
  standardNormal(count: number): Float64Array;
  normal(loc: number, scale: number, count: number): Float64Array;
  delete(): void;
}

/// The core module (kernel_lens_core.mjs): what every figure but the laboratory's calls.
export interface KernelLensCoreModule {
  /// A = rowsoftmax(S), outputs = A V for Q:(m,d), K:(n,d), V:(n,p).
  attention<Into extends AttentionInto = AttentionResult>(
    queries: Numbers,
    keys: Numbers,
    values: Numbers,
    d: number,
    p: number,
    bandwidth: number,
    kernel?: KernelName,
    emptyRows?: EmptyRowPolicy,
    /// Where the results go (AttentionInto): Float64Arrays of exactly m·n and m·p numbers to copy
    /// them into (returned), `false` to leave one out ({ weights: false }: the outputs alone).
    into?: Into,
  ): AttentionAnswer<Into>;
  /// The attention-map figure's frame: the image of A at the size it is shown, A V, one row of A,
  /// the row-sum error and the colour range; A itself never leaves the core.
  attentionMap(
    queries: Numbers,
    keys: Numbers,
    values: Numbers,
    d: number,
    p: number,
    bandwidth: number,
    view: AttentionMapView,
    kernel?: KernelName,
    emptyRows?: EmptyRowPolicy,
  ): AttentionMap;
  /// λ(q) = X̃ (X̃ᵀX̃)⁻¹ q̃, (n).
  olsWeights(keys: Numbers, query: Numbers, d: number): Float64Array;
  olsPredict(keys: Numbers, targets: Numbers, queries: Numbers, d: number): OlsResult;
  /// log κ_h(q_r, k_i), (m, n); −Infinity outside a compact kernel's support.
  logScores(queries: Numbers, keys: Numbers, d: number, bandwidth: number, kernel?: KernelName): Float64Array;
  /// ‖q_r − k_i‖², (m, n).
  squaredDistances(queries: Numbers, keys: Numbers, d: number): Float64Array;
  /// The unscaled scores s = −‖q−k‖², (m·n): softmax(s / τ) with τ = 2h² is the Gaussian weights.
  distanceScores(queries: Numbers, keys: Numbers, d: number): Float64Array;
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
  /// Σᵢ Aᵣᵢ of every row (m), in NumPy's pairwise order (weights.sum(axis=1)).
  rowSums(weights: Numbers, n: number): Float64Array;
  maxRowSumError(weights: Numbers, n: number): number;
  underflowReport(query: Numbers, keys: Numbers, d: number, bandwidth: number): UnderflowReport;
  kernelNames(): string[];
  limits(): Limits;
  /// numpy.interp(x, xp, fp): piecewise-linear, clamped to fp's ends; xp nondecreasing, (x.length).
  interp(x: Numbers, xp: Numbers, fp: Numbers): Float64Array;
  /// interp(queries, keys, [0, 1, …, n−1]): each query's fractional index among sorted keys, (m).
  sortedKeyPosition(queries: Numbers, keys: Numbers): Float64Array;

  NumpyRandom: typeof NumpyRandom;
  chapterDataset(config?: Partial<ChapterConfig>): ChapterDataset;
  /// f(x) = sin(1.5x) + 0.3 cos(4x).
  truth(xs: Numbers): Float64Array;
  linspace(start: number, stop: number, count: number): Float64Array;

  /// The reader's CSV: 1–8 key columns then one value column; a RangeError names the row and column.
  parseCsv(text: string): CsvTable;
  csvLimits(): CsvLimits;
  /// The core module's wasm memory size in bytes.
  heapBytes(): number;
  /// The core module's memory use.
  memoryUsage(): MemoryUsage;
  /// The work of a call of `fn` (any function of either module) from its sizes, in the order
  /// workFormulas() names them, and its config object for the laboratory's configured calls: the
  /// number the core checks against limits().maxWork before it starts (cpp/include/kernel_lens/work.hpp).
  /// TypeError for an unknown function; RangeError for the wrong number of sizes, a size that is
  /// not a finite count, or a config the call would refuse.
  workOf(fn: string, sizes: Numbers, config?: object): number;
  /// Every function of both modules, each with the names of its sizes ("m n d p"; "" for none).
  workFormulas(): Record<string, string>;
}

/// The laboratory module (kernel_lens_lab.mjs): the bias/variance audit, exact risk,
/// leave-one-out and exercises 3 and 5.
export interface KernelLensLabModule {
  chapterConfig(): ChapterConfig;
  biasVarianceSweep(config?: Partial<ChapterConfig>): RiskRow[];
  exactRisk(config?: Partial<ChapterConfig>): RiskRow[];
  /// The worlds behind one bandwidth's row of biasVarianceSweep (the same draws): the first
  /// `curves` (0–200, at most the worlds) worlds' prediction curves, (curves·queries) row-major,
  /// the mean curve over all worlds, and at the grid query nearest to `query` every world's
  /// prediction with its exact mean and sd on the fixed design, that grid query and the truth there.
  auditWorlds(config: Partial<ChapterConfig> | undefined, bandwidth: number, curves: number, query: number): AuditWorlds;
  /// Equal-width bins from the smallest value to the largest: edges (bins + 1), counts (bins);
  /// 1 ≤ bins ≤ 1000, values finite, at least one.
  histogram(values: Numbers, bins: number): Histogram;
  looCurve(keys: Numbers, values: Numbers, d: number, bandwidths: Numbers, kernel?: KernelName): Float64Array;
  /// One bandwidth's fit of keys (n, d) in one pass: each key's attention output over all keys
  /// (`fitted`), its prediction from the others (`heldOut`, NaN where a compact kernel leaves none)
  /// and their mean squared error (`mse`, looCurve's value at that bandwidth).
  looFit(keys: Numbers, values: Numbers, d: number, bandwidth: number, kernel?: KernelName): LooFit;
  /// The Gaussian rule's leave-one-out risk at h (looCurve's value) and its exact derivative
  /// with respect to log h, for keys (n, d), n ≥ 2, and n values.
  looRiskGradient(keys: Numbers, values: Numbers, d: number, bandwidth: number): LooRiskGradient;
  /// Gradient descent on log h for that risk: h_{t+1} = h_t·exp(−rate·g_t) from h_0 = start;
  /// bandwidths, risks and gradients hold h_t, R(h_t), g_t for t = 0 … steps (steps ≤ 10,000).
  looDescent(keys: Numbers, values: Numbers, d: number, start: number, rate: number, steps: number): LooDescent;
  /// Local linear regression as weights: at each query a kernel-weighted line through the keys;
  /// weights (m·n) are the equivalent kernel e₁ᵀ(X̃ᵀWX̃)⁻¹X̃ᵀW (rows sum to one, entries may be
  /// negative), outputs (m·p) their mix of the values (p = values.length / n), fallbackRows the
  /// rows whose weighted design was numerically singular and hold the NW weights instead. d ≤ 8.
  localLinear(queries: Numbers, keys: Numbers, values: Numbers, d: number, bandwidth: number, kernel?: KernelName): LocalLinear;
  /// Both smoothers on a fixed design, exactly: per query, bias = w·f(K) − f(q) and
  /// sd = noise·‖w‖ (Var f̂(q) = σ² Σ wᵢ²), for NW (attention's weights) and local linear.
  smootherAudit(
    queries: Numbers,
    keys: Numbers,
    d: number,
    truthAtKeys: Numbers,
    truthAtQueries: Numbers,
    noise: number,
    bandwidth: number,
    kernel?: KernelName,
  ): SmootherAudit;
  /// How often a band curve ± width·sd holds the truth (all four (m), sd ≥ 0, width > 0): per
  /// query the chance for a fresh Gaussian-noise sample, P = Φ(width − |bias|/sd) − Φ(−width −
  /// |bias|/sd), their mean, and the share of queries where this curve's band holds it.
  bandCoverage(curve: Numbers, truth: Numbers, bias: Numbers, sd: Numbers, width: number): BandCoverage;
  bandwidthSelection(config?: Partial<ChapterConfig>): BandwidthSelection;
  standardizeExercise(config?: Partial<StandardizeConfig>): StandardizeExercise;
  /// The bandwidth with the smallest risk on a grid: bandwidths and risks are (B).
  gridMinimum(bandwidths: Numbers, risks: Numbers): GridMinimum;
  /// The laboratory module's memory use.
  labMemoryUsage(): MemoryUsage;
}

export interface LocalLinear {
  weights: Float64Array;
  outputs: Float64Array;
  fallbackRows: number[];
}

export interface SmootherErrors {
  bias: Float64Array;
  sd: Float64Array;
}

export interface SmootherAudit {
  nadarayaWatson: SmootherErrors;
  localLinear: SmootherErrors;
  fallbackRows: number[];
}

export interface AuditWorlds {
  curves: Float64Array;
  meanCurve: Float64Array;
  atQuery: Float64Array;
  query: number;
  queryIndex: number;
  truth: number;
  exactMean: number;
  exactSd: number;
}

export interface Histogram {
  edges: Float64Array;
  counts: Float64Array;
}

export interface BandCoverage {
  /// The share of the queries where |curve − truth| ≤ width·sd.
  observed: number;
  /// The mean of `probability`.
  expected: number;
  /// Per query, the chance that a fresh sample's band holds the truth (m).
  probability: Float64Array;
}

export interface LooRiskGradient {
  risk: number;
  /// dR / d log h.
  gradient: number;
}

export interface LooDescent {
  bandwidths: Float64Array;
  risks: Float64Array;
  gradients: Float64Array;
}

export interface LooFit {
  fitted: Float64Array;
  heldOut: Float64Array;
  mse: number;
}

export interface CsvTable {
  /// K, (n, d), row-major.
  keys: Float64Array;
  /// v, (n).
  values: Float64Array;
  d: number;
  n: number;
  /// d + 1 column names ("x", "y" or "x1"…"xd", "y" when the text has no header row).
  header: string[];
  hasHeader: boolean;
  delimiter: ',' | '\t' | ';';
  /// Accepted but worth saying: duplicate keys, decimal commas.
  warnings: string[];
}

export interface CsvLimits {
  maxBytes: number;
  maxRows: number;
  maxKeyColumns: number;
  maxMagnitude: number;
}

export interface MemoryUsage {
  /// wasm linear memory (it only grows).
  heapBytes: number;
  /// bytes malloc'd and not yet freed.
  allocatedBytes: number;
  /// embind's live emval handles.
  liveHandles: number | null;
  /// The wasm stack pointer one call deep from JavaScript: the same before and after any call,
  /// failed or not.
  stackPointer: number;
}

/// What createKernelLens resolves to: every function and class of both modules (each runs in its
/// own module's instance) and the two module objects themselves.
export interface KernelLensModule extends KernelLensCoreModule, KernelLensLabModule {
  modules: { core: KernelLensCoreModule; lab: KernelLensLabModule };
}

/// Options of one module's factory (createKernelLensCore, createKernelLensLab).
export interface KernelLensModuleOptions {
  /// The module's .wasm bytes (Node), instead of fetching it.
  wasmBinary?: BufferSource;
  /// Where to fetch a file the module needs (its .wasm), given its name.
  locateFile?: (path: string, scriptDirectory: string) => string;
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance) => void,
  ) => WebAssembly.Exports | Record<string, never>;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
}

/// Options of the wrapper: each module's .wasm bytes, and locateFile passed to both factories.
export interface KernelLensOptions {
  wasmBinaries?: { core?: BufferSource; lab?: BufferSource };
  locateFile?: (path: string, scriptDirectory: string) => string;
}

/// The default export of kernel_lens_core.mjs.
export type KernelLensCoreFactory = (options?: KernelLensModuleOptions) => Promise<KernelLensCoreModule>;
/// The default export of kernel_lens_lab.mjs.
export type KernelLensLabFactory = (options?: KernelLensModuleOptions) => Promise<KernelLensLabModule>;

/// Both modules, instantiated together and merged. Rejects with a WebAssembly.CompileError (or
/// LinkError) naming the file when a module's bytes cannot be compiled (or instantiated).
declare function createKernelLens(options?: KernelLensOptions): Promise<KernelLensModule>;
export default createKernelLens;

/// The functions a module exports, sorted (what kernel_lens_modules.json lists): those wasm/boundary.js
/// marked with their parameter names (`kernelLensParameters`).
export declare function embindFunctionNames(module: object): string[];
/// The embind classes a module exports, sorted.
export declare function embindClassNames(module: object): string[];
