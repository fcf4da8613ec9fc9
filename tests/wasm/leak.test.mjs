// 100,000 failing calls, spread over every exported function of both modules and over the ways a
// call can fail (too many arguments, wrong types, counts of 2^32 and more, configs and arrays whose
// own code throws, typed arrays whose buffer was detached or resized below them, values the core
// refuses), leave each module's wasm stack pointer, wasm memory,
// malloc'd bytes and embind handles where they started, and the lookup still answers 2.7412.
// Before the boundary returned its errors, each failure inside wasm left 16-460 bytes of wasm stack
// behind and the module died after about 65,536 of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { embindClassNames, embindFunctionNames } from './load-wrapper.mjs';
import { loadKernelLens } from './load.mjs';

const FAILURES = 100_000;

const ARRAYS = new Set(['queries', 'keys', 'values', 'query', 'targets', 'scores', 'logScores', 'weights', 'xs', 'x', 'xp', 'fp',
  'bandwidths', 'risks']);
const COUNTS = new Set(['d', 'p', 'n', 'count']);

/// Typed arrays that cannot be read: the buffer detached, or resized below the view.
const detachedArray = new Float64Array(3);
structuredClone(detachedArray.buffer, { transfer: [detachedArray.buffer] });
const resizable = new ArrayBuffer(24, { maxByteLength: 24 });
const outOfBoundsArray = new Float64Array(resizable, 0, 3);
resizable.resize(8);

/// A throwing config / array: its own code fails in JavaScript, before wasm is entered.
const hostileConfig = new Proxy({}, { ownKeys() { throw new Error('ownKeys refused'); } });
const hostileArray = new Proxy([1, 2, 3], { get(target, key) { if (key === 'length') throw new Error('length refused'); return Reflect.get(target, key); } });

/// The failing argument lists of a function with these parameter names (bare, no "?"): each one
/// fails in a different place (the wrapper, the binding's conversion, the core).
function failingCalls(names) {
  const calls = [Array(names.length + 1).fill(0)];
  if (names.length === 0) return calls;
  calls.push(names.map(() => true));
  const pick = (name, { count, array, config, number }) =>
    name === 'config' ? config : ARRAYS.has(name) ? array : COUNTS.has(name) ? count : name === 'text' ? 'x,y\n1,2\n3,abc\n' : number;
  if (names.some((name) => COUNTS.has(name)))
    calls.push(names.map((name) => pick(name, { count: 2 ** 32 + 1, array: [1, 2, 3], number: 0.6 })));
  if (names.includes('config')) {
    calls.push([{ keys: 2 ** 32 + 3 }], [{ worlds: 2 ** 32 + 1000 }], [hostileConfig], [{ bandwidths: [-1] }], [{ bandwidths: detachedArray }],
      [new Map()]);
  }
  if (names.some((name) => ARRAYS.has(name))) {
    calls.push(names.map((name) => pick(name, { count: 1, array: hostileArray, number: 0.6 })));
    calls.push(names.map((name) => pick(name, { count: 1, array: [1, NaN, 3], number: -1 })));
    calls.push(names.map((name) => pick(name, { count: 1, array: detachedArray, number: 0.6 })));
    calls.push(names.map((name) => pick(name, { count: 1, array: outOfBoundsArray, number: 0.6 })));
  }
  if (names.includes('text')) calls.push(['x,y\n1,2\n3,abc\n']);
  return calls;
}

function usage(kl) {
  return { core: kl.memoryUsage(), lab: kl.labMemoryUsage() };
}

test(`${FAILURES.toLocaleString('en')} failing calls of every export leave both modules' stack, heap and handles flat`, async () => {
  const kl = await loadKernelLens();
  const plan = [];
  for (const part of ['core', 'lab']) {
    const module = kl.modules[part];
    for (const name of embindFunctionNames(module)) {
      const names = module[name].kernelLensParameters.map((parameter) => parameter.replace(/\?$/, ''));
      for (const args of failingCalls(names)) plan.push({ label: `${name}(${args.length} arguments)`, call: () => module[name](...args) });
    }
    for (const className of embindClassNames(module)) {
      const Class = module[className];
      plan.push({ label: `new ${className}(-1)`, call: () => new Class(-1) });
      plan.push({ label: `new ${className}(true)`, call: () => new Class(true) });
      plan.push({ label: `new ${className}()`, call: () => new Class() });
      const live = new Class(1);
      const dead = new Class(2);
      dead.delete();
      for (const method of Object.getOwnPropertyNames(Class.prototype)) {
        const parameters = Class.prototype[method].kernelLensParameters;
        if (!parameters) continue;
        for (const args of failingCalls(parameters)) plan.push({ label: `${className}.${method}(${args.length} arguments)`, call: () => live[method](...args) });
        plan.push({ label: `deleted ${className}.${method}`, call: () => dead[method](1, 2, 3) });
      }
    }
  }
  // Warm-up (embind builds its caches on first use); an argument list the function accepts (truth
  // maps NaN to NaN) leaves the plan, but every function keeps a way to fail.
  const failing = plan.filter(({ call }) => {
    try {
      call();
      return false;
    } catch {
      return true;
    }
  });
  const perFunction = new Map();
  for (const { label } of failing) perFunction.set(label.split('(')[0], (perFunction.get(label.split('(')[0]) ?? 0) + 1);
  for (const { label } of plan) assert.ok((perFunction.get(label.split('(')[0]) ?? 0) >= 1, `${label}: a failing call`);
  assert.ok(failing.length > 100, `${failing.length} failing calls in the plan`);
  const start = usage(kl);
  assert.equal(typeof start.core.stackPointer, 'number');
  assert.equal(typeof start.lab.stackPointer, 'number');
  for (let i = 0; i < FAILURES; i++) {
    const { label, call } = failing[i % failing.length];
    let threw = false;
    try {
      call();
    } catch (error) {
      threw = error instanceof Error && error.message.length < 300;
    }
    if (!threw) assert.fail(`${label} should fail with a short message`);
  }
  const end = usage(kl);
  assert.deepEqual(end, start);
  assert.equal(kl.attention([3.5], [1, 3, 5], [1.5, 2.8, 1.8], 1, 1, 0.6).outputs[0].toFixed(4), '2.7412');
});
