// Lists that cannot be read (a typed array whose ArrayBuffer was detached, or resized so that the
// view lies outside it) in every argument position that takes a list, and pages that replaced the
// built-ins a binding uses (%TypedArray%.prototype.set and .slice, ArrayBuffer.isView): each call
// is a TypeError of the project's own naming the argument, and none leaves wasm stack, heap or
// handles behind. Before the boundary checked them (issue 33, item 0), each such call threw V8's
// own error from inside the wasm frame and left 16-80 bytes of wasm stack behind: after about
// 109,000 of them the module's stack was gone and every later call failed.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { embindFunctionNames } from './load-wrapper.mjs';
import { loadKernelLens } from './load.mjs';
import { assertLookupAnswers as answersLookup, K, memoryUsage, Q, V } from './lookup.mjs';

const CALLS = 200_000;
const PALETTE = Array(1028).fill(0);

/// One accepted call of every export that takes a list (the lists as arrays, the rest as numbers).
const ACCEPTED = {
  attention: [Q, K, V, 1, 1, 0.6],
  attentionMap: [Q, K, V, 1, 1, 0.6, { palette: PALETTE }],
  olsWeights: [K, [2], 1],
  olsPredict: [K, V, Q, 1],
  logScores: [Q, K, 1, 0.6],
  squaredDistances: [Q, K, 1],
  dotProductScores: [Q, K, 1],
  distanceScores: [Q, K, 1],
  rowSoftmax: [[0, 1], 2],
  softmaxWithTemperature: [[0, 1], 2, 1],
  naiveNormalize: [[0, 1], 2],
  nearestKeyLimit: [Q, K, 1],
  rowSums: [[0.5, 0.5], 2],
  maxRowSumError: [[0.5, 0.5], 2],
  underflowReport: [Q, K, 1, 0.6],
  interp: [[1], [0, 2], [0, 2]],
  sortedKeyPosition: [[1], [0, 2]],
  truth: [[1]],
  chapterDataset: [{ bandwidths: [0.5] }],
  gridMinimum: [[0.1, 0.2], [1, 2]],
  looCurve: [K, V, 1, [0.5]],
  looFit: [K, V, 1, 0.5],
  looRiskGradient: [K, V, 1, 0.5],
  looDescent: [K, V, 1, 0.5, 0.1, 1],
  biasVarianceSweep: [{ bandwidths: [0.5], worlds: 2, keys: 5, queries: 3 }],
  exactRisk: [{ bandwidths: [0.5], keys: 5, queries: 3 }],
  bandwidthSelection: [{ bandwidths: [0.5] }],
  standardizeExercise: [{ featureScales: [1, 1] }],
  localLinear: [Q, K, V, 1, 0.6],
  smootherAudit: [Q, K, 1, V, [2], 0.25, 0.6],
  bandCoverage: [[0.1, 0.2], [0, 0], [0.05, -0.05], [0.1, 0.1], 2],
  auditWorlds: [{ bandwidths: [0.2] }, 0.18, 2, 0],
  histogram: [[0.1, 0.2, 0.4], 3],
  workOf: ['auditWorlds', [2], { bandwidths: [0.2] }],
};
/// Parameters that take no list (a config, a view and `into` are read field by field below).
const NOT_LISTS = new Set(['fn', 'd', 'p', 'n', 'bandwidth', 'kernel', 'emptyRows', 'text', 'start', 'stop', 'count', 'temperature',
  'rate', 'steps', 'noise', 'into', 'config', 'view']);
/// Fields of configs and views that take a list.
const LIST_FIELDS = { config: ['bandwidths', 'featureScales'], view: ['palette'] };

function detached() {
  const array = new Float64Array(3);
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
}

function outOfBounds() {
  const buffer = new ArrayBuffer(24, { maxByteLength: 48 });
  const array = new Float64Array(buffer, 0, 3);
  buffer.resize(8);
  return array;
}

let kl;
before(async () => {
  kl = await loadKernelLens();
});

const usage = () => memoryUsage(kl);
const assertLookupAnswers = () => answersLookup(kl);

/// call(list) calls `f` with arguments(list); call(list, true) returns that call, its arguments
/// made once.
function prepared(f, args) {
  return (list, later) => {
    const given = args(list);
    return later ? () => f(...given) : f(...given);
  };
}

