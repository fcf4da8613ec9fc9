// The JavaScript boundary (wasm/common.hpp, wasm/boundary.js): argument counts, counts and sizes
// as JavaScript numbers, arguments that run the caller's code, and messages in JavaScript's terms.
// Each case failed before the boundary returned its errors instead of throwing them across wasm
// frames (issue 16, items 1-3, 7, 8, 11, 13; issue 14, items 3 and 5).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { importWasm, loadKernelLens, readWasm } from './load.mjs';
import { assertLookupAnswers as answersLookup, K, memoryUsage, Q, V } from './lookup.mjs';

let kl;
before(async () => {
  kl = await loadKernelLens();
});

const usage = () => memoryUsage(kl);
const assertLookupAnswers = () => answersLookup(kl);

/// `call` throws `type` with a message matching `message` and shorter than 300 characters.
function refuses(call, type, message) {
  assert.throws(call, (error) => {
    assert.equal(error.constructor, type, `${error.name}: ${error.message}`);
    assert.match(error.message, message);
    assert.ok(error.message.length < 300, `a short message: ${error.message.length} characters`);
    return true;
  });
}

describe('a call with too many or too few arguments is a short TypeError', () => {
  test('free functions', () => {
    refuses(() => kl.limits(1), TypeError, /^limits takes no arguments, got 1$/);
    refuses(() => kl.attention(Q, K, V, 1, 1, 0.6, 'gaussian', 'error', undefined, 0, 0), TypeError,
      /^attention takes 6 to 9 arguments \(queries, keys, values, d, p, bandwidth, kernel\?, emptyRows\?, into\?\), got 11$/);
    refuses(() => kl.olsWeights(K), TypeError, /^olsWeights takes 3 arguments \(keys, query, d\), got 1$/);
    refuses(() => kl.parseCsv(), TypeError, /^parseCsv takes 1 argument \(text\), got 0$/);
    refuses(() => kl.looCurve(K, V, 1, [1], 'gaussian', 7), TypeError, /^looCurve takes 4 to 5 arguments/);
    refuses(() => kl.chapterDataset({}, {}), TypeError, /^chapterDataset takes 0 to 1 argument/);
    assertLookupAnswers();
  });

  test('methods and the constructor, and a method of a deleted NumpyRandom', () => {
    refuses(() => new kl.NumpyRandom(), TypeError, /^new NumpyRandom takes 1 argument \(seed\), got 0$/);
    refuses(() => new kl.NumpyRandom(1, 2), TypeError, /got 2$/);
    refuses(() => kl.NumpyRandom(1), TypeError, /must be called with new/);
    const rng = new kl.NumpyRandom(7);
    assert.ok(rng instanceof kl.NumpyRandom);
    refuses(() => rng.random(), TypeError, /^NumpyRandom\.random takes 1 argument \(count\), got 0$/);
    refuses(() => rng.uniform(0, 1, 2, 3), TypeError, /^NumpyRandom\.uniform takes 3 arguments/);
    assert.equal(rng.random(3).length, 3);
    rng.delete();
    refuses(() => rng.random(3), TypeError, /^NumpyRandom\.random was called after delete\(\)/);
    refuses(() => kl.NumpyRandom.prototype.random.call({}, 3), TypeError, /must be called on a NumpyRandom/);
  });
});

