// The laboratory's public JS API against the chapter's printed digits and NumPy fixtures.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { hexDoubles, relativeClose } from './lab-fixture.mjs';
import { loadKernelLens, readFixture } from './load.mjs';
import { nonEmpty } from './fixtures.mjs';

let kl;
const fixture = readFixture('laboratory.json');
before(async () => {
  kl = await loadKernelLens();
});

function assertRows(rows, expected) {
  assert.equal(rows.length, expected.length);
  rows.forEach((row, i) => {
    assert.deepEqual(Object.keys(row).sort(), ['bandwidth', 'bias2', 'mse', 'tau', 'variance']);
    assert.equal(row.bandwidth, expected[i].bandwidth);
    for (const field of ['tau', 'bias2', 'variance', 'mse'])
      assert.ok(relativeClose(row[field], expected[i][field]), `row ${i} ${field}: ${row[field]} vs ${expected[i][field]}`);
  });
}

function assertClose(actual, expected, label, tolerance = 1e-9) {
  assert.equal(actual.length, expected.length, label);
  const scale = Math.max(1, ...Array.from(expected, Math.abs));
  for (let i = 0; i < expected.length; i += 1)
    assert.ok(Math.abs(actual[i] - expected[i]) <= tolerance * scale, `${label}[${i}]: ${actual[i]} vs ${expected[i]}`);
}

test("chapterConfig returns the chapter's values", () => {
  assert.deepEqual(kl.chapterConfig(), {
    keySeed: 605012, observedSeed: 605013, monteCarloSeed: 605014, keys: 60, queries: 241, worlds: 1000,
    noise: 0.25, bandwidths: [0.05, 0.08, 0.12, 0.18, 0.28, 0.42, 0.65, 1.0],
    keyLow: -3, keyHigh: 3, queryLow: -2.9, queryHigh: 2.9,
  });
});

test("chapterDataset is NumPy's dataset", () => {
  const data = kl.chapterDataset();
  assert.deepEqual(Array.from(data.keys), Array.from(hexDoubles(fixture.chapter.keys)));
  assert.deepEqual(Array.from(data.queries), Array.from(hexDoubles(fixture.chapter.queries)));
  assertClose(data.observedValues, hexDoubles(fixture.chapter.observedValues), 'observedValues', 1e-14);
  assertClose(data.truthAtQueries, kl.truth(data.queries), 'truthAtQueries', 0);
  assert.equal(data.truthAtKeys.length, 60);
});

test("biasVarianceSweep prints the chapter's table and grid minimum", () => {
  const printed = [
    ['0.05', '0.0050', '0.0119', '0.0343', '0.0462'], ['0.08', '0.0128', '0.0101', '0.0247', '0.0348'],
    ['0.12', '0.0288', '0.0090', '0.0169', '0.0259'], ['0.18', '0.0648', '0.0127', '0.0109', '0.0236'],
    ['0.28', '0.1568', '0.0304', '0.0069', '0.0373'], ['0.42', '0.3528', '0.0747', '0.0047', '0.0794'],
    ['0.65', '0.8450', '0.1721', '0.0031', '0.1753'], ['1.00', '2.0000', '0.3142', '0.0022', '0.3164'],
  ];
  const rows = kl.biasVarianceSweep({});
  assert.deepEqual(rows.map((r) => [r.bandwidth.toFixed(2), r.tau.toFixed(4), r.bias2.toFixed(4), r.variance.toFixed(4), r.mse.toFixed(4)]), printed);
  const best = rows.reduce((a, b) => (b.mse < a.mse ? b : a));
  assert.equal(`h=${best.bandwidth.toFixed(2)}, MSE=${best.mse.toFixed(4)}`, 'h=0.18, MSE=0.0236');
});

test('biasVarianceSweep and exactRisk agree with NumPy for the chapter and other configurations', () => {
  assertRows(kl.biasVarianceSweep(), fixture.chapter.sweep);
  assertRows(kl.exactRisk({ bandwidths: fixture.chapter.exactRiskBandwidths }), fixture.chapter.exactRisk);
  for (const other of nonEmpty(fixture.other, 'other')) {
    assertRows(kl.biasVarianceSweep(other.config), other.sweep);
    assertRows(kl.exactRisk(other.config), other.exactRisk);
  }
});

test('looCurve agrees with NumPy', () => {
  const { keys, values, d, bandwidths, mse } = fixture.loo;
  assertClose(kl.looCurve(hexDoubles(keys), Array.from(hexDoubles(values)), d, bandwidths), mse, 'loo');
});

test('looFit: the fitted values are attention over every key, the error is looCurve at that bandwidth', () => {
  const { keys, values, d, bandwidths } = fixture.loo;
  const K = hexDoubles(keys);
  const V = hexDoubles(values);
  const n = V.length;
  for (const kernel of ['gaussian', 'laplacian', 'epanechnikov', 'tricube']) {
    for (const h of bandwidths.slice(0, 4)) {
      const fit = kl.looFit(K, V, d, h, kernel);
      assert.ok(fit.fitted instanceof Float64Array && fit.fitted.length === n);
      assert.equal(fit.heldOut.length, n);
      const curve = kl.looCurve(K, V, d, [h], kernel)[0];
      assert.ok(Object.is(fit.mse, curve), `${kernel} h=${h}: ${fit.mse} vs ${curve}`);
      const { outputs } = kl.attention(K, K, V, d, 1, h, kernel, 'nearest');
      for (let i = 0; i < n; i++) assert.ok(Math.abs(fit.fitted[i] - outputs[i]) <= 1e-12 * (1 + Math.abs(outputs[i])), `${kernel} h=${h} row ${i}`);
    }
  }
  assert.throws(() => kl.looFit(K, V, d, 0), { name: 'RangeError', message: /bandwidth/ });
  assert.throws(() => kl.looFit(K, V, d, 0.5, 'cosine'), { name: 'RangeError', message: /kernel/ });
  assert.throws(() => kl.looFit(K, V.subarray(1), d, 0.5), { name: 'RangeError', message: /values/ });
});

