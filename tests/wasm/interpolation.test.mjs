// interp / sortedKeyPosition (the k = q trace of Figure 12.3 right) against numpy.interp fixtures.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadKernelLens, readFixture } from './load.mjs';
import { nonEmpty } from './fixtures.mjs';

const fixture = readFixture('interpolation.json');
const kl = await loadKernelLens();

/** Asserts |actual_i - expected_i| <= tolerance entry by entry, naming the first miss. */
function assertClose(actual, expected, tolerance) {
  assert.equal(actual.length, expected.length, 'lengths differ');
  const miss = Array.from(actual).findIndex((x, i) => !(Math.abs(x - expected[i]) <= tolerance));
  assert.equal(miss, -1, `entry ${miss}: ${actual[miss]} vs ${expected[miss]}`);
}

test('sortedKeyPosition reproduces np.interp(queries, keys, arange(n)) on the chapter keys', () => {
  for (const trace of nonEmpty(fixture.traces, 'traces')) {
    const positions = kl.sortedKeyPosition(trace.queries, Float64Array.from(trace.keys));
    assert.ok(positions instanceof Float64Array);
    assertClose(positions, trace.positions, 1e-12);
  }
});

test('the chapter dataset gives the same keys and trace as NumPy', () => {
  const { keys, queries } = kl.chapterDataset({ queries: 31 });
  assertClose(keys, fixture.traces[0].keys, 1e-15);
  assertClose(kl.sortedKeyPosition(queries, keys), fixture.traces[0].positions, 1e-12);
  assert.deepEqual(
    fixture.tick_indices.map((i) => keys[i].toFixed(1)),
    fixture.tick_labels,
  );
});

test('interp matches numpy.interp inside, outside and on repeated points', () => {
  for (const example of nonEmpty(fixture.cases, 'cases')) {
    assertClose(kl.interp(example.x, example.xp, example.fp), example.expected, 1e-12);
  }
});

test('bad input throws TypeError or RangeError naming the argument', () => {
  assert.throws(() => kl.interp('x', [0, 1], [0, 1]), { name: 'TypeError', message: /x must be an array/ });
  assert.throws(() => kl.interp([0.5], [0, 1], [0]), { name: 'RangeError', message: /same length/ });
  assert.throws(() => kl.interp([0.5], [1, 0], [0, 1]), { name: 'RangeError', message: /nondecreasing/ });
  assert.throws(() => kl.interp([Number.NaN], [0, 1], [0, 1]), { name: 'RangeError', message: /x\[0\]/ });
  assert.throws(() => kl.sortedKeyPosition([0], []), { name: 'RangeError', message: /keys must hold/ });
  assert.equal(kl.interp([0.5], [0, 1], [0, 10])[0], 5);
});
