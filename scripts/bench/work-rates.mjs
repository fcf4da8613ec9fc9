// What one unit of the core's work costs per function: each call timed in Node (wasm, warm; the
// median of repeated calls), divided by the core's own work formula for it (workOf), beside the
// rate web/src/engine/cost.ts places calls by (`Rule.ns`). The engine's rates are meant to sit
// at or above the measured ones on a mid-range laptop (estimates on the slow side). Run by
// scripts/bench.sh; KERNEL_LENS_WASM_DIR locates the module.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformWithOxc } from 'vite';

import { loadKernelLens } from '../../tests/wasm/load.mjs';
import { medianMs } from './median.mjs';

/// cost.ts compiled for Node, and its rule's rate of each function (read through place()).
async function loadCost() {
  const source = await readFile(fileURLToPath(new URL('../../web/src/engine/cost.ts', import.meta.url)), 'utf8');
  const { code } = await transformWithOxc(source, 'cost.ts');
  const file = join(tmpdir(), `kernel-lens-cost-bench-${process.pid}.mjs`);
  await writeFile(file, code);
  try {
    return await import(file);
  } finally {
    await rm(file, { force: true });
  }
}

const points = (count, low, high) => Float64Array.from({ length: count }, (_, i) => low + ((high - low) * i) / Math.max(count - 1, 1));
const wave = (xs) => xs.map((x) => Math.sin(1.5 * x));
const scores = (cells) => Float64Array.from({ length: cells }, (_, i) => -((i * 7919) % 101) / 10);

/// Calls at the chapter's sizes and at large ones: [label, fn, args].
function cases() {
  const k60 = points(60, -3, 3);
  const q241 = points(241, -2.9, 2.9);
  const k2000 = points(2000, -3, 3);
  const q2000 = points(2000, -3, 3);
  const bands = Array.from({ length: 8 }, (_, i) => 0.05 * 20 ** (i / 7));
  return [
    ['241 × 60, d = 1', 'attention', [q241, k60, wave(k60), 1, 1, 0.3]],
    ['2000 × 2000, d = 1', 'attention', [q2000, k2000, wave(k2000), 1, 1, 0.3]],
    ['241 × 60', 'distanceScores', [q241, k60, 1]],
    ['2000 × 2000', 'distanceScores', [q2000, k2000, 1]],
    ['241 × 60', 'rowSoftmax', [scores(241 * 60), 60]],
    ['2000 × 2000', 'rowSoftmax', [scores(2000 * 2000), 2000]],
    ['60 keys, 241 queries', 'olsPredict', [k60, wave(k60), q241, 1]],
    ['241 × 60', 'localLinear', [q241, k60, wave(k60), 1, 0.3]],
    ['241 × 2000', 'localLinear', [q241, k2000, wave(k2000), 1, 0.3]],
    ['60 keys, 8 h', 'looCurve', [k60, wave(k60), 1, bands]],
    ['2000 keys, 8 h', 'looCurve', [k2000, wave(k2000), 1, bands]],
    ['2000 keys', 'looRiskGradient', [k2000, wave(k2000), 1, 0.3]],
    ["the chapter's", 'biasVarianceSweep', []],
    ['20,000 worlds, 1 h', 'biasVarianceSweep', [{ worlds: 20000, bandwidths: [0.3] }]],
    ["the chapter's", 'exactRisk', []],
    ['1,000 worlds, 30 curves', 'auditWorlds', [{}, 0.3, 30, 0]],
    ["the chapter's", 'bandwidthSelection', []],
    ["the chapter's", 'standardizeExercise', []],
    ['5,000 rows', 'parseCsv', [`x,y\n${Array.from({ length: 5000 }, (_, i) => `${i / 100},${Math.sin(i)}`).join('\n')}\n`]],
  ];
}

const { place, nsPerWork, CALL_NS } = await loadCost();
const kl = await loadKernelLens();
console.log("Work rates: ns per unit of the core's work (workOf), measured in Node (wasm), beside web/src/engine/cost.ts's rates");
console.log('function'.padEnd(20), 'sizes'.padEnd(26), 'work'.padStart(10), 'ms'.padStart(9), 'ns/unit'.padStart(9), 'cost.ts'.padStart(9));
for (const [label, fn, args] of cases()) {
  const ms = medianMs(() => kl[fn](...args), 400);
  // The core's work for the call, from cost.ts' estimate (its rate times the work, plus a call's fixed cost).
  const rate = nsPerWork(fn);
  const work = (place([{ fn, args }], kl.workOf).ms * 1e6 - CALL_NS) / rate;
  console.log(fn.padEnd(20), label.padEnd(26), work.toExponential(2).padStart(10), ms.toFixed(3).padStart(9), ((ms * 1e6) / work).toFixed(2).padStart(9), String(rate).padStart(9));
}