test('linspace and truth', () => {
  const x = kl.linspace(-2.9, 2.9, 241);
  assert.equal(x[0], -2.9);
  assert.equal(x[240], 2.9);
  assert.ok(Math.abs(kl.truth([0])[0] - 0.3) < 1e-15);
});

test('bandwidthSelection (exercise 3) matches NumPy', () => {
  for (const e of nonEmpty(fixture.selection, 'selection')) {
    const r = kl.bandwidthSelection(e.config);
    assert.deepEqual(Array.from(r.trainKeys), Array.from(hexDoubles(e.trainKeys)));
    assert.deepEqual(Array.from(r.testKeys), Array.from(hexDoubles(e.testKeys)));
    assertClose(r.validationMse, e.validationMse, 'validationMse');
    assertClose(r.trainingMse, e.trainingMse, 'trainingMse');
    assertClose(r.looMse, e.looMse, 'looMse');
    assert.equal(r.selectedIndex, e.selectedIndex);
    assert.equal(r.selectedBandwidth, e.config.bandwidths[e.selectedIndex]);
    assert.ok(relativeClose(r.testMse, e.testMse));
    assert.equal(r.looSelectedIndex, e.looSelectedIndex);
    assert.ok(relativeClose(r.looTestMse, e.looTestMse));
    assert.equal(r.truthGridMinimum.index, e.truthIndex);
    assert.ok(relativeClose(r.truthGridMinimum.mse, e.truthMse));
    assert.ok(relativeClose(r.truthGridMinimum.testMse, e.truthTestMse));
    assert.equal(r.selectedCurve.length, r.curveQueries.length);
  }
  assert.equal(kl.bandwidthSelection().truthGridMinimum.bandwidth, 0.18);
});

test('standardizeExercise (exercise 5) matches NumPy', () => {
  for (const e of nonEmpty(fixture.standardize, 'standardize')) {
    const r = kl.standardizeExercise(e.config);
    const n = e.config.keys;
    assertClose(r.rawKeys, hexDoubles(e.rawKeys), 'rawKeys', 1e-15);
    assertClose(r.rawWeights, hexDoubles(e.rawWeights), 'rawWeights');
    assertClose(r.standardizedWeights, hexDoubles(e.standardizedWeights), 'standardizedWeights');
    assert.equal(r.rawWeights.length, e.config.queries * n);
    assertClose(r.mean, e.mean, 'mean');
    assertClose(r.scale, e.scale, 'scale');
    assertClose(r.rawDistanceShare, e.rawDistanceShare, 'rawDistanceShare');
    assertClose(r.standardizedDistanceShare, e.standardizedDistanceShare, 'standardizedDistanceShare');
    assert.ok(relativeClose(r.rawMse, e.rawMse));
    assert.ok(relativeClose(r.standardizedMse, e.standardizedMse));
  }
});

test('bad configs throw with messages', () => {
  assert.throws(() => kl.biasVarianceSweep({ worlds: 1 }), { name: 'RangeError', message: /worlds must be at least 2/ });
  assert.throws(() => kl.biasVarianceSweep({ noise: -0.1 }), { name: 'RangeError', message: /noise/ });
  assert.throws(() => kl.exactRisk({ bandwidths: [] }), { name: 'RangeError', message: /bandwidths must not be empty/ });
  assert.throws(() => kl.exactRisk({ worlds: kl.limits().maxWorlds + 1 }), { name: 'RangeError', message: /limit/ });
  assert.throws(() => kl.exactRisk({ keys: 5000, queries: 5000 }), { name: 'RangeError', message: /limit/ });
  assert.throws(() => kl.biasVarianceSweep({ bandwith: 1 }), { name: 'TypeError', message: /unknown field "bandwith"/ });
  assert.throws(() => kl.biasVarianceSweep({ noise: '0.2' }), { name: 'TypeError', message: /noise must be a number/ });
  assert.throws(() => kl.biasVarianceSweep({ bandwidths: 0.2 }), { name: 'TypeError', message: /bandwidths/ });
  assert.throws(() => kl.biasVarianceSweep(42), { name: 'TypeError', message: /plain object/ });
  assert.throws(() => kl.chapterDataset({ keys: 2.5 }), { name: 'RangeError', message: /keys must be an integer/ });
  assert.throws(() => kl.bandwidthSelection({ train: 1 }), { name: 'RangeError', message: /train must be at least 2/ });
  assert.throws(() => kl.standardizeExercise({ featureScales: [1] }), { name: 'RangeError', message: /featureScales/ });
  assert.throws(() => kl.looCurve([0, 1], [1], 1, [0.5]), { name: 'RangeError', message: /values/ });
  assert.equal(kl.biasVarianceSweep({ keys: 10, worlds: 2, queries: 3 }).length, 8);
});