describe('counts and sizes are checked as JavaScript numbers: nothing wraps to 32 bits', () => {
  const cases = [
    ['worlds 2^32 + 1000', () => kl.biasVarianceSweep({ worlds: 2 ** 32 + 1000, bandwidths: [0.5] }), /^worlds is 4294968296; the limit is/],
    ['keys 2^32 + 3', () => kl.chapterDataset({ keys: 2 ** 32 + 3 }), /^keys is 4294967299; the limit is/],
    ['linspace count 2^32', () => kl.linspace(0, 1, 2 ** 32), /^count is 4294967296; the limit is 4194304$/],
    ['uniformLimit 2^31', () => kl.uniformLimit(2 ** 31), /^n is 2147483648; the limit is 4194304$/],
    ['attention d 2^32', () => kl.attention(Q, K, V, 2 ** 32, 1, 0.6), /^d is 4294967296; the limit is 64$/],
    ['attention p 2^32 + 1', () => kl.attention(Q, K, V, 1, 2 ** 32 + 1, 0.6), /^p is 4294967297; the limit is 64$/],
    ['rowSoftmax n 2^32', () => kl.rowSoftmax([0, 1], 2 ** 32), /^n is 4294967296; the limit is/],
    ['looCurve d 2^32', () => kl.looCurve(K, V, 2 ** 32, [1]), /^d is 4294967296; the limit is 64$/],
    ['seed 2^53', () => kl.chapterDataset({ keySeed: 2 ** 53 }), /^keySeed must be an integer from 0 to 2\^53 - 1/],
  ];
  for (const [name, call, message] of cases) {
    test(name, () => {
      refuses(call, RangeError, message);
      const start = usage();
      for (let i = 0; i < 100; i++) assert.throws(call, RangeError);
      assert.deepEqual(usage(), start);
      assertLookupAnswers();
    });
  }

  test('random(2^32) and friends', () => {
    const rng = new kl.NumpyRandom(1);
    try {
      refuses(() => rng.random(2 ** 32), RangeError, /^count is 4294967296; the limit is 16777216$/);
      refuses(() => rng.normal(0, 1, 2 ** 32 + 2), RangeError, /^count is 4294967298/);
      refuses(() => rng.random(Infinity), RangeError, /^count must be an integer >= 0, got Infinity$/);
      assert.equal(rng.random(2).length, 2);
    } finally {
      rng.delete();
    }
  });
});

describe('arguments that could run the caller\'s code are read before any wasm frame is live', () => {
  test('a Float64Array subclass that overrides length is read with its real length', () => {
    class Longer extends Float64Array {
      get length() {
        return 64;
      }
    }
    kl.attention(new Float64Array(64).fill(1), new Float64Array(64).fill(2), new Float64Array(64).fill(3), 1, 1, 1);
    const result = kl.attention(Longer.from(Q), Longer.from(K), Longer.from(V), 1, 1, 0.6);
    assert.equal(result.outputs.length, 1);
    assert.equal(result.weights.length, 3);
    assert.equal(result.outputs[0].toFixed(4), '2.7412');
    const own = new Float64Array([3.5]);
    Object.defineProperty(own, 'length', { value: 50 });
    assert.equal(kl.attention(own, K, V, 1, 1, 0.6).outputs.length, 1);
  });

  test('other typed arrays are read as numbers; BigInt arrays are refused', () => {
    assert.equal(kl.attention(new Float32Array(Q), new Int32Array(K), V, 1, 1, 0.6).outputs[0].toFixed(4), '2.7412');
    refuses(() => kl.attention(new BigInt64Array([3n]), K, V, 1, 1, 0.6), TypeError, /^queries must hold numbers, not BigInts/);
    refuses(() => kl.attention([3.5, '1'], K, V, 1, 1, 0.6), TypeError, /^queries\[1\] must be a number, got string$/);
  });

  test('a config whose ownKeys throws, or a getter that throws, leaks nothing', () => {
    const start = usage();
    const hostile = new Proxy({}, {
      ownKeys() {
        throw new Error('ownKeys refused');
      },
    });
    const getter = { get keys() { throw new Error('getter refused'); } };
    const array = new Proxy([1, 2], { get(target, key) { if (key === '0') throw new Error('index refused'); return Reflect.get(target, key); } });
    for (let i = 0; i < 2000; i++) {
      assert.throws(() => kl.biasVarianceSweep(hostile), /ownKeys refused/);
      assert.throws(() => kl.chapterDataset(getter), /getter refused/);
      assert.throws(() => kl.truth(array), /index refused/);
    }
    assert.deepEqual(usage(), start);
    assertLookupAnswers();
  });
});

