/// Where a list of calls runs, decided from the sizes of its arguments before it starts.
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
/// How much work a call is, the core says: its work formulas (cpp/include/kernel_lens/work.hpp),
/// the same numbers it checks against `Limits::max_work` before it starts, answered by the page
/// instance's `workOf`. This file only reads each call's sizes from its arguments and knows how
/// fast a unit of each function's work runs (`Rule.ns`). Nothing is refused here: what is too
/// large, the core refuses with a message that names the sizes. The estimate only chooses the
/// place, so a wrong one costs time on the page or a round trip to the worker, never a different
/// answer.
///
/// The rates are nanoseconds on a mid-range laptop, deliberately on the slow side: a call a little
/// over its estimate on a slower machine still stays within a few milliseconds on the page.
/// Arguments that are not sizes at all (NaN, negative, 2³² and more), and configs the core
/// refuses, get no estimate: such a call goes to the worker, where the core refuses it with its
/// own message.
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
export const CALL_NS = 20_000;

interface Placement {
  where: 'page' | 'worker';
  ms: number;
}

/// The core's work formula (the page instance's `workOf`, wasm/core/bind_work.cpp): the work of a
/// call of `fn` with these sizes (and its config object), in the unit of `Limits::max_work`.
/// It throws what the core would throw for a config it refuses.
export type WorkOf = (fn: string, sizes: readonly number[], config?: unknown) => number;

/// A call's sizes, in the order of its work formula (`workFormulas()` names them), its config
/// object when it takes one, and how many numbers it answers (for a later call that takes
/// `resultOf` it; 0 for an answer no call takes).
interface Reading {
  sizes: number[];
  config?: unknown;
  out: number;
}

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

  /// Argument `i` as a size (a positive count such as d, p or n).
  size(i: number): number {
    const value = this.args[i];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_SIZE) throw new NotASize();
    return value;
  }

  /// Rows of a flat (rows × d) matrix argument.
  rows(i: number, d: number): number {
    return this.length(i) / Math.max(d, 1);
  }

  /// Argument `i` as it is (a config object: the core reads its fields and defaults).
  raw(i: number): unknown {
    return this.args[i];
  }
}

/// One function: how its sizes are read from its arguments, and what one unit of its work costs
/// (ns) on a mid-range laptop, warm, rounded up: the estimates stay on the slow side
/// (scripts/bench/work-rates.mjs, part of `npm run bench`, prints the measured rates beside these).
interface Rule {
  ns: number;
  read(a: Args): Reading;
}

/// A function with no sizes (constants, the modules' memory use).
const constant: Rule = { ns: 0, read: () => ({ sizes: [], out: 0 }) };
/// A function of one list, `ns` per entry, answering `out(length)` numbers.
const list = (ns: number, out: (length: number) => number = (length) => length): Rule => ({
  ns,
  read: (a) => ({ sizes: [a.length(0)], out: out(a.length(0)) }),
});
/// A score matrix of (m × d) queries against (n × d) keys, d the third argument.
const scoreMatrix: Rule = {
  ns: 8,
  read: (a) => {
    const d = a.size(2);
    const m = a.rows(0, d);
    const n = a.rows(1, d);
    return { sizes: [m, n, d], out: m * n };
  },
};
/// Queries (the first argument) against keys (the second) in d features (the fourth), weighting
/// `columns` value columns: attention, its map, local-linear fits; `out` counts the answer.
const weighted = (ns: number, columns: (a: Args, n: number) => number, out: (m: number, n: number, p: number) => number): Rule => ({
  ns,
  read: (a) => {
    const d = a.size(3);
    const m = a.rows(0, d);
    const n = a.rows(1, d);
    const p = columns(a, n);
    return { sizes: [m, n, d, p], out: out(m, n, p) };
  },
});
/// A cell-wise pass over a score matrix (softmax, normalisation).
const cells = list(35);
/// A config-only function of the laboratory.
const configured = (ns: number, sizes: (a: Args) => number[] = () => []): Rule => ({
  ns,
  read: (a) => ({ sizes: sizes(a), config: a.raw(0), out: 0 }),
});
/// One query (its d features) against keys (the second argument) in d features.
const oneQuery = (ns: number): Rule => ({
  ns,
  read: (a) => {
    const d = a.size(2);
    const n = a.rows(1, d);
    return { sizes: [n, d], out: n };
  },
});
/// Leave-one-out over keys (the first argument) in d features (the third).
const looRule = (ns: number, extra: (a: Args) => number[], out: (a: Args) => number): Rule => ({
  ns,
  read: (a) => {
    const d = a.size(2);
    return { sizes: [a.rows(0, d), d, ...extra(a)], out: out(a) };
  },
});

