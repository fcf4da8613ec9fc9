/// Where a list of calls runs, decided from the sizes of its arguments before it starts: the one
/// place that knows what the core's functions cost.
///
/// - `page`: estimated at most PAGE_BUDGET_MS. It runs synchronously in the page's own core
///   instance, and a slider's answer is drawn in the frame that handled the input. The bridge
///   also scales the estimate by the page instance's measured slowdown (COLD_SLOWDOWN until
///   calls have been timed): on a cold instance or a slow phone, a call near the budget goes to
///   the worker.
/// - `worker`: heavier (large maps, leave-one-out curves over many points, the Monte Carlo audit
///   with many worlds), or heavy by nature (bandwidth selection). It runs in the worker; the page
///   stays responsive, and the widgets that run long jobs show progress and can cancel.
///
/// Nothing is refused here: what is too large for the core, the core refuses before it starts,
/// by its own work formula (`Limits::max_work`, cpp/include/kernel_lens/limits.hpp), with a message
/// that names the sizes. The estimates below only choose the place, so a wrong one costs time on
/// the page or a round trip to the worker, never a different answer.
///
/// The estimates are nanoseconds on a mid-range laptop (measured on the chapter's sizes and on
/// large ones; docs/performance.md), deliberately on the slow side: a call a little over its
/// estimate on a slower machine still stays within a few milliseconds on the page. Arguments that
/// are not sizes at all (NaN, negative, 2³² and more) get no estimate: such a call goes to the
/// worker, where the core refuses it with its own message.
import type { CoreCall } from './protocol';

/// The most a request may be estimated to take on the page (ms).
export const PAGE_BUDGET_MS = 4;
/// The most time the page's instance may spend in one task, measured (ms): once a task (say a
/// loop of small calls) has used it, its further requests go to the worker.
export const TASK_BUDGET_MS = 6;
/// Where no worker can be started (a page opened from a file, as deck exporters open theirs; a
/// host whose policy forbids workers), requests estimated at most this (ms) run on the page
/// instead of failing: a figure such as smoothing still draws, at the price of a short pause.
/// Heavier ones (a long audit) are refused with the reason the worker did not start.
export const NO_WORKER_BUDGET_MS = 100;
/// Requests estimated at most this (ms) stay on the page until a task has spent four times
/// TASK_BUDGET_MS: moving a call of microseconds (the sum of a few weights) would cost a message
/// round trip, and on a page without a worker yet, starting one.
export const TINY_MS = 0.05;
/// The page's instance starts out this many times slower than the estimates: its functions are
/// compiled lazily, to baseline code, on their first calls (the one-bandwidth audit of the
/// chapter's defaults takes about 18 ms on its first call and under 4 ms from the fifth, in
/// Node on the machine the estimates come from), and a phone runs several times slower still.
/// Measured calls then set the slowdown (`slowdownAfter`).
export const COLD_SLOWDOWN = 4;
/// Calls estimated under this (ms) say little about the instance's speed: their time is mostly
/// the crossing into wasm and the timer's resolution.
const CALIBRATION_MS = 0.25;

/// The slowdown after a call estimated at `estimatedMs` took `ms` on the page: halfway from the
/// old one to the measured ratio, between 1 and 16 (a laptop whose instance is warm runs calls
/// on the page up to PAGE_BUDGET_MS; one four times slower, up to a quarter of it).
export function slowdownAfter(slowdown: number, estimatedMs: number, ms: number): number {
  if (!(estimatedMs >= CALIBRATION_MS) || !Number.isFinite(ms)) return slowdown;
  return Math.min(16, Math.max(1, (slowdown + ms / estimatedMs) / 2));
}

/// The slowdown after a call was sent to the worker for it alone: 15 % lower, at least 1 (from
/// COLD_SLOWDOWN, calls that fit the page at full speed are back on it after nine).
export function relaxedSlowdown(slowdown: number): number {
  return Math.max(1, slowdown * 0.85);
}

/// Functions that always run in the worker, whatever their size.
const HEAVY = new Set(['bandwidthSelection']);

