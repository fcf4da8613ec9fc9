// localLinear in Node against NumPy's weighted least squares solved directly
// (tests/fixtures/local_linear.json from scripts/gen_fixtures_local_linear.py), the boundary
// weights, the fallback to NW, and the refusals.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadKernelLens, readFixture } from './load.mjs';
import { nonEmpty } from './fixtures.mjs';

let kl;
let fixture;
before(async () => {
  kl = await loadKernelLens();
  fixture = readFixture('local_linear.json');
});

function assertClose(actual, expected, tolerance, label) {
  assert.equal(actual.length, expected.length, `${label}: length`);
  for (let i = 0; i < expected.length; i += 1)
    assert.ok(Math.abs(actual[i] - expected[i]) <= tolerance, `${label}[${i}]: ${actual[i]} vs ${expected[i]}`);
}

test('weights and outputs agree with NumPy to 1e-10 for every kernel, d and p', () => {
  for (const [i, c] of nonEmpty(fixture.cases, 'cases').entries()) {
    const result = kl.localLinear(c.queries, c.keys, c.values, c.d, c.bandwidth, c.kernel);
    const label = `case ${i} (${c.kernel}, d=${c.d}, p=${c.p})`;
    assertClose(result.weights, c.weights, 1e-10, `${label} weights`);
    assertClose(result.outputs, c.outputs, 1e-10, `${label} outputs`);
    assert.deepEqual(result.fallbackRows, [], label);
  }
});

test('at the left edge the weights sum to one and go negative; NW stays one-sided', () => {
  const c = fixture.boundary;
  const result = kl.localLinear(c.queries, c.keys, c.values, 1, c.bandwidth);
  const n = c.keys.length;
  const edge = result.weights.subarray(0, n);
  assertClose(edge, c.weights.slice(0, n), 1e-10, 'boundary weights');
  assert.ok(Math.abs(edge.reduce((s, w) => s + w, 0) - 1) < 1e-12);
  assert.ok(Math.min(...edge) < 0);
  const nw = kl.attention(c.queries, c.keys, c.values, 1, 1, c.bandwidth).weights.subarray(0, n);
  assert.ok(Math.min(...nw) >= 0);
});

test('a far query that one key dominates keeps the NW weights and is listed', () => {
  const c = fixture.far;
  const result = kl.localLinear(c.queries, c.keys, c.values, 1, c.bandwidth);
  assert.deepEqual(result.fallbackRows, c.fallback_rows);
  const n = c.keys.length;
  const nw = kl.attention(c.queries, c.keys, c.values, 1, 1, c.bandwidth).weights;
  assert.deepEqual(Array.from(result.weights.subarray(n, 2 * n)), Array.from(nw.subarray(n, 2 * n)));
});

test('bad input gets a clear error', () => {
  const keys = [0, 1, 2];
  const values = [1, 2, 3];
  assert.throws(() => kl.localLinear([0.5], keys, values, 1, 0), RangeError);
  assert.throws(() => kl.localLinear([0.5], keys, values, 1, Number.NaN), RangeError);
  assert.throws(() => kl.localLinear([Number.NaN], keys, values, 1, 0.5), RangeError);
  assert.throws(() => kl.localLinear([0.5], keys, [1, 2], 1, 0.5), /values must hold p numbers per key/);
  assert.throws(() => kl.localLinear([0.5], keys, values, 1, 0.5, 'cosine'), /kernel must be one of/);
  assert.throws(() => kl.localLinear('junk', keys, values, 1, 0.5), TypeError);
  const nine = Array.from({ length: 9 * 10 }, (_, i) => Math.sin(i));
  assert.throws(() => kl.localLinear(nine.slice(0, 9), nine, nine.slice(0, 10), 9, 0.5), /at most 8 features/);
});

test('smootherAudit: exact bias and sd from each smoother\'s weights, and its refusals', () => {
  const c = fixture.boundary;
  const queries = [-0.2, 0, 0.5, 1, 1.2];
  const truthAtKeys = c.keys.map(Math.sin);
  const truthAtQueries = queries.map(Math.sin);
  const audit = kl.smootherAudit(queries, c.keys, 1, truthAtKeys, truthAtQueries, 0.25, c.bandwidth);
  const n = c.keys.length;
  const nw = kl.attention(queries, c.keys, truthAtKeys, 1, 1, c.bandwidth);
  const line = kl.localLinear(queries, c.keys, truthAtKeys, 1, c.bandwidth);
  for (let r = 0; r < queries.length; r += 1) {
    const norm = (w) => Math.hypot(...w.subarray(r * n, (r + 1) * n));
    assert.ok(Math.abs(audit.nadarayaWatson.bias[r] - (nw.outputs[r] - truthAtQueries[r])) < 1e-14);
    assert.ok(Math.abs(audit.localLinear.bias[r] - (line.outputs[r] - truthAtQueries[r])) < 1e-14);
    assert.ok(Math.abs(audit.nadarayaWatson.sd[r] - 0.25 * norm(nw.weights)) < 1e-14);
    assert.ok(Math.abs(audit.localLinear.sd[r] - 0.25 * norm(line.weights)) < 1e-14);
  }
  assert.deepEqual(audit.fallbackRows, []);
  assert.throws(() => kl.smootherAudit(queries, c.keys, 1, truthAtKeys.slice(1), truthAtQueries, 0.25, 0.2), /truthAtKeys has/);
  assert.throws(() => kl.smootherAudit(queries, c.keys, 1, truthAtKeys, truthAtQueries, Number.NaN, 0.2), /noise must be/);
  assert.throws(() => kl.smootherAudit(queries, c.keys, 1, truthAtKeys, truthAtQueries, 0.25, -1), RangeError);
});