describe('messages speak JavaScript', () => {
  test('the core\'s field names become the API\'s names', () => {
    refuses(() => kl.chapterDataset({ keyLow: 2, keyHigh: 1 }), RangeError, /keyLow.*keyHigh/);
    refuses(() => kl.bandwidthSelection({ curvePoints: 0 }), RangeError, /^curvePoints must be at least 1/);
    refuses(() => kl.standardizeExercise({ featureScales: [1, 0] }), RangeError, /^featureScales\[1\] must be positive/);
    refuses(() => kl.attention(Q, K, V, 1, 1, 0.6, 'gaussian', 'closest'), RangeError, /^emptyRows must be "error" or "nearest", got "closest"$/);
    refuses(() => kl.rowSoftmax([NaN, 0], 2), RangeError, /^scores\[0, 0\] must be finite or -Infinity, got NaN$/);
    refuses(() => kl.attention(Q, K, V, 1, 1, Infinity), RangeError, /got Infinity$/);
  });

  test('a Gaussian whose scores all overflow is not told about supports or emptyRows: it answers the nearest key', () => {
    for (const h of [1e-160, 1e-155]) {
      const { weights, outputs } = kl.attention([0], [1, 2], [1, 2], 1, 1, h);
      assert.deepEqual(Array.from(weights), [1, 0]);
      assert.deepEqual(Array.from(outputs), [1]);
    }
    refuses(() => kl.attention([0], [1, 2], [1, 2], 1, 1, 0.5, 'tricube'), RangeError, /support of the tricube kernel.*emptyRows to "nearest"/);
  });

  test('a bandwidth whose temperature overflows says so instead of "got inf"', () => {
    refuses(() => kl.temperatureFromBandwidth(1e308), RangeError, /^bandwidth 1e\+308 has no finite temperature: 2h\^2 overflows double precision above h = 9\.48/);
    assert.equal(kl.temperatureFromBandwidth(9e153) > 0, true);
  });
});

test('a failed call leaves the wasm stack pointer where it was', () => {
  const failures = () => {
    assert.throws(() => kl.attention(Q, K, V, 1, 1, -1), RangeError);
    assert.throws(() => kl.parseCsv('x,y\n1,a\n'), RangeError);
    assert.throws(() => new kl.NumpyRandom(-1), RangeError);
    assert.throws(() => kl.looCurve(K, V, 1, [-1]), RangeError);
  };
  // Warm-up: the allocator settles its free lists on the first few failures of each kind.
  for (let i = 0; i < 10; i++) failures();
  const start = usage();
  assert.equal(typeof start.core.stackPointer, 'number');
  assert.equal(typeof start.lab.stackPointer, 'number');
  for (let i = 0; i < 1000; i++) failures();
  assert.deepEqual(usage(), start);
  assertLookupAnswers();
});

describe('every size is checked against its limit before anything is copied into wasm (issue 33, item 1)', () => {
  const PALETTE = Array(1028).fill(0);
  const cases = [
    ['attention, 10^8 queries', () => kl.attention(Array(1e8), K, V, 1, 1, 0.6), /^queries has 100000000 entries; the limit is 16777216$/],
    ['rowSums, 10^8 weights', () => kl.rowSums(Array(1e8), 1), /^weights has 100000000 entries; the limit is 16777216$/],
    ['gridMinimum, 10^8 bandwidths', () => kl.gridMinimum(Array(1e8), [1]), /^bandwidths has 100000000 entries; the limit is 16777216$/],
    ['attention, 2^24 queries of one feature', () => kl.attention(new Float64Array(2 ** 24), K, V, 1, 1, 0.6), /^queries has 16777216 rows; the limit is 4194304$/],
    ['rowSums, 2^24 rows', () => kl.rowSums(new Float64Array(2 ** 24), 1), /^weights has 16777216 rows; the limit is 4194304$/],
    ['gridMinimum, 2^23 bandwidths', () => kl.gridMinimum(new Float64Array(2 ** 23), [1]), /^bandwidths has 8388608 entries; the limit is 4096$/],
    ['attentionMap, a palette of 2^22 bytes', () => kl.attentionMap(Q, K, V, 1, 1, 0.6, { palette: new Float64Array(2 ** 22) }), /^palette has 4194304 entries; the limit is 1028$/],
    ['attention, 2^21 queries and 2^21 keys, each within its limit', () => kl.attention(new Float64Array(2 ** 21), new Float64Array(2 ** 21), new Float64Array(2 ** 21), 1, 1, 0.6),
      /^the weight matrix would have 2097152 x 2097152 cells; the limit is 16777216$/],
    ['attentionMap, 2^21 queries and 2^21 keys', () => kl.attentionMap(new Float64Array(2 ** 21), new Float64Array(2 ** 21), new Float64Array(2 ** 21), 1, 1, 0.6, { palette: PALETTE }),
      /^the weight matrix would have 2097152 x 2097152 cells/],
    ['looCurve, 2^20 bandwidths', () => kl.looCurve(K, V, 1, new Float64Array(2 ** 20)), /^bandwidths has 1048576 entries; the limit is 4096$/],
    ['a config with 2^20 bandwidths', () => kl.exactRisk({ bandwidths: new Float64Array(2 ** 20) }), /^bandwidths has 1048576 entries; the limit is 4096$/],
  ];
  for (const [name, call, message] of cases) {
    test(name, () => {
      const start = usage();
      refuses(call, RangeError, message);
      assert.deepEqual(usage(), start);
      assertLookupAnswers();
    });
  }
});

