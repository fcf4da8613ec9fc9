// The two modules behind the wrapper: kernel_lens_modules.json against each module's own exports,
// the wrapper's object as their union, and calls into each module through it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { importWasm, loadKernelLens, readWasm, wasmDir } from './load.mjs';

const manifest = JSON.parse(fs.readFileSync(path.join(wasmDir, 'kernel_lens_modules.json'), 'utf8'));
const kl = await loadKernelLens();

/// Lower-camel-case names of the functions on `module` that wasm/boundary.js marked with their
/// parameter names.
function registeredFunctions(module) {
  return Object.entries(module)
    .filter(([name, value]) => /^[a-z][A-Za-z0-9]*$/.test(name) && typeof value === 'function')
    .filter(([, value]) => Array.isArray(value.kernelLensParameters))
    .map(([name]) => name)
    .sort();
}

test('kernel_lens_modules.json lists each module exactly, and no name twice', async () => {
  for (const name of ['core', 'lab']) {
    const { default: factory } = await importWasm(`kernel_lens_${name}.mjs`);
    const module = await factory({ wasmBinary: readWasm(name) });
    assert.deepEqual(manifest[name], registeredFunctions(module), name);
  }
  assert.deepEqual(manifest.core.filter((name) => manifest.lab.includes(name)), []);
});

test('each function sits in the module the figures need it from', () => {
  for (const name of ['biasVarianceSweep', 'exactRisk', 'gridMinimum', 'bandwidthSelection', 'standardizeExercise', 'looCurve', 'looFit'])
    assert.ok(manifest.lab.includes(name), name);
  for (const name of ['attention', 'olsPredict', 'olsWeights', 'chapterDataset', 'truth', 'linspace', 'underflowReport',
    'temperatureFromBandwidth', 'bandwidthFromTemperature', 'squaredDistances', 'rowSoftmax', 'nearestKeyLimit',
    'uniformLimit', 'logScores', 'dotProductScores', 'distanceScores', 'softmaxWithTemperature', 'sortedKeyPosition', 'maxRowSumError',
    'parseCsv', 'csvLimits', 'memoryUsage'])
    assert.ok(manifest.core.includes(name), name);
});

test('the factories are ES modules under their export names', () => {
  for (const [file, exportName] of [['kernel_lens_core', 'createKernelLensCore'], ['kernel_lens_lab', 'createKernelLensLab']]) {
    const source = fs.readFileSync(path.join(wasmDir, `${file}.mjs`), 'utf8');
    assert.match(source, new RegExp(`export default ${exportName};?\\s*$`), file);
  }
});

test("the wrapper's object holds both modules' functions, each from its own instance", () => {
  assert.deepEqual(registeredFunctions(kl), [...manifest.core, ...manifest.lab].sort());
  for (const name of manifest.core) assert.equal(kl[name], kl.modules.core[name], name);
  for (const name of manifest.lab) assert.equal(kl[name], kl.modules.lab[name], name);
  assert.notEqual(kl.modules.core, kl.modules.lab);
  assert.equal(kl.NumpyRandom, kl.modules.core.NumpyRandom);
});

test('a core and a laboratory function work through the wrapper, detached too', () => {
  const { temperatureFromBandwidth, gridMinimum } = kl;
  assert.equal(temperatureFromBandwidth(0.5), 0.5);
  assert.deepEqual(gridMinimum([0.1, 0.2, 0.3], [3, 1, 2]), { index: 1, bandwidth: 0.2, risk: 1 });
  assert.throws(() => gridMinimum('0.1', [1]), { name: 'TypeError', message: /bandwidths must be an array/ });
  assert.throws(() => temperatureFromBandwidth(-1), RangeError);
  assert.equal(kl.gridMinimum([1], [5]).index, 0, 'the laboratory module is usable after an error');
});
