// The exact pointwise standard deviation of both smoothers (smootherAudit: sd = σ‖w(q)‖) against
// the spread of the laboratory's own 1,000 noisy worlds (chapterConfig's seeds, drawn here with
// NumpyRandom exactly as biasVarianceSweep draws them), and its mean square against exactRisk's
// variance. This is what the ±2 sd bands of the smoothing and local-linear figures draw.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadKernelLens } from './load.mjs';

let kl;
let config;
let data;
/// worlds × keys responses f(K) + noise, row-major, as NumPy's normal(size=(worlds, keys)).
let responses;
before(async () => {
  kl = await loadKernelLens();
  config = kl.chapterConfig();
  data = kl.chapterDataset();
  const rng = new kl.NumpyRandom(config.monteCarloSeed);
  const noise = rng.normal(0, config.noise, config.worlds * config.keys);
  rng.delete();
  responses = noise.map((e, k) => data.truthAtKeys[k % config.keys] + e);
});

/// Per query, the ddof-0 standard deviation and the mean over the worlds of the prediction w_r · y.
function spread(weights) {
  const n = config.keys;
  const m = weights.length / n;
  const sd = new Float64Array(m);
  const variance = new Float64Array(m);
  for (let r = 0; r < m; r += 1) {
    let sum = 0;
    let squares = 0;
    for (let w = 0; w < config.worlds; w += 1) {
      let prediction = 0;
      for (let i = 0; i < n; i += 1) prediction += weights[r * n + i] * responses[w * n + i];
      sum += prediction;
      squares += prediction * prediction;
    }
    const mean = sum / config.worlds;
    variance[r] = squares / config.worlds - mean * mean;
    sd[r] = Math.sqrt(variance[r]);
  }
  return { sd, variance };
}

const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;

// A ddof-0 standard deviation from N normal draws has relative standard error about 1/sqrt(2N)
// (0.022 for N = 1,000). Each query is allowed 5 of them; their root mean square over the 241
// queries (which share keys, so they are far from independent) 2 of them.
const RELATIVE_SE = 1 / Math.sqrt(2 * 1000);

for (const h of [0.05, 0.18, 0.65]) {
  test(`h = ${h}: the exact sd of NW and local linear is the spread of the 1,000 worlds`, () => {
    const audit = kl.smootherAudit(data.queries, data.keys, 1, data.truthAtKeys, data.truthAtQueries, config.noise, h);
    const nw = kl.attention(data.queries, data.keys, data.observedValues, 1, 1, h).weights;
    const line = kl.localLinear(data.queries, data.keys, data.observedValues, 1, h).weights;
    for (const [name, weights, exact] of [
      ['Nadaraya–Watson', nw, audit.nadarayaWatson.sd],
      ['local linear', line, audit.localLinear.sd],
    ]) {
      const { sd } = spread(weights);
      const relative = Array.from(exact, (s, r) => sd[r] / s - 1);
      const worst = relative.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a), 0);
      const rms = Math.sqrt(mean(relative.map((x) => x * x)));
      assert.ok(Math.abs(worst) < 5 * RELATIVE_SE, `${name}: worst relative deviation ${worst}`);
      assert.ok(rms < 2 * RELATIVE_SE, `${name}: root mean square relative deviation ${rms}`);
    }
  });
}

test('the worlds drawn here are the laboratory\'s: their mean variance is biasVarianceSweep\'s', () => {
  const sweep = kl.biasVarianceSweep();
  for (const row of sweep) {
    const nw = kl.attention(data.queries, data.keys, data.observedValues, 1, 1, row.bandwidth).weights;
    const monteCarlo = mean(Array.from(spread(nw).variance));
    assert.ok(Math.abs(monteCarlo / row.variance - 1) < 1e-9, `h = ${row.bandwidth}: ${monteCarlo} vs ${row.variance}`);
  }
});

test('the mean of sd² over the queries is exactRisk\'s variance (no sampling on either side)', () => {
  for (const row of kl.exactRisk()) {
    const audit = kl.smootherAudit(data.queries, data.keys, 1, data.truthAtKeys, data.truthAtQueries, config.noise, row.bandwidth);
    const meanSquare = mean(Array.from(audit.nadarayaWatson.sd, (s) => s * s));
    assert.ok(Math.abs(meanSquare / row.variance - 1) < 1e-10, `h = ${row.bandwidth}: ${meanSquare} vs ${row.variance}`);
  }
});

