// Exercise 4 through the JavaScript API: keys [0, 0, 1], query 0. Small positive bandwidths split
// the exact tie; h ≤ 0, and a positive h whose square underflows, throw RangeError instead of NaN.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadKernelLens } from './load.mjs';

const KEYS = [0, 0, 1];
const QUERY = [0];
let kl;
before(async () => {
  kl = await loadKernelLens();
});

test('halving h drives the weights to the tie-splitting limit (0.5, 0.5, 0)', () => {
  // α3 = e^(−1/(2h²)) / (2 + e^(−1/(2h²))): 0.2327 at h = 1, 0.0634 at h = 0.5 (by hand).
  const at = (h) => Array.from(kl.attention(QUERY, KEYS, KEYS, 1, 1, h).weights);
  assert.ok(Math.abs(at(1)[2] - Math.exp(-0.5) / (2 + Math.exp(-0.5))) < 1e-15);
  assert.ok(Math.abs(at(0.5)[2] - Math.exp(-2) / (2 + Math.exp(-2))) < 1e-15);
  for (const h of [1 / 64, 1e-6, 1e-150]) assert.deepEqual(at(h), [0.5, 0.5, 0]);
  assert.deepEqual(Array.from(kl.nearestKeyLimit(QUERY, KEYS, 1)), [0.5, 0.5, 0]);
});

test('h = 0 and negative h are refused with the reason', () => {
  for (const h of [0, -1]) {
    assert.throws(() => kl.attention(QUERY, KEYS, KEYS, 1, 1, h), {
      name: 'RangeError',
      message: `bandwidth must be positive and finite, got ${h}`,
    });
    assert.throws(() => kl.logScores(QUERY, KEYS, 1, h), RangeError);
  }
});

test('a bandwidth whose square underflows is refused instead of returning NaN weights', () => {
  for (const call of [() => kl.attention(QUERY, KEYS, KEYS, 1, 1, 1e-200), () => kl.logScores(QUERY, KEYS, 1, 1e-200)]) {
    assert.throws(call, { name: 'RangeError', message: /too small: 2h\^2 underflows to 0/ });
  }
});
