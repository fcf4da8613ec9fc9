#!/usr/bin/env node
// Writes tests/fixtures/attention_regimes.json: per regime of tests/wasm/attention-regimes.mjs,
// the SHA-256 of attention's results and of the map's frame from the wasm build in
// $KERNEL_LENS_WASM_DIR (default build/wasm). Run once on the build before a change to the core's
// row loops; tests/wasm/attention_regimes.test.mjs then holds every later build to those bits.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { regimeDigests, regimes, SIZES } from '../tests/wasm/attention-regimes.mjs';
import { loadKernelLens } from '../tests/wasm/load.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const kl = await loadKernelLens();
const cases = {};
for (const size of SIZES)
  for (const regime of regimes(size.m, size.n, size.p)) cases[`${size.m}x${size.n}x${size.p} ${regime.name}`] = regimeDigests(kl, regime);
const out = path.join(root, 'tests/fixtures/attention_regimes.json');
const source = process.argv[2] ?? 'the build in ' + (process.env.KERNEL_LENS_WASM_DIR ?? 'build/wasm');
fs.writeFileSync(out, `${JSON.stringify({ source, cases }, null, 1)}\n`);
console.log(`wrote ${Object.keys(cases).length} cases to ${path.relative(root, out)}`);