/// Every (function, argument) that takes a list, with the accepted call's other arguments.
function listPositions() {
  const positions = [];
  for (const part of ['core', 'lab']) {
    const module = kl.modules[part];
    for (const name of embindFunctionNames(module)) {
      const parameters = module[name].kernelLensParameters.map((parameter) => parameter.replace(/\?$/, ''));
      const lists = parameters.filter((parameter) => !NOT_LISTS.has(parameter));
      const accepted = ACCEPTED[name];
      if (lists.length === 0 && !(name in ACCEPTED)) continue;
      assert.ok(accepted, `${name} takes a list (${parameters.join(', ')}): give it an accepted call in ACCEPTED`);
      module[name](...accepted);
      parameters.forEach((parameter, i) => {
        if (!NOT_LISTS.has(parameter)) {
          positions.push({ label: `${name} ${parameter}`, path: parameter, call: prepared(module[name], (list) => accepted.map((x, j) => (j === i ? list : x))) });
        }
        for (const field of LIST_FIELDS[parameter] ?? []) {
          if (!(field in (accepted[i] ?? {}))) continue;
          positions.push({ label: `${name} ${parameter}.${field}`, path: field, call: prepared(module[name], (list) => accepted.map((x, j) => (j === i ? { ...x, [field]: list } : x))) });
        }
      });
      if (parameters.includes('into')) {
        for (const field of ['weights', 'outputs']) {
          positions.push({
            label: `${name} into.${field}`,
            path: `into.${field}`,
            call: prepared(module[name], (list) => [...accepted, undefined, undefined, { weights: new Float64Array(3), outputs: new Float64Array(1), [field]: list }]),
          });
        }
      }
    }
  }
  return positions;
}

test(`${CALLS.toLocaleString('en')} calls with detached or out-of-bounds lists in every list position are refused by name, and leave both modules as they were`, () => {
  const positions = listPositions();
  assert.ok(positions.length >= 50, `${positions.length} list positions`);
  const plan = [];
  for (const { label, path, call } of positions) {
    for (const [kind, list, reason] of [['detached', detached(), /has a detached ArrayBuffer/], ['out of bounds', outOfBounds(), /lies outside its ArrayBuffer/]]) {
      const message = new RegExp(`^${path.replace(/[.[\]]/g, '\\$&')} is a Float64Array that ${reason.source}`);
      assert.throws(() => call(list), (error) => error.constructor === TypeError && message.test(error.message), `${label} ${kind}`);
      plan.push(call(list, true));
    }
  }
  const start = usage();
  const began = performance.now();
  // The loop measures what the calls leave behind, not the errors' stack traces (whose capture
  // is most of a refusal's cost).
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (let i = 0; i < CALLS; i++) {
      let refused = false;
      try {
        plan[i % plan.length]();
      } catch (error) {
        refused = error.constructor === TypeError;
      }
      if (!refused) assert.fail(`call ${i} was not refused with a TypeError`);
    }
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  const seconds = (performance.now() - began) / 1000;
  assert.deepEqual(usage(), start);
  assertLookupAnswers();
  console.log(`# ${CALLS} calls over ${plan.length} positions in ${seconds.toFixed(2)} s`);
});

/// Runs `body` with `object[key]` replaced by a function that throws, then puts it back.
function withBroken(object, key, body) {
  const original = object[key];
  object[key] = function broken() {
    throw new Error(`${key} was replaced by the page`);
  };
  try {
    body();
  } finally {
    object[key] = original;
  }
}

test('a page that replaced %TypedArray%.prototype.set, .slice, ArrayBuffer.isView or Float64Array[Symbol.species] after loading still gets its answers', () => {
  const TypedArray = Object.getPrototypeOf(Float64Array.prototype);
  for (const [object, key] of [[TypedArray, 'set'], [TypedArray, 'slice'], [ArrayBuffer, 'isView']]) {
    withBroken(object, key, () => {
      assertLookupAnswers();
      assert.deepEqual(Array.from(kl.rowSums([0.5, 0.5], 2)), [1]);
      assert.equal(kl.gridMinimum([0.1, 0.2], [2, 1]).bandwidth, 0.2);
      assert.equal(kl.chapterDataset({ keys: 5 }).keys.length, 5);
    });
  }
  Object.defineProperty(Float64Array, Symbol.species, {
    get() {
      throw new Error('species was replaced by the page');
    },
    configurable: true,
  });
  try {
    assertLookupAnswers();
  } finally {
    delete Float64Array[Symbol.species];
  }
});

test('JavaScript code that throws inside a binding leaves no wasm stack behind and becomes a TypeError of the project\'s own', () => {
  const start = usage();
  for (const key of ['weights', 'image', 'fitted']) {
    Object.defineProperty(Object.prototype, key, {
      set() {
        throw new Error(`a setter of Object.prototype.${key}`);
      },
      configurable: true,
    });
  }
  try {
    const cases = [
      [() => kl.attention(Q, K, V, 1, 1, 0.6), /^attention could not make its result: a setter of Object\.prototype\.weights$/],
      [() => kl.attentionMap(Q, K, V, 1, 1, 0.6, { palette: PALETTE }), /^attentionMap could not make its result: a setter of Object\.prototype\.image$/],
      [() => kl.looFit(K, V, 1, 0.5), /^looFit could not make its result: a setter of Object\.prototype\.fitted$/],
    ];
    for (const [call, message] of cases) {
      for (let i = 0; i < 5000; i++) assert.throws(call, (error) => error.constructor === TypeError && message.test(error.message));
    }
  } finally {
    for (const key of ['weights', 'image', 'fitted']) delete Object.prototype[key];
  }
  assert.deepEqual(usage(), start);
  assertLookupAnswers();
});
