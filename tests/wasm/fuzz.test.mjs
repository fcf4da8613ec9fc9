// A seeded fuzz of the JavaScript boundary: random argument lists (counts near 2^32 and 2^53,
// every typed-array kind, subclasses that lie about their length, views whose ArrayBuffer was
// detached or resized below them, configs with huge sizes, Proxies and getters that throw)
// against every export of both modules and NumpyRandom.
// Each call answers or throws a short TypeError / RangeError (the caller's own error as the cause
// of a TypeError naming what was read); never
// embind's BindingError, a wasm trap or a message with embind's source. Afterwards each module's
// stack pointer and handles are where they started and the lookup still answers 2.7412.
// FUZZ_CALLS (default 3000) and FUZZ_SEED (default 1) set the campaign; CI runs the default.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { embindClassNames, embindFunctionNames } from './load-wrapper.mjs';
import { loadKernelLens } from './load.mjs';

const CALLS = Number(process.env.FUZZ_CALLS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 1);

/// mulberry32: a small seeded generator, so a failing campaign can be replayed.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUMBERS = [0, 1, 2, 3, -1, 0.5, 0.6, 1.5, NaN, Infinity, -Infinity, -0, 1e308, 1e-300, 1e-160, 2 ** 31, 2 ** 32,
  2 ** 32 + 1, 2 ** 32 + 3, 2 ** 53, 2 ** 53 - 1, 2 ** 64];
const STRINGS = ['gaussian', 'laplacian', 'epanechnikov', 'tricube', 'nearest', 'error', '', 'x', 'x,y\n1,2\n3,4\n', 'x,y\n1,abc\n'];
const FIELDS = ['keys', 'queries', 'worlds', 'bandwidths', 'noise', 'keySeed', 'observedSeed', 'monteCarloSeed', 'keyLow',
  'keyHigh', 'queryLow', 'queryHigh', 'seed', 'train', 'validation', 'test', 'curvePoints', 'featureScales', 'bandwidth', 'bandwith'];

class LongerArray extends Float64Array {
  get length() {
    return 1000;
  }
}

function fuzzer(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const small = () => pick([0, 1, 2, 3, 4]);
  const numbers = (length) => Array.from({ length }, () => (random() < 0.8 ? pick([0.5, 1, 2, 3, -1, 0.25]) : pick(NUMBERS)));
  const typed = () => {
    const values = numbers(small() + 1);
    switch (Math.floor(random() * 10)) {
      case 0: return Float64Array.from(values);
      case 1: return Float32Array.from(values);
      case 2: return Int32Array.from(values.map((x) => (Number.isFinite(x) ? Math.trunc(x) : 0)));
      case 3: return Uint8ClampedArray.from(values);
      case 4: return BigInt64Array.from(values.map(() => 1n));
      case 5: return new DataView(new ArrayBuffer(8 * values.length));
      case 6: return LongerArray.from(values);
      case 7: {
        const view = Float64Array.from(values);
        structuredClone(view.buffer, { transfer: [view.buffer] });
        return view;
      }
      case 8: {
        const buffer = new ArrayBuffer(8 * values.length, { maxByteLength: 8 * values.length });
        const view = new Float64Array(buffer, 0, values.length);
        buffer.resize(0);
        return view;
      }
      default: return Float64Array.from(values).subarray(1);
    }
  };
  const config = () => {
    if (random() < 0.1) return new Proxy({}, { ownKeys() { throw new Error('fuzz: ownKeys'); } });
    if (random() < 0.05) return { get keys() { throw new Error('fuzz: getter'); } };
    const out = {};
    for (let i = 0, n = small(); i < n; i++) {
      const field = pick(FIELDS);
      out[field] = field === 'bandwidths' || field === 'featureScales' ? (random() < 0.5 ? numbers(small()) : typed())
        : field === 'worlds' ? pick([2, 3, 2 ** 32 + 2, 0, 1.5, NaN]) : random() < 0.7 ? small() : pick(NUMBERS);
    }
    // Keep accepted runs cheap: the laboratory's defaults are 1000 worlds.
    if (!('worlds' in out)) out.worlds = 2;
    return out;
  };
  const argument = () => {
    switch (Math.floor(random() * 11)) {
      case 0: case 1: return pick(NUMBERS);
      case 2: return small();
      case 3: return numbers(small());
      case 4: return typed();
      case 5: return pick(STRINGS);
      case 6: return config();
      case 7: return pick([undefined, null, true, {}, Symbol('fuzz'), () => 1, [1, 'x'], [[1]]]);
      case 8: return new Proxy([1, 2], { get(target, key) { if (key === '1') throw new Error('fuzz: index'); return Reflect.get(target, key); } });
      default: return numbers(small() + 1);
    }
  };
  return { pick, argument, small };
}