/// Every function of both modules (tests/e2e/engine.test.mjs holds this list equal to the core's
/// `workFormulas()` and to the modules' exports).
const RULES: Record<string, Rule> = {
  attention: weighted(15, (a) => a.size(4), (m, n) => m * n),
  attentionMap: weighted(15, (a) => a.size(4), (m, _n, p) => m * p),
  auditWorlds: configured(35, (a) => [a.size(2)]),
  bandCoverage: list(60),
  bandwidthFromTemperature: constant,
  bandwidthSelection: configured(2),
  biasVarianceSweep: configured(1.2),
  chapterConfig: constant,
  chapterDataset: configured(100),
  csvLimits: constant,
  distanceScores: scoreMatrix,
  dotProductScores: scoreMatrix,
  exactRisk: configured(10),
  gridMinimum: list(5, () => 0),
  heapBytes: constant,
  histogram: { ns: 10, read: (a) => ({ sizes: [a.length(0)], out: a.size(1) }) },
  interp: { ns: 20, read: (a) => ({ sizes: [a.length(0), a.length(1)], out: a.length(0) }) },
  kernelNames: constant,
  labMemoryUsage: constant,
  limits: constant,
  linspace: { ns: 5, read: (a) => ({ sizes: [a.size(2)], out: a.size(2) }) },
  localLinear: weighted(35, (a, n) => a.length(2) / Math.max(n, 1), (m, n) => m * n),
  logScores: scoreMatrix,
  looCurve: looRule(20, (a) => [a.length(3)], (a) => a.length(3)),
  looDescent: looRule(14, (a) => [a.size(5)], (a) => 3 * (a.size(5) + 1)),
  looFit: looRule(12, () => [], (a) => 2 * a.rows(0, a.size(2))),
  looRiskGradient: looRule(14, () => [], () => 2),
  maxRowSumError: list(5, () => 1),
  memoryUsage: constant,
  naiveNormalize: cells,
  nearestKeyLimit: oneQuery(8),
  // The weights' two routes (the chapter's normal equations, checked against a QR solve) cost
  // more per unit than the formula's leading terms suggest.
  olsPredict: {
    ns: 80,
    read: (a) => {
      const d = a.size(3);
      const n = a.rows(0, d);
      const m = a.rows(2, d);
      return { sizes: [n, d, m], out: m * n };
    },
  },
  olsWeights: {
    ns: 80,
    read: (a) => {
      const d = a.size(2);
      const n = a.rows(0, d);
      return { sizes: [n, d], out: n };
    },
  },
  parseCsv: list(300, () => 0),
  rowSoftmax: cells,
  rowSums: { ns: 5, read: (a) => ({ sizes: [a.length(0)], out: a.length(0) / Math.max(a.size(1), 1) }) },
  smootherAudit: {
    ns: 35,
    read: (a) => {
      const d = a.size(2);
      const m = a.rows(0, d);
      return { sizes: [m, a.rows(1, d), d], out: 4 * m };
    },
  },
  softmaxWithTemperature: cells,
  sortedKeyPosition: { ns: 20, read: (a) => ({ sizes: [a.length(0), a.length(1)], out: a.length(0) }) },
  squaredDistances: scoreMatrix,
  standardizeExercise: configured(16),
  temperatureFromBandwidth: constant,
  truth: list(60),
  underflowReport: oneQuery(50),
  uniformLimit: { ns: 5, read: (a) => ({ sizes: [a.size(0)], out: a.size(0) }) },
  workFormulas: constant,
  workOf: constant,
};

/// The functions cost.ts reads (tests/e2e/engine.test.mjs holds them equal to the core's).
export const RULE_NAMES: readonly string[] = Object.keys(RULES);

/// The rate of `fn` (ns per unit of the core's work), for scripts/bench/work-rates.mjs.
export function nsPerWork(fn: string): number | undefined {
  return RULES[fn]?.ns;
}

/// What a list of calls costs (ns) and whether one of them is heavy by nature; null when some
/// argument is not a size, or the core refuses the sizes or a config (it refuses such a call with
/// its own message, wherever it runs).
function estimate(calls: readonly CoreCall[], work: WorkOf): { ns: number; heavy: boolean } | null {
  const outputs: number[] = [];
  let ns = 0;
  let heavy = false;
  for (const { fn, args } of calls) {
    const rule = RULES[fn];
    if (!rule) return null;
    let cost: number;
    let out: number;
    try {
      const reading = rule.read(new Args(Array.isArray(args) ? args : [], outputs));
      cost = rule.ns === 0 ? 0 : rule.ns * work(fn, reading.sizes, reading.config);
      out = reading.out;
    } catch {
      return null;
    }
    if (!Number.isFinite(cost)) return null;
    ns += CALL_NS + cost;
    outputs.push(out);
    heavy ||= HEAVY.has(fn);
  }
  return { ns, heavy };
}

/// Where `calls` run (see the top of this file), by the core's work formula `work`.
export function place(calls: readonly CoreCall[], work: WorkOf): Placement {
  const found = estimate(calls, work);
  if (!found) return { where: 'worker', ms: Number.NaN };
  const ms = found.ns / 1e6;
  return { where: found.heavy || ms > PAGE_BUDGET_MS ? 'worker' : 'page', ms };
}
