// gridMinimum in Node: numpy.argmin of the chapter's audit and hand-made curves
// (tests/fixtures/grid_minimum.json from scripts/gen_fixtures_grid.py), and its refusals.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadKernelLens, readFixture } from './load.mjs';

let kl;
before(async () => {
  kl = await loadKernelLens();
});

test('gridMinimum agrees with numpy.argmin on every fixture case', () => {
  for (const c of readFixture('grid_minimum.json').cases) {
    const minimum = kl.gridMinimum(Float64Array.from(c.bandwidths), c.risks);
    assert.deepEqual(minimum, { index: c.index, bandwidth: c.bandwidth, risk: c.risk }, c.name);
  }
});

test("the chapter's audit has its grid minimum at h = 0.18 with MSE 0.0236", () => {
  const rows = kl.biasVarianceSweep();
  const minimum = kl.gridMinimum(rows.map((r) => r.bandwidth), rows.map((r) => r.mse));
  assert.equal(minimum.bandwidth, 0.18);
  assert.equal(minimum.risk.toFixed(4), '0.0236');
});

test('gridMinimum refuses bad input with TypeError / RangeError naming the argument', () => {
  assert.throws(() => kl.gridMinimum('0.1', [1]), { name: 'TypeError', message: /bandwidths/ });
  assert.throws(() => kl.gridMinimum([0.1]), { name: 'TypeError', message: /risks/ });
  assert.throws(() => kl.gridMinimum([], []), { name: 'RangeError', message: /bandwidths must not be empty/ });
  assert.throws(() => kl.gridMinimum([0.1, 0.2], [1]), { name: 'RangeError', message: /one entry per bandwidth/ });
  assert.throws(() => kl.gridMinimum([0.1, 0], [1, 2]), { name: 'RangeError', message: /bandwidths\[1\]/ });
  assert.throws(() => kl.gridMinimum([0.1, 0.2], [1, NaN]), { name: 'RangeError', message: /risks/ });
  assert.equal(kl.gridMinimum([0.3], [2]).index, 0);
});