// bandCoverage's chance that a fresh sample's ±2 sd band holds the truth, against the laboratory's
// 1,000 worlds: the share of (world, query) pairs whose band holds it. With 1,000 worlds that
// share has a standard error of at most 0.5/sqrt(1000) = 0.016 (less: the queries average); 0.03
// is allowed. Each world's `observed` share is checked against a count made here.
for (const h of [0.05, 0.18, 0.65]) {
  test(`h = ${h}: bandCoverage's expected share is how often the worlds' bands hold the truth`, () => {
    const audit = kl.smootherAudit(data.queries, data.keys, 1, data.truthAtKeys, data.truthAtQueries, config.noise, h);
    const { bias, sd } = audit.nadarayaWatson;
    const weights = kl.attention(data.queries, data.keys, data.observedValues, 1, 1, h).weights;
    const n = config.keys;
    const m = data.queries.length;
    assert.ok(m > 0 && config.worlds > 0);
    let held = 0;
    let expected = Number.NaN;
    const curve = new Float64Array(m);
    for (let w = 0; w < config.worlds; w += 1) {
      let inside = 0;
      for (let r = 0; r < m; r += 1) {
        let prediction = 0;
        for (let i = 0; i < n; i += 1) prediction += weights[r * n + i] * responses[w * n + i];
        curve[r] = prediction;
        if (Math.abs(prediction - data.truthAtQueries[r]) <= 2 * sd[r]) inside += 1;
      }
      const coverage = kl.bandCoverage(curve, data.truthAtQueries, bias, sd, 2);
      assert.equal(coverage.observed, inside / m, `world ${w}`);
      held += inside;
      expected = coverage.expected;
      assert.equal(coverage.expected, mean(Array.from(coverage.probability)));
    }
    const share = held / (config.worlds * m);
    assert.ok(Math.abs(share - expected) < 0.03, `h = ${h}: the worlds' share ${share}, bandCoverage ${expected}`);
  });
}

test('bandCoverage refuses what is not a band', () => {
  assert.throws(() => kl.bandCoverage([0, 1], [0], [0, 0], [1, 1], 2), /truth has 1 numbers for 2 queries/);
  assert.throws(() => kl.bandCoverage([0], [0], [0], [-1], 2), /sd\[0\] must be >= 0/);
  assert.throws(() => kl.bandCoverage([0], [0], [0], [1], Number.NaN), /width must be positive and finite, got NaN/);
  assert.throws(() => kl.bandCoverage([], [], [], [], 2), /at least one query/);
  assert.throws(() => kl.bandCoverage([0], [Number.POSITIVE_INFINITY], [0], [1], 2), /truth\[0\] must be finite/);
});

test('auditWorlds: the laboratory\'s worlds at one bandwidth, their curves and one query\'s spread; histogram bins them', () => {
  const h = 0.18;
  const query = 120;
  const worlds = kl.auditWorlds(undefined, h, 5, data.queries[query] + 1e-3);
  assert.equal(worlds.queryIndex, query);
  const weights = kl.attention(data.queries, data.keys, data.observedValues, 1, 1, h).weights;
  const n = config.keys;
  const m = data.queries.length;
  assert.equal(worlds.curves.length, 5 * m);
  assert.equal(worlds.atQuery.length, config.worlds);
  const predict = (w, r) => {
    let y = 0;
    for (let i = 0; i < n; i += 1) y += weights[r * n + i] * responses[w * n + i];
    return y;
  };
  for (const w of [0, 4]) for (const r of [0, 60, query, m - 1]) assert.ok(Math.abs(worlds.curves[w * m + r] - predict(w, r)) < 1e-13);
  for (let w = 0; w < config.worlds; w += 1) assert.ok(Math.abs(worlds.atQuery[w] - predict(w, query)) < 1e-13, `world ${w}`);
  assert.ok(Math.abs(worlds.meanCurve[query] - mean(Array.from(worlds.atQuery))) < 1e-13);
  const audit = kl.smootherAudit(data.queries, data.keys, 1, data.truthAtKeys, data.truthAtQueries, config.noise, h);
  assert.equal(worlds.query, data.queries[query]);
  assert.equal(worlds.truth, data.truthAtQueries[query]);
  assert.ok(Math.abs(worlds.exactMean - worlds.truth - audit.nadarayaWatson.bias[query]) < 1e-14);
  assert.ok(Math.abs(worlds.exactSd / audit.nadarayaWatson.sd[query] - 1) < 1e-13);
  const bins = kl.histogram(worlds.atQuery, 20);
  assert.equal(bins.edges.length, 21);
  assert.equal(bins.counts.reduce((s, c) => s + c, 0), config.worlds);
  assert.equal(bins.edges[0], Math.min(...worlds.atQuery));
  assert.equal(bins.edges[20], Math.max(...worlds.atQuery));
  assert.throws(() => kl.auditWorlds(undefined, h, 201, 0), /curves is 201; the limit is 200/);
  assert.throws(() => kl.auditWorlds({ worlds: 10 }, h, 11, 0), /curves must be at most 10/);
  assert.throws(() => kl.auditWorlds(undefined, h, 5, Number.NaN), /query must be a finite number/);
  assert.throws(() => kl.histogram([], 3), /at least one number/);
});