/// The cost of every call, whatever it does: crossing into wasm and back.
const CALL_NS = 20_000;
/// One query-key pair of attention-like work (a kernel value, its share of the softmax and of
/// A V, and the weights copied out), plus per-feature and per-value-column terms.
const PAIR_NS = 40;
const PAIR_FEATURE_NS = 2;
/// One score of a score matrix (distances, dot products) and one cell of a softmax.
const SCORE_NS = 15;
const SOFTMAX_CELL_NS = 35;
/// One character of CSV text.
const CSV_CHAR_NS = 300;

interface Placement {
  where: 'page' | 'worker';
  ms: number;
}

/// What a call costs and how many numbers it answers (for a later call that takes `resultOf` it).
interface Estimate {
  ns: number;
  out: number;
}

/// The chapter's defaults of the laboratory's settings (cpp/include/kernel_lens/laboratory.hpp,
/// exercises.hpp): a field a config leaves out takes these.
const LAB_DEFAULTS = { keys: 60, queries: 241, worlds: 1000, bandwidths: 8 };
const SELECTION_DEFAULTS = { train: 60, validation: 40, test: 40, curvePoints: 241, bandwidths: 8 };
const STANDARDIZE_DEFAULTS = { keys: 60, queries: 31 };

/// The largest size taken at face value: anything above is not a size the core accepts.
const MAX_SIZE = 2 ** 31;

class NotASize extends Error {}

/// Reads the arguments of one call; an argument that is an earlier call's result has that
/// call's output length.
class Args {
  constructor(
    private readonly args: readonly unknown[],
    private readonly outputs: readonly number[],
  ) {}

  /// The number of numbers in argument `i` (an array, a typed array or `resultOf`).
  length(i: number): number {
    const arg = this.args[i];
    if (ArrayBuffer.isView(arg)) return 'length' in arg && typeof arg.length === 'number' ? arg.length : arg.byteLength / 8;
    if (Array.isArray(arg)) return arg.length;
    if (typeof arg === 'string') return arg.length;
    if (arg !== null && typeof arg === 'object' && '$result' in arg) {
      const index = (arg as { $result: unknown }).$result;
      if (typeof index === 'number' && index >= 0 && index < this.outputs.length) return this.outputs[index] ?? 0;
    }
    throw new NotASize();
  }

  /// Argument `i` as a size (a positive count such as d, p or n); `fallback` when absent.
  size(i: number, fallback?: number): number {
    const value = this.args[i];
    if (value === undefined && fallback !== undefined) return fallback;
    return checkedSize(value);
  }

  /// Rows of a flat (rows × d) matrix argument.
  rows(i: number, d: number): number {
    return this.length(i) / Math.max(d, 1);
  }

  /// A size field of a config object (argument `i`), or its default.
  field(i: number, name: string, fallback: number): number {
    const config = this.args[i];
    if (config === undefined || config === null) return fallback;
    if (typeof config !== 'object') throw new NotASize();
    const value = (config as Record<string, unknown>)[name];
    if (value === undefined) return fallback;
    if (Array.isArray(value) || ArrayBuffer.isView(value)) return (value as ArrayLike<unknown>).length;
    return checkedSize(value);
  }
}

function checkedSize(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_SIZE) throw new NotASize();
  return value;
}

/// Attention-like work: m queries against n keys in d features, p value columns.
const pairs = (m: number, n: number, d: number, p = 0): number => m * n * (PAIR_NS + PAIR_FEATURE_NS * (d + p));