describe('inputs are validated as JavaScript values, with the project\'s own messages (issue 33, items 2 and 6)', () => {
  test('a getter or Proxy trap that throws is a TypeError naming what was read, the error as its cause', () => {
    const boom = new Error('boom');
    const into = { get weights() { throw boom; }, outputs: new Float64Array(1) };
    assert.throws(() => kl.attention(Q, K, V, 1, 1, 0.6, undefined, undefined, into), (error) => {
      assert.equal(error.constructor, TypeError);
      assert.equal(error.message, 'into.weights could not be read: boom');
      assert.equal(error.cause, boom);
      return true;
    });
    refuses(() => kl.chapterDataset({ get keys() { throw new Error('getter refused'); } }), TypeError, /^config\.keys could not be read: getter refused$/);
    refuses(() => kl.truth(new Proxy([1, 2], { get: (target, key) => { if (key === '1') throw new Error('index refused'); return Reflect.get(target, key); } })),
      TypeError, /^xs\[1\] could not be read: index refused$/);
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    refuses(() => kl.truth(proxy), TypeError, /^xs could not be read: /);
  });

  test('a long string is cut in the message; a lone surrogate is shown as itself', () => {
    refuses(() => kl.attention(Q, K, V, 1, 1, 0.6, 'x'.repeat(1e6)), RangeError, /got "x{80}…" \(1000000 characters\)$/);
    refuses(() => kl.attention(Q, K, V, 1, 1, 0.6, 'a\uD800b'), RangeError, /got "a\\ud800b"$/);
    refuses(() => kl.attention(Q, K, V, 1, 1, 0.6, 'gaussian', '\uDE00'), RangeError, /got "\\ude00"$/);
    refuses(() => kl.chapterDataset({ ['k\uD800']: 1 }), TypeError, /^config has an unknown field "k\\ud800"/);
  });

  test('numbers in messages are printed as JavaScript prints them, in full', () => {
    refuses(() => kl.attention(Q, K, V, 1, 1, -300), RangeError, /^bandwidth must be positive and finite, got -300$/);
    refuses(() => kl.linspace(0, 1, 2.5), RangeError, /^count must be an integer >= 0, got 2\.5$/);
    refuses(() => kl.uniformLimit(1e21), RangeError, /^n is 1e\+21; the limit is 4194304$/);
  });

  test('configs and views are plain objects only', () => {
    for (const [value, kind] of [[new Map([['keys', 5]]), 'a Map'], [[5], 'an array'], [new Date(0), 'a Date'], [new Float64Array(2), 'a Float64Array'],
      [new (class Settings {})(), 'a Settings']]) {
      refuses(() => kl.chapterDataset(value), TypeError, new RegExp(`^config must be a plain object, got ${kind}$`));
      refuses(() => kl.bandwidthSelection(value), TypeError, /^config must be a plain object/);
      refuses(() => kl.attentionMap(Q, K, V, 1, 1, 0.6, value), TypeError, /^view must be a plain object/);
    }
    assert.equal(kl.chapterDataset(Object.assign(Object.create(null), { keys: 5 })).keys.length, 5);
  });

  test('a config number that is not finite is refused by name', () => {
    refuses(() => kl.chapterDataset({ noise: Infinity }), RangeError, /^noise must be a finite number, got Infinity$/);
    refuses(() => kl.bandwidthSelection({ keyLow: -Infinity }), RangeError, /^keyLow must be a finite number, got -Infinity$/);
    refuses(() => kl.standardizeExercise({ bandwidth: NaN }), RangeError, /^bandwidth must be a finite number, got NaN$/);
  });

  test('overflow is refused alike in every function, never answered with NaN or Infinity', () => {
    const keys = [0, 1, 2];
    const huge = [1e308, -1e308, 3];
    refuses(() => kl.looRiskGradient(keys, huge, 1, 1), RangeError, /^the leave-one-out risk at bandwidth 1 overflows double precision; rescale the values$/);
    refuses(() => kl.looRiskGradient(keys, [1e200, -1e200, 3], 1, 1), RangeError, /^the leave-one-out risk at bandwidth 1 overflows/);
    refuses(() => kl.looCurve(keys, huge, 1, [0.5, 1]), RangeError, /^the leave-one-out risk at bandwidth 0\.5 overflows/);
    refuses(() => kl.looFit(keys, huge, 1, 1), RangeError, /^the leave-one-out risk at bandwidth 1 overflows/);
    refuses(() => kl.standardizeExercise({ noise: 1e200 }), RangeError, /^the squared errors overflow double precision at noise 1e\+200; reduce the noise level$/);
    refuses(() => kl.chapterDataset({ noise: 1e308 }), RangeError, /^the noisy values overflow double precision at noise 1e\+308; reduce the noise level$/);
    for (const config of [{ keyLow: -1e308 }, { keyHigh: 1e308 }, { queryLow: -1e308 }, { queryHigh: 1e308 }]) {
      refuses(() => kl.chapterDataset(config), RangeError, /^truth\(x\) = sin\(1\.5x\) \+ 0\.3cos\(4x\) overflows double precision/);
    }
    // As the laboratory's sweeps already did:
    refuses(() => kl.biasVarianceSweep({ noise: 1e308, worlds: 2 }), RangeError, /overflows? double precision/);
  });

  test('NumpyRandom misuse is the project\'s TypeError, never embind\'s', () => {
    const rng = new kl.NumpyRandom(1);
    rng.delete();
    refuses(() => rng.delete(), TypeError, /^NumpyRandom\.delete was called after delete\(\)/);
    refuses(() => rng.clone(), TypeError, /^NumpyRandom\.clone was called after delete\(\)/);
    assert.equal(rng.isDeleted(), true);
    refuses(() => Object.create(kl.NumpyRandom.prototype).random(3), TypeError, /^NumpyRandom\.random must be called on a NumpyRandom$/);
    refuses(() => kl.NumpyRandom.prototype.isDeleted(), TypeError, /^NumpyRandom\.isDeleted must be called on a NumpyRandom$/);
    refuses(() => kl.NumpyRandom.prototype.delete.call({}), TypeError, /^NumpyRandom\.delete must be called on a NumpyRandom$/);
  });
});

test('createKernelLens with bytes that are no module names the module that failed to compile', async () => {
  const { default: createKernelLens } = await importWasm('kernel_lens.mjs');
  // (Emscripten itself also prints the reason on the console.)
  await assert.rejects(createKernelLens({ wasmBinaries: { core: readWasm('core'), lab: new Uint8Array([1, 2, 3, 4]) } }), (error) => {
    assert.equal(error.constructor, WebAssembly.CompileError);
    assert.match(error.message, /^kernel_lens_lab\.wasm could not be compiled: CompileError: WebAssembly\.instantiate\(\): expected magic word/);
    assert.doesNotMatch(error.message, /Aborted|ASSERTIONS/);
    return true;
  });
});
