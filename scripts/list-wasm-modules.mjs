#!/usr/bin/env node
// Writes kernel_lens_modules.json in the wasm output folder: { core: [names], lab: [names] }, the
// embind functions each module exports (sorted). Fails when a name is exported by both modules.
// Usage: node scripts/list-wasm-modules.mjs [wasm folder]   (default build/wasm)
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = resolve(process.argv[2] ?? 'build/wasm');
const { embindFunctionNames } = await import(pathToFileURL(join(dir, 'kernel_lens.mjs')).href);

const lists = {};
for (const name of ['core', 'lab']) {
  const { default: factory } = await import(pathToFileURL(join(dir, `kernel_lens_${name}.mjs`)).href);
  lists[name] = embindFunctionNames(await factory({ wasmBinary: readFileSync(join(dir, `kernel_lens_${name}.wasm`)) }));
}
const shared = lists.core.filter((name) => lists.lab.includes(name));
if (shared.length > 0) {
  console.error(`list-wasm-modules: exported by both modules: ${shared.join(', ')}`);
  process.exit(1);
}
writeFileSync(join(dir, 'kernel_lens_modules.json'), `${JSON.stringify(lists, null, 2)}\n`);
console.log(`kernel_lens_modules.json: core ${lists.core.length} functions, lab ${lists.lab.length}`);