function usage(kl) {
  return { core: kl.memoryUsage(), lab: kl.labMemoryUsage() };
}

test(`${CALLS} seeded random calls (seed ${SEED}) answer or refuse with short TypeErrors / RangeErrors`, async () => {
  const kl = await loadKernelLens();
  const random = generator(SEED);
  const { pick, argument, small } = fuzzer(random);
  const targets = [];
  for (const part of ['core', 'lab']) {
    const module = kl.modules[part];
    for (const name of embindFunctionNames(module)) {
      if (name === 'memoryUsage' || name === 'labMemoryUsage') continue;
      targets.push({ name, arity: module[name].kernelLensParameters.length, call: (args) => module[name](...args) });
    }
    for (const className of embindClassNames(module)) {
      const Class = module[className];
      targets.push({ name: `new ${className}`, arity: 1, call: (args) => new Class(...args).delete() });
      const live = new Class(1);
      for (const method of Object.getOwnPropertyNames(Class.prototype)) {
        const parameters = Class.prototype[method].kernelLensParameters;
        if (parameters) targets.push({ name: `${className}.${method}`, arity: parameters.length, call: (args) => live[method](...args) });
      }
    }
  }
  kl.attention([3.5], [1, 3, 5], [1.5, 2.8, 1.8], 1, 1, 0.6);
  const start = usage(kl);
  const seen = { answered: 0, TypeError: 0, RangeError: 0, caller: 0, unreadable: 0 };
  for (let i = 0; i < CALLS; i++) {
    const target = pick(targets);
    const count = random() < 0.8 ? target.arity : Math.max(0, target.arity + small() - 2);
    const args = Array.from({ length: count }, argument);
    try {
      target.call(args);
      seen.answered++;
    } catch (error) {
      const text = `${target.name} call ${i}: ${error?.name}: ${String(error?.message).slice(0, 400)}`;
      if (error instanceof TypeError && / could not be read: fuzz: /.test(error.message) && error.cause?.message.startsWith('fuzz: ')) {
        seen.caller++;
        continue;
      }
      assert.ok(error instanceof TypeError || error instanceof RangeError, text);
      assert.ok(error.constructor === TypeError || error.constructor === RangeError, text);
      assert.ok(error.message.length > 0 && error.message.length < 300, text);
      assert.doesNotMatch(error.message, /BindingError|emval|embind|Aborted|function\(|=>/, text);
      seen[error.name]++;
      if (/ (a detached ArrayBuffer|outside its ArrayBuffer)/.test(error.message)) seen.unreadable++;
    }
  }
  const end = usage(kl);
  for (const part of ['core', 'lab']) {
    assert.equal(end[part].stackPointer, start[part].stackPointer, `${part}: stack pointer`);
    assert.equal(end[part].liveHandles, start[part].liveHandles, `${part}: handles`);
  }
  assert.equal(kl.attention([3.5], [1, 3, 5], [1.5, 2.8, 1.8], 1, 1, 0.6).outputs[0].toFixed(4), '2.7412');
  assert.ok(seen.answered > 0 && seen.TypeError > 0 && seen.RangeError > 0 && seen.caller > 0 && seen.unreadable > 0, JSON.stringify(seen));
  console.log(`# fuzz: ${JSON.stringify(seen)}`);
});