/// Each function's estimate from its arguments (see the .d.ts beside the wasm modules).
const ESTIMATES: Record<string, (a: Args) => Estimate> = {
  attention: (a) => {
    const d = a.size(3);
    const p = a.size(4);
    const m = a.rows(0, d);
    const n = a.rows(1, d);
    return { ns: pairs(m, n, d, p), out: m * n };
  },
  attentionMap: (a) => {
    const d = a.size(3);
    const p = a.size(4);
    const m = a.rows(0, d);
    return { ns: pairs(m, a.rows(1, d), d, p), out: m * p };
  },
  olsWeights: (a) => {
    const d = a.size(2);
    const n = a.rows(0, d);
    return { ns: n * (d + 1) ** 2 * 10 + (d + 1) ** 3 * 10, out: n };
  },
  olsPredict: (a) => {
    const d = a.size(3);
    const n = a.rows(0, d);
    const m = a.rows(2, d);
    return { ns: pairs(m, n, d) + n * (d + 1) ** 2 * 10 + (d + 1) ** 3 * 10, out: m * n };
  },
  logScores: (a) => scores(a.rows(0, a.size(2)), a.rows(1, a.size(2)), a.size(2)),
  squaredDistances: (a) => scores(a.rows(0, a.size(2)), a.rows(1, a.size(2)), a.size(2)),
  distanceScores: (a) => scores(a.rows(0, a.size(2)), a.rows(1, a.size(2)), a.size(2)),
  dotProductScores: (a) => scores(a.rows(0, a.size(2)), a.rows(1, a.size(2)), a.size(2)),
  rowSoftmax: (a) => softmax(a.length(0)),
  softmaxWithTemperature: (a) => softmax(a.length(0)),
  naiveNormalize: (a) => softmax(a.length(0)),
  nearestKeyLimit: (a) => ({ ns: a.length(1) * 10, out: a.rows(1, a.size(2)) }),
  uniformLimit: (a) => ({ ns: a.size(0) * 5, out: a.size(0) }),
  rowSums: (a) => ({ ns: a.length(0) * 5, out: a.length(0) / Math.max(a.size(1), 1) }),
  maxRowSumError: (a) => ({ ns: a.length(0) * 5, out: 1 }),
  underflowReport: (a) => ({ ns: a.length(1) * 100, out: a.rows(1, a.size(2)) }),
  interp: (a) => ({ ns: (a.length(0) + a.length(1)) * 20, out: a.length(0) }),
  sortedKeyPosition: (a) => ({ ns: (a.length(0) + a.length(1)) * 20, out: a.length(0) }),
  chapterDataset: (a) => ({ ns: (a.field(0, 'keys', LAB_DEFAULTS.keys) + a.field(0, 'queries', LAB_DEFAULTS.queries)) * 100, out: 0 }),
  truth: (a) => ({ ns: a.length(0) * 60, out: a.length(0) }),
  linspace: (a) => ({ ns: a.size(2) * 5, out: a.size(2) }),
  parseCsv: (a) => ({ ns: a.length(0) * CSV_CHAR_NS, out: 0 }),
  exactRisk: (a) => {
    const n = a.field(0, 'keys', LAB_DEFAULTS.keys);
    const m = a.field(0, 'queries', LAB_DEFAULTS.queries);
    const b = a.field(0, 'bandwidths', LAB_DEFAULTS.bandwidths);
    return { ns: b * m * n * 6 + n * m * 20, out: b };
  },
  biasVarianceSweep: (a) => sweep(a.field(0, 'worlds', LAB_DEFAULTS.worlds), a.field(0, 'keys', LAB_DEFAULTS.keys),
    a.field(0, 'queries', LAB_DEFAULTS.queries), a.field(0, 'bandwidths', LAB_DEFAULTS.bandwidths)),
  localLinear: (a) => {
    const d = a.size(3);
    const m = a.rows(0, d);
    const n = a.rows(1, d);
    // The NW rows, then per query a weighted covariance and a (d+1)² eigenproblem.
    return { ns: pairs(m, n, d, 1) + m * (n * (d + 1) * (d + 1) * PAIR_FEATURE_NS + 2_000 * (d + 1) ** 3), out: m * n };
  },
  smootherAudit: (a) => {
    const d = a.size(2);
    const m = a.rows(0, d);
    const n = a.rows(1, d);
    // Attention's weights twice (NW, and the line's start) and the line's per-query solve.
    return { ns: 2 * pairs(m, n, d, 1) + m * (n * (d + 1) * (d + 1) * PAIR_FEATURE_NS + 2_000 * (d + 1) ** 3), out: 4 * m };
  },
  looCurve: (a) => {
    const d = a.size(2);
    const n = a.rows(0, d);
    const b = a.length(3);
    return { ns: loo(n, d, b), out: b };
  },
  looFit: (a) => {
    const d = a.size(2);
    const n = a.rows(0, d);
    return { ns: loo(n, d, 1), out: 2 * n };
  },
  // One pass over the rows like looFit, with a second sweep of each row for the derivative.
  looRiskGradient: (a) => {
    const d = a.size(2);
    const n = a.rows(0, d);
    return { ns: loo(n, d, 1) + n * n * 4, out: 2 };
  },
  looDescent: (a) => {
    const d = a.size(2);
    const n = a.rows(0, d);
    const steps = a.size(5);
    return { ns: (steps + 1) * (loo(n, d, 1) + n * n * 4), out: 3 * (steps + 1) };
  },
  bandwidthSelection: (a) => {
    const train = a.field(0, 'train', SELECTION_DEFAULTS.train);
    const others = a.field(0, 'validation', SELECTION_DEFAULTS.validation) + a.field(0, 'test', SELECTION_DEFAULTS.test);
    const curve = a.field(0, 'curvePoints', SELECTION_DEFAULTS.curvePoints);
    const b = a.field(0, 'bandwidths', SELECTION_DEFAULTS.bandwidths);
    const audit = sweep(LAB_DEFAULTS.worlds, LAB_DEFAULTS.keys, LAB_DEFAULTS.queries, b).ns;
    return { ns: audit + loo(train, 1, b) + b * pairs(train + others, train, 1) + 4 * pairs(curve, train, 1), out: 0 };
  },
  standardizeExercise: (a) => {
    const n = a.field(0, 'keys', STANDARDIZE_DEFAULTS.keys);
    const m = a.field(0, 'queries', STANDARDIZE_DEFAULTS.queries);
    return { ns: 2 * pairs(m + n, n, 2), out: 0 };
  },
  gridMinimum: (a) => ({ ns: a.length(0) * 5, out: 0 }),
  bandCoverage: (a) => ({ ns: a.length(0) * 60, out: a.length(0) }),
  // The worlds' draws, then each curve (and the mean curve) over the queries.
  auditWorlds: (a) => {
    const worlds = a.field(0, 'worlds', LAB_DEFAULTS.worlds);
    const n = a.field(0, 'keys', LAB_DEFAULTS.keys);
    const m = a.field(0, 'queries', LAB_DEFAULTS.queries);
    const curves = a.size(2);
    return { ns: worlds * n * 30 + (curves + 1) * pairs(m, n, 1), out: curves * m };
  },
  histogram: (a) => ({ ns: a.length(0) * 10, out: a.size(1) }),
};

