// NumpyRandom in the wasm build against NumPy's default_rng streams, bit for bit (musl's libm
// must not change a single tail draw).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { bitsOf, hexBits } from './lab-fixture.mjs';
import { loadKernelLens, readFixture } from './load.mjs';
import { nonEmpty } from './fixtures.mjs';

let kl;
const fixture = readFixture('random.json');
before(async () => {
  kl = await loadKernelLens();
});

/** Index of the first differing draw, or -1. */
function firstMismatch(draws, expected) {
  const bits = bitsOf(draws);
  if (bits.length !== expected.length) return 0;
  return bits.findIndex((b, i) => b !== expected[i]);
}

test('consecutive calls reproduce default_rng streams bit for bit', () => {
  for (const stream of nonEmpty(fixture.streams, 'streams')) {
    const rng = new kl.NumpyRandom(stream.seed);
    try {
      for (const call of stream.calls) {
        const draws =
          call.method === 'random' ? rng.random(call.count)
          : call.method === 'uniform' ? rng.uniform(call.args[0], call.args[1], call.count)
          : call.method === 'standardNormal' ? rng.standardNormal(call.count)
          : rng.normal(call.args[0], call.args[1], call.count);
        assert.ok(draws instanceof Float64Array);
        assert.equal(firstMismatch(draws, hexBits(call.hex)), -1, `seed ${stream.seed}, ${call.method}(${call.count})`);
      }
    } finally {
      rng.delete();
    }
  }
});

test('long standard_normal streams agree, including every ziggurat tail draw', () => {
  for (const tail of nonEmpty(fixture.tails, 'tails')) {
    const rng = new kl.NumpyRandom(tail.seed);
    const draws = rng.standardNormal(tail.count);
    rng.delete();
    const bits = bitsOf(draws);
    const expected = hexBits(tail.tailHex);
    assert.ok(tail.tailIndices.length > 50);
    tail.tailIndices.forEach((index, i) => assert.equal(bits[index], expected[i], `seed ${tail.seed}, draw ${index}`));
    let checksum = 0n;
    for (const b of bits) checksum = (checksum + b) & 0xffffffffffffffffn;
    assert.equal(checksum.toString(), tail.checksum);
  }
});

test('bad seeds and counts throw RangeError / TypeError with messages', () => {
  assert.throws(() => new kl.NumpyRandom(-1), { name: 'RangeError', message: /seed must be an integer/ });
  assert.throws(() => new kl.NumpyRandom(2 ** 53), { name: 'RangeError', message: /2\^53 - 1/ });
  assert.throws(() => new kl.NumpyRandom(1.5), RangeError);
  assert.throws(() => new kl.NumpyRandom('1'), { name: 'TypeError', message: /seed must be a number/ });
  assert.throws(() => new kl.NumpyRandom(), TypeError);
  const rng = new kl.NumpyRandom(2 ** 53 - 1);
  try {
    assert.throws(() => rng.random(-1), RangeError);
    assert.throws(() => rng.random(kl.limits().maxDraws + 1), { name: 'RangeError', message: /limit/ });
    assert.throws(() => rng.normal(0, -1, 3), { name: 'RangeError', message: /scale/ });
    assert.throws(() => rng.uniform(0, 1), { name: 'TypeError', message: /count/ });
    assert.equal(rng.random(0).length, 0);
    assert.equal(rng.random(2).length, 2);
  } finally {
    rng.delete();
  }
});
