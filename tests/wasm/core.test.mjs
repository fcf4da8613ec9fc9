// The core JavaScript API (sections 12.1-12.5) against the chapter's printed digits and NumPy fixtures.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { loadKernelLens, readFixture } from './load.mjs';
import { nonEmpty } from './fixtures.mjs';
import { bitsOf, hexBits } from './lab-fixture.mjs';

const fixture = readFixture('core.json');
const chapter = fixture.chapter;
let kl;

before(async () => {
  kl = await loadKernelLens();
});

/** max |a_i - b_i| over two equally long arrays. */
function maxAbsDifference(a, b) {
  assert.equal(a.length, b.length, 'lengths differ');
  let worst = 0;
  for (let i = 0; i < a.length; i += 1) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

const fixed4 = (x) => x.toFixed(4);

describe('the chapter\'s numbers', () => {
  test('three-point lookup: weights (0.0002, 0.9413, 0.0585), prediction 2.7412', () => {
    const { keys, values, query, bandwidth } = chapter.three_point;
    const { weights, outputs } = kl.attention([query], keys, values, 1, 1, bandwidth);
    assert.ok(weights instanceof Float64Array && outputs instanceof Float64Array);
    assert.deepEqual(Array.from(weights, fixed4), ['0.0002', '0.9413', '0.0585']);
    assert.equal(fixed4(outputs[0]), '2.7412');
    assert.ok(maxAbsDifference(weights, chapter.three_point.weights) < 1e-15);
  });

  test('OLS weights (-0.10, 0.05, 0.20, 0.35, 0.50) and the witness predictions', () => {
    const ols = chapter.ols;
    const weights = kl.olsWeights(ols.keys, [ols.query], 1);
    assert.ok(weights instanceof Float64Array);
    assert.deepEqual(Array.from(weights, fixed4), ['-0.1000', '0.0500', '0.2000', '0.3500', '0.5000']);
    assert.ok(maxAbsDifference(weights, ols.weights) < 1e-15);
    const { predictions } = kl.olsPredict(ols.keys, ols.witness, [ols.query], 1);
    assert.equal(fixed4(predictions[0]), '-0.1000');
    const nw = kl.attention([ols.query], ols.keys, ols.witness, 1, 1, ols.nw_bandwidth);
    assert.deepEqual(Array.from(nw.weights, fixed4), ['0.0010', '0.0206', '0.1520', '0.4132', '0.4132']);
    assert.equal(fixed4(nw.outputs[0]), '0.0010');
    assert.ok(maxAbsDifference(nw.weights, ols.nw_weights) < 1e-15);
  });

  test("OLS weights equal the chapter's np.linalg.solve route bit for bit at every slider stop (q = 1: first weight 0)", () => {
    const { keys, stops } = fixture.ols_slider_stops;
    for (const stop of nonEmpty(stops, 'ols_slider_stops.stops')) {
      const expected = hexBits(stop.weights);
      assert.deepEqual(bitsOf(kl.olsWeights(keys, [stop.query], 1)), expected, `q = ${stop.query}`);
      assert.deepEqual(bitsOf(kl.olsPredict(keys, [0, 0, 0, 0, 0], [stop.query], 1).weights), expected, `q = ${stop.query}`);
    }
    assert.ok(Object.is(kl.olsWeights(keys, [1], 1)[0], 0));
  });

  test('log-kernel identity: normalize(K) and softmax(log K) differ at the 1e-17 level', () => {
    const { query, bandwidth, weights, log_kernel: logKernel } = chapter.identity;
    const report = kl.underflowReport([query], chapter.chapter_keys, 1, bandwidth);
    assert.equal(report.naiveAllFinite, true);
    assert.ok(report.maxAbsDifference < 1e-16, `difference ${report.maxAbsDifference}`);
    assert.equal(report.maxAbsDifference.toExponential(2), '2.78e-17', 'the chapter prints 2.78e-17');
    assert.ok(maxAbsDifference(report.stableWeights, weights) < 1e-15);
    for (let i = 0; i < logKernel.length; i += 1)
      assert.ok(Math.abs(report.logScores[i] - logKernel[i]) <= 1e-15 * Math.abs(logKernel[i]));
    assert.ok(maxAbsDifference(report.kernelValues, logKernel.map(Math.exp)) < 1e-15);
  });

  test('far query at 1,000 with h = 0.1: naive 0/0, stable sum 1 on the nearest key 2.9886', () => {
    const { query, bandwidth, stable_weights: stableWeights, nearest_index: nearestIndex } = chapter.far;
    const report = kl.underflowReport([query], chapter.chapter_keys, 1, bandwidth);
    assert.equal(report.naiveDenominator.toFixed(1), '0.0');
    assert.equal(report.naiveAllFinite, false);
    assert.ok(report.naiveWeights.every(Number.isNaN));
    assert.equal(report.maxAbsDifference, null);
    assert.equal(report.stableSum.toFixed(1), '1.0');
    assert.equal(report.nearestIndex, nearestIndex);
    assert.equal(fixed4(chapter.chapter_keys[report.nearestIndex]), '2.9886');
    assert.ok(maxAbsDifference(report.stableWeights, stableWeights) < 1e-15);
    assert.ok(kl.naiveNormalize(report.logScores, 60).every(Number.isNaN));
    const stable = kl.rowSoftmax(report.logScores, 60);
    assert.ok(stable.every(Number.isFinite));
  });

  test('the 31 x 60 attention map: shapes and row sums within 1e-15', () => {
    const { queries, bandwidth, weights, outputs } = chapter.map;
    const result = kl.attention(queries, chapter.chapter_keys, chapter.observed_values, 1, 1, bandwidth);
    assert.equal(result.weights.length, 31 * 60);
    assert.equal(result.outputs.length, 31);
    assert.ok(kl.maxRowSumError(result.weights, 60) <= 1e-15);
    assert.equal(kl.maxRowSumError(result.weights, 60).toExponential(2), '2.22e-16', 'the chapter prints 2.22e-16');
    assert.ok(maxAbsDifference(result.weights, weights) < 1e-14);
    assert.ok(maxAbsDifference(result.outputs, outputs) < 1e-14);
  });

  test('exact ties split the mass as h shrinks; huge h tends to 1/n', () => {
    const { keys, cases } = chapter.ties;
    for (const { bandwidth, weights } of cases) {
      const result = kl.attention([0], keys, [0, 0, 0], 1, 1, bandwidth);
      assert.ok(maxAbsDifference(result.weights, weights) < 1e-15, `h = ${bandwidth}`);
    }
    assert.deepEqual(Array.from(kl.nearestKeyLimit([0], keys, 1)), [0.5, 0.5, 0]);
    assert.deepEqual(Array.from(kl.nearestKeyLimit([0.9, 0.8], [0, 0, 1, 1, -1, 1], 2)), [0, 1, 0]);
    const uniform = kl.uniformLimit(60);
    assert.equal(uniform.length, 60);
    assert.ok(uniform.every((w) => w === 1 / 60));
    const wide = kl.attention([0.37], chapter.chapter_keys, chapter.observed_values, 1, 1, 1e9);
    assert.ok(maxAbsDifference(wide.weights, uniform) < 1e-16);
  });

  test('bandwidth is temperature: tau = 2h^2', () => {
    assert.equal(kl.temperatureFromBandwidth(0.18).toFixed(4), '0.0648');
    assert.equal(kl.temperatureFromBandwidth(1), 2);
    assert.equal(kl.bandwidthFromTemperature(2), 1);
    const example = fixture.attention_cases[2];
    const n = example.keys.length / example.d;
    const unscaled = kl.distanceScores(example.queries, example.keys, example.d);
    assert.ok(maxAbsDifference(unscaled, example.squared_distances.map((x) => -x)) < 1e-13);
    const tau = kl.temperatureFromBandwidth(example.bandwidth);
    assert.ok(maxAbsDifference(kl.softmaxWithTemperature(unscaled, n, tau), example.weights) < 1e-12);
  });

  test('dot products: magnitude participates', () => {
    assert.deepEqual(Array.from(kl.dotProductScores([1, 0], [1, 0, 2, 0], 2)), [1, 2]);
  });
});

describe('random shapes, bandwidths and kernels against NumPy', () => {
  test('attention weights and outputs within 1e-12', () => {
    for (const example of nonEmpty(fixture.attention_cases, 'attention_cases')) {
      const { queries, keys, values, d, p, bandwidth, kernel } = example;
      const label = `${kernel} d=${d} n=${keys.length / d} h=${bandwidth}`;
      if (example.empty_rows.length > 0) {
        assert.throws(() => kl.attention(queries, keys, values, d, p, bandwidth, kernel),
          (e) => e instanceof RangeError && e.message.includes(`query row ${example.empty_rows[0]} `), label);
      }
      const result = kl.attention(new Float64Array(queries), new Float64Array(keys), new Float64Array(values),
        d, p, bandwidth, kernel, 'nearest');
      assert.ok(maxAbsDifference(result.weights, example.weights) < 1e-12, label);
      assert.ok(maxAbsDifference(result.outputs, example.outputs) < 1e-12, label);
      assert.ok(kl.maxRowSumError(result.weights, keys.length / d) < 1e-15, label);
    }
  });

  test('scores: squared distances, dot products, Gaussian log-scores', () => {
    for (const example of nonEmpty(fixture.attention_cases, 'attention_cases')) {
      const { queries, keys, d, bandwidth } = example;
      const distances = kl.squaredDistances(queries, keys, d);
      assert.ok(maxAbsDifference(distances, example.squared_distances) < 1e-13);
      assert.ok(maxAbsDifference(kl.dotProductScores(queries, keys, d), example.dot_products) < 1e-13);
      const scores = kl.logScores(queries, keys, d, bandwidth);
      const expected = example.squared_distances.map((x) => -x / (2 * bandwidth * bandwidth));
      for (let i = 0; i < scores.length; i += 1)
        assert.ok(Math.abs(scores[i] - expected[i]) <= 1e-12 * Math.max(1, Math.abs(expected[i])));
    }
    const compact = kl.logScores([0], [0, 0.5, 2], 1, 1, 'epanechnikov');
    assert.ok(compact[0] === 0);
    assert.equal(compact[2], -Infinity);
  });

  test('OLS weights and predictions within 1e-12', () => {
    for (const example of nonEmpty(fixture.ols_cases, 'ols_cases')) {
      const { keys, queries, targets, d } = example;
      const result = kl.olsPredict(keys, targets, queries, d);
      assert.ok(maxAbsDifference(result.weights, example.weights) < 1e-12);
      assert.ok(maxAbsDifference(result.predictions, example.predictions) < 1e-12);
      const n = keys.length / d;
      const first = kl.olsWeights(keys, queries.slice(0, d), d);
      assert.ok(maxAbsDifference(first, example.weights.slice(0, n)) < 1e-12);
    }
  });
});

describe('the fused attention rows', () => {
  /** Deterministic values on [-3, 3] (a linear congruential sequence). */
  const spread = (count, seed) => Float64Array.from({ length: count }, (_, i) => (((seed + i * 7919) * 104729) % 6007) / 1000 - 3);

  test('Gaussian weights are rowSoftmax(logScores) bit for bit, for d = 1 and d = 3, odd and even n', () => {
    for (const [m, n, d, h] of [[7, 61, 1, 0.18], [5, 64, 3, 0.9], [3, 2, 1, 1e-3]]) {
      const queries = spread(m * d, 11);
      const keys = spread(n * d, 29);
      const { weights } = kl.attention(queries, keys, spread(n, 3), d, 1, h);
      const reference = kl.rowSoftmax(kl.logScores(queries, keys, d, h), n);
      assert.deepEqual(Array.from(weights), Array.from(reference), `m=${m} n=${n} d=${d} h=${h}`);
    }
  });

  test('into: the results land in the caller\'s arrays, bit for bit those of a call without them', () => {
    const queries = spread(300, 5);
    const keys = spread(500, 17);
    const values = spread(1000, 23);
    const fresh = kl.attention(queries, keys, values, 1, 2, 0.4);
    const into = { weights: new Float64Array(300 * 500).fill(Number.NaN), outputs: new Float64Array(600).fill(Number.NaN) };
    const result = kl.attention(queries, keys, values, 1, 2, 0.4, undefined, undefined, into);
    assert.equal(result.weights, into.weights);
    assert.equal(result.outputs, into.outputs);
    assert.deepEqual(Array.from(into.weights), Array.from(fresh.weights));
    assert.deepEqual(Array.from(into.outputs), Array.from(fresh.outputs));
  });

  test('into: false leaves a result out, a missing field gets a new array, the rest is the same bits', () => {
    const queries = spread(40, 5);
    const keys = spread(70, 17);
    const values = spread(140, 23);
    const fresh = kl.attention(queries, keys, values, 1, 2, 0.4);
    const outputsOnly = kl.attention(queries, keys, values, 1, 2, 0.4, undefined, undefined, { weights: false });
    assert.deepEqual(Object.keys(outputsOnly), ['outputs']);
    assert.deepEqual(Array.from(outputsOnly.outputs), Array.from(fresh.outputs));
    const weightsOnly = kl.attention(queries, keys, values, 1, 2, 0.4, undefined, undefined, { outputs: false });
    assert.deepEqual(Object.keys(weightsOnly), ['weights']);
    assert.deepEqual(Array.from(weightsOnly.weights), Array.from(fresh.weights));
    const outputs = new Float64Array(80);
    const mixed = kl.attention(queries, keys, values, 1, 2, 0.4, undefined, undefined, { outputs });
    assert.equal(mixed.outputs, outputs);
    assert.deepEqual(Array.from(mixed.weights), Array.from(fresh.weights));
    assert.deepEqual(Object.keys(kl.attention(queries, keys, values, 1, 2, 0.4, undefined, undefined, { weights: false, outputs: false })), []);
  });

  test('a refused call leaves the into arrays as they were', () => {
    const into = { weights: new Float64Array(3).fill(7), outputs: new Float64Array(1).fill(7) };
    assert.throws(() => kl.attention([0.5], [1, 2, 3], [1, 2, 3], 1, 1, -1, undefined, undefined, into), RangeError);
    assert.deepEqual(Array.from(into.weights), [7, 7, 7]);
    assert.deepEqual(Array.from(into.outputs), [7]);
  });
});

describe('attentionMap: the map figure\'s frame', () => {
  const palette = Uint8Array.from({ length: 257 * 4 }, (_, i) => (i % 4 === 3 ? 255 : (i >> 2) & 255));
  const { queries, keys, values } = { queries: chapter.map.queries, keys: chapter.chapter_keys, values: chapter.observed_values };

  test('the chapter\'s map: 2.22e-16, outputs and the highlighted row as attention computes them', () => {
    const h = chapter.map.bandwidth;
    const map = kl.attentionMap(queries, keys, values, 1, 1, h, { palette, row: 15 });
    const full = kl.attention(queries, keys, values, 1, 1, h);
    assert.equal(map.maxRowSumError.toExponential(2), '2.22e-16');
    assert.equal(map.maxRowSumError, kl.maxRowSumError(full.weights, 60));
    assert.deepEqual(Array.from(map.outputs), Array.from(full.outputs));
    assert.deepEqual(Array.from(map.rowWeights), Array.from(full.weights.subarray(15 * 60, 16 * 60)));
    assert.equal(map.width, 60);
    assert.equal(map.height, 31);
    assert.ok(map.image instanceof Uint8Array);
    assert.equal(map.image.length, 60 * 31 * 4);
    assert.equal(map.low, Math.min(...full.weights));
    assert.equal(map.high, Math.max(...full.weights));
    assert.equal(map.zeros, false);
  });

  test('an image at the size it is shown, and the log scale\'s zeros', () => {
    const map = kl.attentionMap(queries, keys, values, 1, 1, 0.05, { palette, width: 20, height: 10, scale: 'log' });
    assert.equal(map.image.length, 20 * 10 * 4);
    assert.equal(map.zeros, true);
    assert.ok(map.low > 0 && map.low < 1e-300, `low ${map.low}`);
  });

  test('bad views are refused with the field\'s name', () => {
    const call = (view) => () => kl.attentionMap(queries, keys, values, 1, 1, 0.18, view);
    assert.throws(call(undefined), /^TypeError: view must be an object \{ scale\?, row\?, width\?, height\?, palette \}$/);
    assert.throws(() => kl.attentionMap(queries, keys, values, 1, 1, 0.18), /^TypeError: attentionMap takes 7 to 9 arguments/);
    assert.throws(call({ palette, row: 31 }), /^RangeError: row must be a query row from 0 to 30, got 31$/);
    assert.throws(call({ palette, width: 61 }), /width must be from 1 to the number of keys \(60\)/);
    assert.throws(call({ palette: palette.subarray(4) }), /palette must hold 257 RGBA colours \(1028 bytes\), got 1024 bytes/);
    assert.throws(call({ palette: [...palette.subarray(4), 1, 2, 3, 256] }), /palette entries must be integers from 0 to 255, got 256/);
    assert.throws(call({ palette, scale: 'ln' }), /scale must be "linear" or "log", got "ln"/);
    assert.throws(call({ palette, zoom: 2 }), /^TypeError: view has an unknown field "zoom"; expected one of height, palette, row, scale, width$/);
    assert.throws(call({ palette, scale: 2 }), /^TypeError: scale must be a string$/);
  });
});

describe('softmax helpers', () => {
  test('rowSums adds each row in NumPy\'s pairwise order; a bad width is refused', () => {
    assert.deepEqual(Array.from(kl.rowSums([0.25, 0.25, 0.5, 1, 2, 3], 3)), [1, 6]);
    const weights = kl.attention([0.3, 1.7], chapter.chapter_keys, chapter.observed_values, 1, 1, 0.18).weights;
    const sums = kl.rowSums(weights, 60);
    assert.equal(Math.max(...Array.from(sums, (x) => Math.abs(x - 1))), kl.maxRowSumError(weights, 60));
    assert.throws(() => kl.rowSums([1, 2, 3], 2), RangeError);
  });

  test('rowSoftmax tolerates -Infinity; naiveNormalize returns NaN on underflow', () => {
    const weights = kl.rowSoftmax([0, -Infinity, Math.log(3), 1000, 1000, -Infinity], 3);
    assert.ok(Math.abs(weights[0] - 0.25) < 1e-15 && weights[1] === 0 && Math.abs(weights[2] - 0.75) < 1e-15);
    assert.deepEqual(Array.from(weights.slice(3)), [0.5, 0.5, 0]);
    const naive = kl.naiveNormalize([-800, -801, 0, 0], 2);
    assert.ok(Number.isNaN(naive[0]) && Number.isNaN(naive[1]));
    assert.deepEqual(Array.from(naive.slice(2)), [0.5, 0.5]);
    assert.equal(kl.maxRowSumError([0.5, 0.5, 0.25, 0.5], 2), 0.25);
  });

  test('kernelNames and limits', () => {
    assert.deepEqual(kl.kernelNames(), ['gaussian', 'laplacian', 'epanechnikov', 'tricube']);
    assert.deepEqual(kl.limits(), {
      maxCells: 16777216, maxRows: 4194304, maxDimension: 64, maxWorlds: 100000, maxDraws: 16777216,
      maxBandwidths: 4096, maxWork: 1073741824,
    });
  });

  test('results are copies that survive memory growth', () => {
    const { weights } = kl.attention([3.5], [1, 3, 5], [1.5, 2.8, 1.8], 1, 1, 0.6);
    const before = Array.from(weights);
    const big = new Float64Array(2048).map((_, i) => i / 100);
    kl.attention(big, big, big, 1, 1, 0.5);
    assert.equal(weights.buffer.byteLength, weights.byteLength);
    assert.deepEqual(Array.from(weights), before);
  });
});

describe('every invalid call throws a JavaScript error naming the argument', () => {
  const q = [3.5];
  const k = [1, 3, 5];
  const v = [1.5, 2.8, 1.8];
  const cases = [
    ['no arguments', () => kl.attention(), TypeError, /^attention takes 6 to 9 arguments \(queries, keys, values, d, p, bandwidth, kernel\?, emptyRows\?, into\?\), got 0$/],
    ['too many arguments', () => kl.attention(q, k, v, 1, 1, 0.6, 'gaussian', 'error', undefined, 0), TypeError,
      /^attention takes 6 to 9 arguments \(.*\), got 10$/],
    ['into not an object', () => kl.attention(q, k, v, 1, 1, 0.6, 'gaussian', 'error', 0), TypeError,
      /^into must be an object \{ weights, outputs \} of Float64Arrays$/],
    ['into.weights of the wrong length', () => kl.attention(q, k, v, 1, 1, 0.6, undefined, undefined,
      { weights: new Float64Array(2), outputs: new Float64Array(1) }), TypeError, /^into\.weights must hold 3 numbers, got 2$/],
    ['into.outputs not a Float64Array', () => kl.attention(q, k, v, 1, 1, 0.6, undefined, undefined,
      { weights: new Float64Array(3), outputs: [0] }), TypeError, /^into\.outputs must be a Float64Array or false$/],
    ['into.weights a Float32Array', () => kl.attention(q, k, v, 1, 1, 0.6, undefined, undefined,
      { weights: new Float32Array(3), outputs: new Float64Array(1) }), TypeError, /^into\.weights must be a Float64Array or false$/],
    ['queries not an array', () => kl.attention('abc', k, v, 1, 1, 0.6), TypeError, /queries must be an array/],
    ['keys null', () => kl.attention(q, null, v, 1, 1, 0.6), TypeError, /keys must be an array/],
    ['values a DataView', () => kl.attention(q, k, new DataView(new ArrayBuffer(8)), 1, 1, 0.6), TypeError,
      /values must be an array/],
    ['d a string', () => kl.attention(q, k, v, '1', 1, 0.6), TypeError, /d must be a number/],
    ['d zero', () => kl.attention(q, k, v, 0, 1, 0.6), RangeError, /d must be an integer >= 1, got 0/],
    ['d fractional', () => kl.attention(q, k, v, 1.5, 1, 0.6), RangeError, /d must be an integer/],
    ['d above the cap', () => kl.attention(q, k, v, 65, 1, 0.6), RangeError, /d is 65; the limit is 64/],
    ['p negative', () => kl.attention(q, k, v, 1, -1, 0.6), RangeError, /p must be an integer/],
    ['bandwidth missing', () => kl.attention(q, k, v, 1, 1), TypeError, /^attention takes 6 to 9 arguments .*, got 5$/],
    ['bandwidth undefined', () => kl.attention(q, k, v, 1, 1, undefined), TypeError, /bandwidth must be a number/],
    ['bandwidth zero', () => kl.attention(q, k, v, 1, 1, 0), RangeError, /bandwidth must be positive and finite, got 0/],
    ['bandwidth negative', () => kl.attention(q, k, v, 1, 1, -0.6), RangeError, /got -0.6/],
    ['bandwidth NaN', () => kl.attention(q, k, v, 1, 1, NaN), RangeError, /bandwidth must be positive and finite/],
    ['bandwidth Infinity', () => kl.attention(q, k, v, 1, 1, Infinity), RangeError, /bandwidth must be positive/],
    ['kernel unknown', () => kl.attention(q, k, v, 1, 1, 0.6, 'cosine'), RangeError, /kernel must be one of/],
    ['kernel not a string', () => kl.attention(q, k, v, 1, 1, 0.6, 7), TypeError, /kernel must be a string/],
    ['emptyRows unknown', () => kl.attention(q, k, v, 1, 1, 0.6, 'gaussian', 'skip'), RangeError,
      /emptyRows must be "error" or "nearest"/],
    ['queries length not a multiple of d', () => kl.attention([1, 2, 3], [1, 2], [1], 2, 1, 0.6), RangeError,
      /queries has length 3, which is not a multiple of its row width 2/],
    ['Q/K dimensions disagree', () => kl.attention([1, 2], [1, 2, 3, 4], [1], 2, 1, 0.6), RangeError,
      /values have 1 rows but keys have 2/],
    ['K/V row counts disagree', () => kl.attention(q, k, [1, 2], 1, 1, 0.6), RangeError,
      /values have 2 rows but keys have 3/],
    ['empty key set', () => kl.attention(q, [], [], 1, 1, 0.6), RangeError, /keys must have at least one row/],
    ['empty query set', () => kl.attention([], k, v, 1, 1, 0.6), RangeError, /queries must have at least one row/],
    ['NaN key', () => kl.attention(q, [1, NaN, 5], v, 1, 1, 0.6), RangeError, /keys\[1, 0\] must be finite/],
    ['infinite query', () => kl.attention([Infinity], k, v, 1, 1, 0.6), RangeError, /queries\[0, 0\] must be finite/],
    ['non-numeric value', () => kl.attention(q, k, [1, 'x', 2], 1, 1, 0.6), TypeError, /^values\[1\] must be a number, got string$/],
    ['compact kernel sees no key', () => kl.attention([100], k, v, 1, 1, 0.6, 'epanechnikov'), RangeError,
      /query row 0 has no key inside the support of the epanechnikov kernel/],
    ['too many cells', () => kl.attention(new Float64Array(5000), new Float64Array(5000), new Float64Array(5000), 1, 1, 1),
      RangeError, /the limit is 16777216/],
    ['OLS with one key', () => kl.olsWeights([1], [0], 1), RangeError, /at least d \+ 1 = 2 keys/],
    ['OLS with collinear keys', () => kl.olsWeights([1, 2, 2, 4, 3, 6], [0, 0], 2), RangeError, /rank-deficient/],
    ['OLS query of the wrong size', () => kl.olsWeights([0, 1, 2], [0, 1], 1), RangeError, /query has 2 entries/],
    ['OLS targets of the wrong size', () => kl.olsPredict([0, 1, 2], [1, 2], [0], 1), RangeError,
      /targets have 2 entries but keys have 3 rows/],
    ['logScores bad bandwidth', () => kl.logScores(q, k, 1, -1), RangeError, /bandwidth must be positive/],
    ['squaredDistances bad d', () => kl.squaredDistances(q, k, 'x'), TypeError, /d must be a number/],
    ['dotProductScores mismatched', () => kl.dotProductScores([1, 2], [1, 2, 3], 2), RangeError, /keys has length 3/],
    ['rowSoftmax all -Infinity row', () => kl.rowSoftmax([0, 0, -Infinity, -Infinity], 2), RangeError,
      /scores row 1 has no finite entry/],
    ['rowSoftmax NaN', () => kl.rowSoftmax([NaN, 0], 2), RangeError, /scores\[0, 0\] must be finite or -Infinity/],
    ['rowSoftmax +Infinity', () => kl.rowSoftmax([Infinity, 0], 2), RangeError, /must be finite or -Infinity/],
    ['softmaxWithTemperature zero', () => kl.softmaxWithTemperature([0, 1], 2, 0), RangeError,
      /temperature must be positive and finite/],
    ['naiveNormalize bad n', () => kl.naiveNormalize([0, 1, 2], 2), RangeError, /not a multiple/],
    ['temperatureFromBandwidth negative', () => kl.temperatureFromBandwidth(-1), RangeError, /bandwidth must be positive/],
    ['bandwidthFromTemperature string', () => kl.bandwidthFromTemperature('2'), TypeError, /temperature must be a number/],
    ['nearestKeyLimit empty keys', () => kl.nearestKeyLimit([0], [], 1), RangeError, /keys must have at least one row/],
    ['uniformLimit zero', () => kl.uniformLimit(0), RangeError, /n must be an integer >= 1/],
    ['maxRowSumError NaN', () => kl.maxRowSumError([NaN], 1), RangeError, /weights\[0, 0\] must be finite/],
    ['underflowReport bad query', () => kl.underflowReport([0, 0], k, 1, 0.1), RangeError, /query has 2 entries/],
  ];
  for (const [name, call, type, message] of cases) {
    test(name, () => {
      assert.throws(call, (e) => e instanceof type && message.test(e.message), name);
      const { outputs } = kl.attention(q, k, v, 1, 1, 0.6);
      assert.equal(outputs[0].toFixed(4), '2.7412');
    });
  }
});

describe('numbers in messages read as JavaScript prints them: the shortest text that reads back as the number', () => {
  /// Expected texts from the engine's own Number.prototype.toString.
  const cases = [-0.6, -1e-7, -1e300, -2.5e-5, -123456.789, -0.30000000000000004, -5e-324, -1.5e-323, -1.7976931348623157e308,
    -(0.1 + 2 ** -56), -99999.99999999999, -1e16, -1e21, -1e20, -0.0001, -0.000001, -300, -100, -1 / 3]
    .map((x) => [x, String(x)])
    .concat([[-Infinity, '-Infinity']]);
  for (const [x, text] of cases) {
    test(text, () => {
      assert.throws(() => kl.temperatureFromBandwidth(x), {
        name: 'RangeError',
        message: `bandwidth must be positive and finite, got ${text}`,
      });
    });
  }
});