function scores(m: number, n: number, d: number): Estimate {
  return { ns: m * n * (SCORE_NS + PAIR_FEATURE_NS * d), out: m * n };
}

function softmax(cells: number): Estimate {
  return { ns: cells * SOFTMAX_CELL_NS, out: cells };
}

/// The Monte Carlo audit: the responses' covariance over the worlds, then per bandwidth the
/// weights and their quadratic form with it.
function sweep(worlds: number, n: number, m: number, bandwidths: number): Estimate {
  return { ns: worlds * n * n * 0.5 + bandwidths * (pairs(m, n, 1) + m * n * n * 0.5), out: bandwidths };
}

/// Leave-one-out: per bandwidth, every point against every other.
function loo(n: number, d: number, bandwidths: number): number {
  return bandwidths * n * n * (15 + 8 * d);
}

/// What a list of calls costs (ns) and whether one of them is heavy by nature; null when some
/// argument is not a size, or a config's fields cannot be read (the core refuses such a call with
/// its own message).
function estimate(calls: readonly CoreCall[]): { ns: number; heavy: boolean } | null {
  const outputs: number[] = [];
  let ns = 0;
  let heavy = false;
  for (const { fn, args } of calls) {
    const rule = ESTIMATES[fn];
    let cost: Estimate = { ns: 0, out: 0 };
    try {
      if (rule) cost = rule(new Args(Array.isArray(args) ? args : [], outputs));
    } catch {
      return null;
    }
    if (!Number.isFinite(cost.ns)) return null;
    ns += CALL_NS + cost.ns;
    outputs.push(cost.out);
    heavy ||= HEAVY.has(fn);
  }
  return { ns, heavy };
}

/// Where `calls` run (see the top of this file).
export function place(calls: readonly CoreCall[]): Placement {
  const found = estimate(calls);
  if (!found) return { where: 'worker', ms: Number.NaN };
  const ms = found.ns / 1e6;
  return { where: found.heavy || ms > PAGE_BUDGET_MS ? 'worker' : 'page', ms };
}
